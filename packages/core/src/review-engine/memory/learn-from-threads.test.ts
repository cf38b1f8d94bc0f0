import { describe, expect, it } from 'vitest';
import type { AiChatRequest } from '../../ai-model/index.js';
import type { ReviewThread } from '../../scm-provider/index.js';
import { runReview } from '../pipeline/run-review.js';
import { memoryProtocol, memoryPullRequest, modelsByPurpose, reviewInput } from '../testing/memory-review.js';
import { changedFiles as files, lines, reviewAnswer } from '../testing/review-fixtures.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { createMemoryLedger } from './review-memory.js';
import type { LearnedDecision, PastDecision, ThreadMemory } from './thread-memory.js';

const PRICES = { inputCostPer1MUsd: 1, outputCostPer1MUsd: 2 };
const margin = { externalUserId: 'bot', login: 'margin-bot', displayName: 'Margin', isBot: true };
const dana = { externalUserId: 'p1', login: 'dana', displayName: 'Dana', isBot: false };

/** A thread memory held in memory, as the service's port behaves: one record per thread. */
function threadMemory(): ThreadMemory & { records: Map<string, PastDecision & { createdBy: string | null }> } {
  const records = new Map<string, PastDecision & { createdBy: string | null }>();
  return {
    records,
    async list() {
      return [...records.values()];
    },
    async remember(d: LearnedDecision) {
      const stored = {
        id: `m-${d.providerThreadId}`,
        source: d.source,
        intent: d.intent,
        filePath: d.filePath,
        summary: d.summary,
        findingFingerprint: d.findingFingerprint,
        threadOnThisPullRequest: d.providerThreadId,
        embedding: d.embedding,
        forgotten: false,
        createdBy: d.createdBy,
      };
      records.set(d.providerThreadId, stored);
      return stored;
    },
    async forget(threadId) {
      return records.delete(threadId);
    },
  };
}

/** Margin's thread on `src/a.ts` with a person's reply. */
const answered = (reply: string): ReviewThread => ({
  threadId: 't1',
  status: 'open',
  anchor: { filePath: 'src/a.ts', startLine: 2, endLine: 2 },
  marker: 'margin:fp=abc123',
  comments: [
    { commentId: 'c1', author: margin, body: 'Empty orders total NaN', createdAt: '2026-01-01T00:00:00Z' },
    { commentId: 'c2', author: dana, body: reply, createdAt: '2026-01-02T00:00:00Z' },
  ],
});

async function reviewWith(thread: ReviewThread, judge?: ReturnType<typeof scriptedModel>) {
  const pr = memoryPullRequest(
    files({ 'src/a.ts': { before: lines(3, (i) => `old${i}`), after: lines(3, (i) => `new${i}`) } }),
  );
  pr.threads.push(thread);
  const reviewer = scriptedModel(() => reviewAnswer());
  const memory = threadMemory();
  const protocol = memoryProtocol();
  await runReview(
    reviewInput({
      source: pr,
      models: modelsByPurpose(
        { model: reviewer, prices: PRICES },
        judge ? { memoryReconsideration: { model: judge, prices: PRICES } } : {},
      ),
      memory: { publications: createMemoryLedger('job-1'), dismissals: async () => [], threadMemory: memory },
      protocol,
      settings: { verify: false },
    }),
  );
  return { memory, protocol };
}

describe('learning from replies on Margin’s threads', () => {
  it('without a memoryReconsideration model, keeps a reply that says "false positive" as the person’s rejection', async () => {
    const { memory } = await reviewWith(answered('False positive: orders are never empty here.'));
    expect([...memory.records.values()]).toEqual([
      expect.objectContaining({ source: 'replyRejected', intent: 'rejected', createdBy: 'dana', filePath: 'src/a.ts' }),
    ]);
    const { memory: none } = await reviewWith(answered('Good point, I will fix it.'));
    expect(none.records.size).toBe(0);
  });

  it('with the model mapped, asks it (fenced) and follows its answer over the words', async () => {
    const judge = scriptedModel((request: AiChatRequest) => {
      const asked = request.messages[0]?.content ?? '';
      return { text: JSON.stringify({ items: [{ id: 'R1', yes: asked.includes('checked upstream'), why: '' }] }) };
    });
    const { memory } = await reviewWith(answered('We checked upstream, orders always have lines.'), judge);
    expect(judge.requests).toHaveLength(1);
    expect(judge.requests[0]?.messages[0]?.content).toMatch(/<<<UNTRUSTED memory nonce=\w+>>>/);
    expect([...memory.records.values()]).toEqual([
      expect.objectContaining({ source: 'replyRejected', intent: 'rejected', createdBy: 'dana' }),
    ]);
    // The words say "false positive", the model says no: the model decides.
    const disagreeing = scriptedModel(() => ({ text: JSON.stringify({ items: [{ id: 'R1', yes: false, why: '' }] }) }));
    const { memory: kept } = await reviewWith(answered('False positive? No, this one is real; fixing.'), disagreeing);
    expect(kept.records.size).toBe(0);
    const { memory: byWords } = await reviewWith(answered('False positive? No, this one is real; fixing.'));
    expect(byWords.records.size).toBe(1);
  });
});
