import { describe, expect, it } from 'vitest';
import type { AiChatRequest, AiUsage } from '../../ai-model/index.js';
import { createReviewEngine } from '../engine.js';
import type { EngineFinding } from '../engine-finding.js';
import { createMemoryLedger } from '../memory/review-memory.js';
import { type ReviewSettings, runReview } from '../pipeline/run-review.js';
import { VERIFY_SYSTEM_PROMPT } from '../prompt/review-prompt.js';
import { findingView } from '../result-view.js';
import type { gitDiffOf } from '../testing/git-diff.js';
import { memoryProtocol, memoryPullRequest, reviewInput, singleModel } from '../testing/memory-review.js';
import { reviewAnswer as answer, changedFiles as files, lines } from '../testing/review-fixtures.js';
import { type ScriptedAnswer, scriptedModel } from '../testing/scripted-model.js';

/**
 * Thorough mode (reference §6.5, §9 step 8, §10): a high-tier chunk of a repository that asks for
 * it is reviewed by several samples with shuffled hunks, and only findings enough samples agree on
 * are kept; its cost is in the estimate and it is the first thing the soft cap gives up.
 */

const changed = new Set([5, 25, 45]);
/** Three hunks (lines 5, 25 and 45 changed); the path makes the file high tier. */
const AUTH = {
  before: lines(60, (i) => `export const v${i} = ${i};`),
  after: lines(60, (i) => (changed.has(i) ? `export const v${i} = compute(${i});` : `export const v${i} = ${i};`)),
};
const LOW = { after: lines(3, (i) => `export const u${i} = ${i};`) };
/** Low tier (25 changed lines) but long lines: over a 1,000-token chunk target, so it has a chunk of its own. */
const LOW_WIDE = { after: lines(25, (i) => `export const u${i} = '${'x'.repeat(240)}';`) };

const finding = (line: number, over: Record<string, unknown> = {}) => ({
  path: 'src/auth.ts',
  quote: `export const v${line} = compute(${line});`,
  startLine: line,
  endLine: line,
  category: 'bug',
  title: `Wrong unit passed to compute at ${line}`,
  evidence: 'compute takes milliseconds; the caller passes seconds.',
  claim: { kind: 'none', symbol: null, path: null },
  severity: 'error',
  confidence: 85,
  message: `\`compute\` receives seconds here but expects milliseconds, so v${line} is 1000 times too small.`,
  suggestion: null,
  ruleId: null,
  ...over,
});
const isVerify = (r: AiChatRequest) => r.system?.startsWith(VERIFY_SYSTEM_PROMPT) === true;
const shownPaths = (r: AiChatRequest) =>
  [...(r.messages[0]?.content ?? '').matchAll(/^## File: (\S+)/gm)].map((m) => m[1]);
const hunkOrder = (r: AiChatRequest) => [...(r.messages[0]?.content ?? '').matchAll(/^@@ [^@]+ @@/gm)].map((m) => m[0]);

/** A model answering each review call by its position among the calls about `src/auth.ts`. */
function bySample(samples: ScriptedAnswer[], otherwise = answer()) {
  let n = 0;
  return scriptedModel((request, index) => {
    if (isVerify(request) || !shownPaths(request).includes('src/auth.ts')) return otherwise;
    const scripted = samples[n++] ?? answer();
    return typeof scripted === 'function' ? scripted(request, index) : scripted;
  });
}

const costly: AiUsage = {
  inputTokens: 50_000,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
};

async function review(
  changes: Parameters<typeof gitDiffOf>[0],
  model: ReturnType<typeof scriptedModel>,
  config: string | undefined,
  settings: Partial<ReviewSettings> = {},
) {
  const pr = memoryPullRequest(files(changes));
  if (config !== undefined) pr.branchFiles['.margin/config.yml'] = config;
  const protocol = memoryProtocol();
  const run = await runReview(
    reviewInput({
      source: pr,
      models: singleModel(model),
      memory: { publications: createMemoryLedger('job-1'), dismissals: async () => [] },
      protocol,
      settings: { verify: false, ...settings },
    }),
  );
  const events = (name: string) => protocol.events.filter((e) => e.name === name).map((e) => e.body);
  const reviewCalls = (path: string) => model.requests.filter((r) => !isVerify(r) && shownPaths(r).includes(path));
  return { run, events, reviewCalls };
}

const ON = 'thorough: true\n';

describe('consensus over the samples', () => {
  it('keeps a finding 2 of 3 samples give (worded differently, same line) and drops one only 1 of 3 gives', async () => {
    const model = bySample([
      answer(finding(25, { confidence: 80 })),
      answer(
        finding(25, {
          title: 'compute is given seconds, not milliseconds',
          message: 'The value passed to `compute` is in seconds; `compute` wants milliseconds.',
          confidence: 92,
          severity: 'warning',
        }),
      ),
      answer(finding(45)),
    ]);
    const { run, events, reviewCalls } = await review({ 'src/auth.ts': AUTH }, model, ON);

    expect(reviewCalls('src/auth.ts')).toHaveLength(3);
    const model25 = run.findings.filter((f) => f.source === 'model' && f.anchor?.startLine === 25);
    expect(model25).toHaveLength(1);
    // The best of the group by severity, with the group's highest confidence and the agreement noted.
    expect(model25[0]).toMatchObject({
      severity: 'error',
      confidence: 92,
      publication: 'published',
      consensus: { agreed: 2, samples: 3 },
    });
    // The job result shows the agreement too.
    expect(findingView(model25[0] as EngineFinding).consensus).toEqual({ agreed: 2, samples: 3 });
    const model45 = run.findings.filter((f) => f.anchor?.startLine === 45);
    expect(model45).toEqual([expect.objectContaining({ publication: 'dropped', reason: 'noConsensus' })]);
    expect(events('finding.dropped')).toContainEqual(
      expect.objectContaining({ findingId: model45[0]?.id, reason: 'noConsensus', agreed: 1, samples: 3 }),
    );
    expect(events('thorough.samples')).toEqual([
      expect.objectContaining({
        asked: 3,
        answered: 3,
        failed: [],
        groups: 2,
        survivors: [{ findingId: model25[0]?.id, agreed: 2, samples: 3 }],
      }),
    ]);
    expect(events('plan.ready')[0]).toMatchObject({ thoroughChunks: 1, thorough: { samples: 3, minAgreement: 2 } });
    expect(run.summary).toContain('not agreed on by enough thorough-mode samples');
  });

  it('shows each sample the hunks in another order, at the thorough temperature, the same on a rerun', async () => {
    const model = bySample([]);
    const { reviewCalls } = await review({ 'src/auth.ts': AUTH }, model, ON);
    const calls = reviewCalls('src/auth.ts');
    const orders = calls.map(hunkOrder);
    expect(orders).toHaveLength(3);
    expect(new Set(orders.map((o) => o.join('|'))).size).toBe(3);
    for (const order of orders) expect([...order].sort()).toEqual([...(orders[0] ?? [])].sort());
    expect(orders[0]).toHaveLength(3);
    expect(calls.map((r) => r.temperature)).toEqual([0.4, 0.4, 0.4]);

    const again = await review({ 'src/auth.ts': AUTH }, bySample([]), ON);
    expect(again.reviewCalls('src/auth.ts').map(hunkOrder)).toEqual(orders);
  });
});

describe('which chunks are thorough', () => {
  it('only high-tier chunks: a low-tier chunk of the same review makes one call at the usual temperature', async () => {
    const model = bySample([]);
    const { reviewCalls, events } = await review({ 'src/auth.ts': AUTH, 'src/util.ts': LOW_WIDE }, model, ON, {
      targetChunkTokens: 1000,
    });
    expect(reviewCalls('src/util.ts').every((r) => shownPaths(r).length === 1)).toBe(true);
    expect(reviewCalls('src/auth.ts')).toHaveLength(3);
    expect(reviewCalls('src/util.ts').map((r) => r.temperature)).toEqual([0.1]);
    expect(events('thorough.samples')).toHaveLength(1);
  });

  it('none when the repository says thorough: false, says nothing, or says something invalid', async () => {
    for (const config of ['thorough: false\n', undefined, 'exclude: []\n', 'thorough: "yes"\n']) {
      const model = bySample([answer(finding(45))]);
      const { run, reviewCalls, events } = await review({ 'src/auth.ts': AUTH }, model, config);
      expect(reviewCalls('src/auth.ts')).toHaveLength(1);
      expect(reviewCalls('src/auth.ts')[0]?.temperature).toBe(0.1);
      expect(run.findings.find((f) => f.anchor?.startLine === 45)?.publication).toBe('published');
      expect(events('thorough.samples')).toEqual([]);
      expect(events('plan.ready')[0]).toMatchObject({ thoroughChunks: 0 });
      if (config?.includes('"yes"')) {
        expect(events('config.invalid')).toEqual([{ message: expect.stringContaining('"thorough" is invalid') }]);
      }
    }
  });
});

describe('failing samples', () => {
  it('a sample that fails is recorded, and the consensus is made over those that answered', async () => {
    const model = bySample([answer(finding(25)), new Error('connection reset'), answer(finding(25))]);
    const { run, events } = await review({ 'src/auth.ts': AUTH }, model, ON);
    expect(run.coverage.files[0]).toMatchObject({ path: 'src/auth.ts', state: 'reviewed' });
    expect(run.findings.find((f) => f.anchor?.startLine === 25)).toMatchObject({
      publication: 'published',
      consensus: { agreed: 2, samples: 2 },
    });
    expect(events('thorough.samples')[0]).toMatchObject({
      asked: 3,
      answered: 2,
      failed: [{ sample: 1, reason: expect.stringMatching(/^modelError/) }],
    });
    expect(events('thorough.degraded')).toEqual([]);
  });

  it('with fewer answers than agreement needs, keeps the union of what answered, never failing the chunk', async () => {
    const model = bySample([new Error('down'), new Error('timed out'), answer(finding(45))]);
    const { run, events } = await review({ 'src/auth.ts': AUTH }, model, ON);
    expect(run.allFailed).toBe(false);
    expect(run.coverage.files[0]).toMatchObject({ state: 'reviewed' });
    expect(run.findings.find((f) => f.anchor?.startLine === 45)).toMatchObject({ publication: 'published' });
    expect(events('thorough.degraded')).toEqual([
      expect.objectContaining({ answered: 1, minAgreement: 2, reason: 'samplesFailed', kept: 'union' }),
    ]);
  });

  it('fails the chunk, as one conversation would, when no sample answers', async () => {
    const model = bySample([new Error('down'), new Error('down'), new Error('down')]);
    const { run } = await review({ 'src/auth.ts': AUTH }, model, ON);
    expect(run.coverage.files[0]).toMatchObject({
      state: 'reviewFailed',
      reason: expect.stringMatching(/^modelError/),
    });
  });
});

describe('cost and caps', () => {
  it('the estimate counts the generation of a thorough chunk once per sample, and only of high-tier chunks', async () => {
    const plain = await review({ 'src/auth.ts': AUTH }, bySample([]), undefined);
    const thorough = await review({ 'src/auth.ts': AUTH }, bySample([]), ON);
    const p = plain.run.coverage.estimate;
    const t = thorough.run.coverage.estimate;
    // Without the verifier and tools the estimate is all generation: exactly three times as much.
    expect(t?.inputTokens).toBe(3 * (p?.inputTokens ?? 0));
    expect(t?.costUsd).toBeCloseTo(3 * (p?.costUsd ?? 0), 5);
    // The verifier's share is not multiplied: it runs once, on what the samples agreed on.
    const verified = await review({ 'src/auth.ts': AUTH }, bySample([]), ON, { verify: true });
    const plainVerified = await review({ 'src/auth.ts': AUTH }, bySample([]), undefined, { verify: true });
    const d = p?.inputTokens ?? 0;
    expect(verified.run.coverage.estimate?.inputTokens).toBe(Math.round(3 * d + 0.3 * d));
    expect(plainVerified.run.coverage.estimate?.inputTokens).toBe(Math.round(1.3 * d));

    const low = await review({ 'src/util.ts': LOW }, bySample([]), ON);
    const lowPlain = await review({ 'src/util.ts': LOW }, bySample([]), undefined);
    expect(low.run.coverage.estimate).toEqual(lowPlain.run.coverage.estimate);
  });

  it('the soft cap turns thorough mode off first, and says so in the protocol, the coverage and the summary', async () => {
    const plain = await review({ 'src/auth.ts': AUTH }, bySample([]), undefined);
    const softUsd = (plain.run.coverage.estimate?.costUsd ?? 0) * 1.5;
    const model = bySample([answer(finding(45))]);
    const { run, events, reviewCalls } = await review({ 'src/auth.ts': AUTH }, model, ON, {
      spendCaps: { softUsd },
      verify: true,
    });
    expect(reviewCalls('src/auth.ts')).toHaveLength(1);
    expect(run.coverage.budget?.degraded).toEqual([
      { step: 'thoroughOff', estimateBeforeUsd: expect.any(Number), estimateAfterUsd: expect.any(Number) },
    ]);
    expect(events('budget.degraded')).toEqual([expect.objectContaining({ step: 'thoroughOff' })]);
    expect(events('plan.ready')[0]).toMatchObject({ thoroughChunks: 0 });
    expect(run.summary).toContain('thorough mode was turned off');
    expect(run.findings.find((f) => f.anchor?.startLine === 45)?.publication).toBe('published');
  });

  it('the hard cap is checked before each sample: once reached, no further sample is asked', async () => {
    const model = bySample([{ ...answer(finding(45)), usage: costly }]);
    const { run, events, reviewCalls } = await review({ 'src/auth.ts': AUTH }, model, ON, {
      spendCaps: { hardUsd: 0.05 },
    });
    expect(run.status).toBe('reviewed');
    expect(reviewCalls('src/auth.ts')).toHaveLength(1);
    expect(events('thorough.samples')[0]).toMatchObject({ asked: 1, answered: 1, notAsked: 2 });
    expect(events('thorough.degraded')).toEqual([expect.objectContaining({ reason: 'hardCap', kept: 'union' })]);
    expect(run.findings.find((f) => f.anchor?.startLine === 45)?.publication).toBe('published');
  });
});

describe('thorough settings', () => {
  it('refuses samples outside 2–5 and an agreement outside 2..samples', () => {
    expect(() =>
      createReviewEngine({ settings: { thorough: { samples: 6, temperature: 0.4, minAgreement: 2 } } }),
    ).toThrow('thorough.samples must be a whole number from 2 to 5.');
    expect(() =>
      createReviewEngine({ settings: { thorough: { samples: 3, temperature: 0.4, minAgreement: 4 } } }),
    ).toThrow(/minAgreement/);
    expect(() =>
      createReviewEngine({ settings: { thorough: { samples: 5, temperature: 0.7, minAgreement: 3 } } }),
    ).not.toThrow();
  });

  it('an embedder may ask for more samples and a stricter agreement', async () => {
    const model = bySample([answer(finding(25)), answer(finding(25)), answer(), answer(finding(25))]);
    const { run, reviewCalls } = await review({ 'src/auth.ts': AUTH }, model, ON, {
      thorough: { samples: 4, temperature: 0.6, minAgreement: 3 },
    });
    expect(reviewCalls('src/auth.ts').map((r) => r.temperature)).toEqual([0.6, 0.6, 0.6, 0.6]);
    expect(run.findings.find((f) => f.anchor?.startLine === 25)?.consensus).toEqual({ agreed: 3, samples: 4 });
  });
});
