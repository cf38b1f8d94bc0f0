import { describe, expect, it } from 'vitest';
import type { ReviewThread } from '../../scm-provider/index.js';
import { anchoredCodeChanged, closureOf, decisionOf, ourThreads, resolvedByMargin } from './learn-from-threads.js';
import { closestHoldingMemory, decisionsForFile, textSimilarity } from './memory-similarity.js';
import { replyRejects } from './reply-classifier.js';
import type { KnownFinding } from './review-memory.js';
import type { PastDecision } from './thread-memory.js';

describe('the reply classifier (keywords, without a memoryReconsideration model)', () => {
  it.each([
    'False positive: fetchRows is lazy.',
    "This is a false-positive, we won't fix it.",
    'Wont fix.',
    'We will not fix this in this PR.',
    'Not an issue, the value is validated upstream.',
    'This is by design.',
    "It's intended: the total is gross.",
    'Works as intended.',
    'This is expected behaviour for legacy accounts.',
    'The finding is wrong, qty is never negative.',
  ])('reads a rejection in %j', (reply) => {
    expect(replyRejects(reply)).toBe(true);
  });

  it.each([
    'Good catch, fixed in the next push.',
    'Is this intended?',
    'This is not by design, I will fix it.',
    "It's not a false positive, thanks.",
    'An error is expected here when the input is empty.',
    '> false positive\nNo, this one is real.',
    'Which value of `not an issue` do you mean?',
  ])('reads no rejection in %j', (reply) => {
    expect(replyRejects(reply)).toBe(false);
  });
});

const decision = (over: Partial<PastDecision> = {}): PastDecision => ({
  id: 'm1',
  source: 'threadResolved',
  intent: 'rejected',
  filePath: 'src/billing.ts',
  summary: 'Total ignores the discount\nThe total uses `price` and `qty` only, so a discount is never applied.',
  findingFingerprint: 'fp-old',
  threadOnThisPullRequest: null,
  embedding: null,
  forgotten: false,
  ...over,
});

const query = (over: Partial<Parameters<typeof closestHoldingMemory>[0]> = {}) => ({
  path: 'src/billing.ts',
  title: 'Discount missing from invoice total',
  message: 'Because `price` times `qty` is all that is summed, discounted orders are overcharged.',
  fingerprint: 'fp-new',
  ...over,
});

describe('memory similarity', () => {
  it('scores a rewording of the same defect high and a different defect low (text fallback)', () => {
    const past = { title: 'Total ignores the discount', text: decision().summary };
    const reworded = { title: query().title, text: `${query().title}\n${query().message}` };
    const other = {
      title: 'Rows fetched at import time',
      text: 'Rows fetched at import time\nCalling `fetchRows` while the module loads queries the database early.',
    };
    expect(textSimilarity(reworded, past)).toBeGreaterThanOrEqual(0.5);
    expect(textSimilarity(other, past)).toBeLessThan(0.2);
  });

  it('matches by fingerprint, by meaning at cosine ≥ 0.80 when both have vectors, else by words; only on the same file', () => {
    expect(
      closestHoldingMemory(query({ fingerprint: 'fp-old', title: 'x', message: 'y' }), [decision()]),
    ).toMatchObject({ by: 'fingerprint', similarity: 1 });
    const near = decision({ embedding: [1, 0.3, 0] });
    expect(closestHoldingMemory(query({ vector: [1, 0.4, 0] }), [near])).toMatchObject({ by: 'meaning' });
    // With vectors on both sides, meaning decides: far apart is no match, however close the words.
    expect(closestHoldingMemory(query({ vector: [0, 0, 1] }), [near])).toBeUndefined();
    expect(closestHoldingMemory(query(), [decision()])).toMatchObject({ by: 'text', decision: { id: 'm1' } });
    expect(closestHoldingMemory(query({ path: 'src/tax.ts' }), [decision()])).toBeUndefined();
  });

  it('holds back only for rejections and acceptances, and prefers a rejection at equal closeness', () => {
    expect(closestHoldingMemory(query(), [decision({ intent: 'claimsFix' })])).toBeUndefined();
    expect(closestHoldingMemory(query(), [decision({ source: 'adminDismissed' })])).toBeUndefined();
    const accepted = decision({ id: 'accepted', intent: 'acceptedByHuman' });
    const rejected = decision({ id: 'rejected' });
    expect(closestHoldingMemory(query(), [accepted, rejected])?.decision.id).toBe('rejected');
  });

  it('shows at most three decisions per file, rejections first', () => {
    const list = [
      decision({ id: 'fix', intent: 'claimsFix' }),
      decision({ id: 'ok', intent: 'acceptedByHuman' }),
      decision({ id: 'no1' }),
      decision({ id: 'no2' }),
      decision({ id: 'elsewhere', filePath: 'src/tax.ts' }),
    ];
    expect(decisionsForFile('SRC/billing.ts', list).map((d) => d.id)).toEqual(['no1', 'no2', 'ok']);
  });
});

/** The one thread read; a test that finds none fails here. */
function only<T>(list: T[]): T {
  expect(list).toHaveLength(1);
  return list[0] as T;
}

const person = { externalUserId: 'p1', login: 'dana', displayName: 'Dana', isBot: false };
const margin = { externalUserId: 'bot', login: 'margin-bot', displayName: 'Margin', isBot: true };

function thread(over: Partial<ReviewThread> = {}): ReviewThread {
  return {
    threadId: 't1',
    status: 'open',
    anchor: { filePath: 'src/billing.ts', startLine: 42, endLine: 42 },
    comments: [
      { commentId: 'c1', author: margin, body: 'Total ignores the discount', createdAt: '2026-01-01T00:00:00Z' },
    ],
    marker: 'margin:fp=abc123',
    ...over,
  };
}

const known = {
  id: 'k1',
  fingerprint: 'abc123',
  providerThreadId: 't1',
  marker: 'margin:fp=abc123',
  state: 'open',
  path: 'src/billing.ts',
  title: 'Total ignores the discount',
  message: 'Discounts are never applied.',
  anchorText: 'const total = price * qty;',
} as KnownFinding;

describe('reading people’s decisions from Margin’s threads', () => {
  it('takes only finding threads, with their finding, and replies by someone else than Margin', () => {
    const reply = { commentId: 'c2', author: person, body: 'False positive.', createdAt: '2026-01-02T00:00:00Z' };
    const own = { commentId: 'c3', author: margin, body: 'Resolved in abc.', createdAt: '2026-01-03T00:00:00Z' };
    const [t, ...rest] = ourThreads(
      [
        thread({ comments: [...thread().comments, reply, own] }),
        thread({ threadId: 't2', marker: 'margin:summary' }),
        thread({ threadId: 't3', marker: undefined }),
      ],
      [known],
      [],
    );
    expect(rest).toEqual([]);
    expect(t).toMatchObject({
      known: { id: 'k1' },
      fingerprint: 'abc123',
      filePath: 'src/billing.ts',
      replies: [reply],
    });
    expect(t?.summary).toBe('Total ignores the discount\nDiscounts are never applied.');
  });

  it('tells won’t-fix from a resolution, and a fix (the anchored code changed) from an acceptance', () => {
    const wontFix = only(ourThreads([thread({ status: 'resolved', closedAs: 'wontFix' })], [known], []));
    const resolved = only(ourThreads([thread({ status: 'resolved' })], [known], []));
    expect(closureOf(wontFix)).toBe('rejected');
    expect(closureOf(resolved)).toBe('resolved');
    expect(anchoredCodeChanged(resolved, '  const total = price * qty;\n')).toBe(false);
    expect(anchoredCodeChanged(resolved, '  const total = price * qty * (1 - discount);\n')).toBe(true);
    const outdated = only(ourThreads([thread({ status: 'resolved', isOutdated: true })], [known], []));
    expect(anchoredCodeChanged(outdated, undefined)).toBe(true);
    expect(decisionOf(resolved, { kind: 'resolved', codeChanged: true })).toMatchObject({
      source: 'threadResolved',
      intent: 'claimsFix',
    });
    expect(decisionOf(resolved, { kind: 'resolved', codeChanged: false })).toMatchObject({
      intent: 'acceptedByHuman',
    });
  });

  it('does not count a thread Margin resolved itself as a person’s decision', () => {
    const t = only(ourThreads([thread({ status: 'resolved' })], [{ ...known, state: 'resolved' }], []));
    expect(resolvedByMargin(t, [])).toBe(true);
    const u = only(ourThreads([thread({ status: 'resolved' })], [known], []));
    expect(resolvedByMargin(u, [])).toBe(false);
    expect(
      resolvedByMargin(u, [
        {
          marker: 'margin:resolved=k1',
          kind: 'resolution',
          fingerprint: 'abc123',
          jobId: 'j',
          state: 'posted',
          providerThreadId: 't1',
          providerCommentId: null,
          error: null,
        },
      ]),
    ).toBe(true);
  });
});
