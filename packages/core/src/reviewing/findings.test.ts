import { beforeEach, describe, expect, it } from 'vitest';
import type { KnownFinding } from '../review-engine/index.js';
import {
  PLATFORM_ADMIN,
  REVIEWED,
  refusalOf,
  reviewSubmission,
  startUseCases,
  type UseCaseHarness,
} from '../use-case-harness.js';

let h: UseCaseHarness;
let clientId: string;
const HEAD = 'a'.repeat(40);
const LATER_HEAD = 'c'.repeat(40);

function finding(id: string, overrides: Partial<KnownFinding> = {}): KnownFinding {
  return {
    id,
    fingerprint: `fp-${id}`,
    locKey: `loc-${id}`,
    path: 'src/upload.ts',
    anchorText: 'for (let i = 0; i <= n; i++)',
    enclosingSymbol: 'upload',
    identifiers: ['n'],
    words: ['bound'],
    category: 'correctness',
    severity: 'warning',
    title: 'Off by one',
    message: 'The loop runs one time too many.',
    startLine: 3,
    endLine: 3,
    side: 'new',
    state: 'open',
    firstSeenRevision: HEAD,
    lastSeenRevision: HEAD,
    resolvedAtRevision: null,
    providerThreadId: `thread-${id}`,
    marker: null,
    reopenCount: 0,
    ...overrides,
  };
}

/**
 * Runs a review of the pull request whose engine stores findings as the real one does, through the
 * job's finding store: `inserted` new ones, and `changed` applied to those already stored.
 */
async function review(
  number: number,
  head: string,
  findings: { inserted?: KnownFinding[]; changed?: Record<string, Partial<KnownFinding>> },
  client = clientId,
): Promise<string> {
  const { jobId } = await h.core.reviewing.submitReviewJob(
    PLATFORM_ADMIN,
    client,
    reviewSubmission(number, { head: head[0] }),
  );
  h.engine.script = async (_job, ctx) => {
    const store = ctx.memory.findings;
    if (!store) throw new Error('the worker handed the engine no finding store');
    const known = await store.list();
    const updated = known.filter((f) => findings.changed?.[f.id]).map((f) => ({ ...f, ...findings.changed?.[f.id] }));
    await store.save({ inserted: findings.inserted ?? [], updated });
    return { ...REVIEWED, result: { ...REVIEWED.result, reviewedRevision: { headSha: head } } };
  };
  await h.runQueued();
  h.clock.advance(1000);
  return jobId;
}

beforeEach(async () => {
  h = await startUseCases({ edition: 'Commercial' });
  clientId = await h.newClient();
});

describe('findings across pushes', () => {
  const list = async (query: Record<string, unknown> = {}) =>
    h.core.reviewing.listReviewFindings(PLATFORM_ADMIN, clientId, query);
  const ids = async (query: Record<string, unknown> = {}) => (await list(query)).items.map((f) => f.id);

  it('lists the client’s findings most recently changed first, filtered by pull request, repository and state', async () => {
    await review(1, HEAD, { inserted: [finding('f1'), finding('f2', { path: 'src/b.ts' })] });
    await review(2, HEAD, { inserted: [finding('f3')] });
    await review(1, LATER_HEAD, {
      changed: { f1: { state: 'resolved', resolvedAtRevision: LATER_HEAD, lastSeenRevision: LATER_HEAD } },
    });
    await review(1, HEAD, { inserted: [finding('theirs')] }, await h.newClient());

    expect(await ids()).toEqual(['f1', 'f3', 'f2']);
    expect(await ids({ state: 'resolved' })).toEqual(['f1']);
    expect(await ids({ pullRequestId: '2' })).toEqual(['f3']);
    expect(await ids({ repositoryId: '4242', state: 'open' })).toEqual(['f3', 'f2']);
    expect(await ids({ repositoryId: '77' })).toEqual([]);
    const page = await list({ limit: '2' });
    expect(page.items.map((f) => f.id)).toEqual(['f1', 'f3']);
    expect(await ids({ limit: '2', cursor: page.nextCursor })).toEqual(['f2']);
  });

  it('shows a finding with where and when it was seen', async () => {
    const first = h.clock.now().toISOString();
    await review(1, HEAD, { inserted: [finding('f1')] });
    await review(1, LATER_HEAD, {
      changed: { f1: { state: 'resolved', resolvedAtRevision: LATER_HEAD, lastSeenRevision: LATER_HEAD } },
    });
    expect((await list()).items).toEqual([
      {
        id: 'f1',
        fingerprint: 'fp-f1',
        state: 'resolved',
        repositoryId: '4242',
        pullRequestId: 1,
        filePath: 'src/upload.ts',
        startLine: 3,
        endLine: 3,
        side: 'new',
        severity: 'warning',
        category: 'correctness',
        title: 'Off by one',
        message: 'The loop runs one time too many.',
        firstSeenRevision: HEAD,
        lastSeenRevision: LATER_HEAD,
        resolvedAtRevision: LATER_HEAD,
        reopenCount: 0,
        providerThreadId: 'thread-f1',
        citations: [],
        createdAt: first,
        updatedAt: new Date(Date.parse(first) + 1000).toISOString(),
      },
    ]);
  });

  it('refuses unknown filter values (400)', async () => {
    for (const query of [{ state: 'fixed' }, { pullRequestId: '0' }, { limit: '500' }]) {
      expect((await refusalOf(list(query))).code, JSON.stringify(query)).toBe('validation_failed');
    }
  });
});

describe('where a pull request stands', () => {
  const standing = (query: Record<string, unknown>) =>
    h.core.reviewing.getPullRequestFindings(PLATFORM_ADMIN, clientId, query);

  it('counts its findings by state, lists the open ones, and names its last completed review', async () => {
    await review(1, HEAD, {
      inserted: [finding('f1'), finding('f2'), finding('f3', { state: 'dismissed' })],
    });
    const last = await review(1, LATER_HEAD, {
      changed: { f1: { state: 'resolved' }, f2: { state: 'reopened', reopenCount: 1 } },
      inserted: [finding('f4')],
    });
    await review(2, HEAD, { inserted: [finding('elsewhere')] });

    const answer = await standing({ repositoryId: '4242', pullRequestId: '1' });
    expect(answer).toMatchObject({
      repositoryId: '4242',
      pullRequestId: 1,
      counts: { open: 1, resolved: 1, dismissed: 1, superseded: 0, reopened: 1 },
      lastReview: { jobId: last, headSha: LATER_HEAD, completedAt: expect.any(String) },
    });
    expect(answer.open.map((f) => f.id).sort()).toEqual(['f2', 'f4']);
  });

  it('has no last review before one completed', async () => {
    await h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, clientId, reviewSubmission(1));
    expect(await standing({ repositoryId: '4242', pullRequestId: '1' })).toEqual({
      repositoryId: '4242',
      pullRequestId: 1,
      counts: { open: 0, resolved: 0, dismissed: 0, superseded: 0, reopened: 0 },
      lastReview: null,
      open: [],
    });
  });

  it('needs the repository and the pull request (400)', async () => {
    const refused = await refusalOf(standing({ pullRequestId: '1' }));
    expect(refused.code).toBe('validation_failed');
    expect((await refusalOf(standing({ repositoryId: '4242', pullRequestId: 'x' }))).code).toBe('validation_failed');
  });
});
