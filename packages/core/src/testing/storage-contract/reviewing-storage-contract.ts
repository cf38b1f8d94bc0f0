import { describe, expect, it } from 'vitest';
import { MarginError } from '../../kernel/index.js';
import type {
  ProtocolEventRecord,
  PublicationRecord,
  StoredFindingRecord,
  ThreadMemoryRecord,
} from '../../reviewing/index.js';
import { RECLAIM_EXHAUSTED, type ReviewJobRecord } from '../../reviewing/index.js';
import { client, LATER, NOW, reviewJobRecord, type StorageGetter, tenant, uuid } from './fixtures.js';

const T = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();

export function reviewingStorageContract(storage: StorageGetter): void {
  const withClient = async () => {
    const c = client();
    await storage().clients.insert(c);
    return c.id;
  };
  const job = reviewJobRecord;
  const claim = (owner: string, overrides: { limit?: number; exclusive?: boolean; now?: string } = {}) =>
    storage().reviewJobs.claimNext({
      owner,
      limit: overrides.limit ?? 10,
      leaseMs: 60_000,
      now: overrides.now ?? T(10),
      exclusive: overrides.exclusive ?? false,
    });

  describe('review jobs', () => {
    it('stores a job and reads it back whole', async () => {
      const j = job(await withClient(), { result: { summary: 's', findings: [{ id: 'f' }], coverage: { files: [] } } });
      await storage().reviewJobs.insert(j);
      expect(await storage().reviewJobs.findById(j.id)).toEqual(j);
    });

    it('refuses a second active job for the same revision key, but not once the first has finished', async () => {
      const clientId = await withClient();
      const first = job(clientId, { revisionKey: 'rev-1' });
      await storage().reviewJobs.insert(first);
      const error = await storage()
        .reviewJobs.insert(job(clientId, { revisionKey: 'rev-1' }))
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(error) && error.code).toBe('conflict');
      expect((await storage().reviewJobs.findActiveByRevisionKey('rev-1'))?.id).toBe(first.id);
      await storage().reviewJobs.transition(first.id, ['queued'], 'stopped', { completedAt: LATER, updatedAt: LATER });
      await storage().reviewJobs.insert(job(clientId, { revisionKey: 'rev-1' }));
    });

    it('refuses to bring a job back to the queue while another holds its revision', async () => {
      const clientId = await withClient();
      const failed = job(clientId, { revisionKey: 'rev-2', status: 'failed' });
      await storage().reviewJobs.insert(failed);
      await storage().reviewJobs.insert(job(clientId, { revisionKey: 'rev-2' }));
      const error = await storage()
        .reviewJobs.transition(failed.id, ['failed'], 'queued', { attempt: 2 })
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(error) && error.code).toBe('conflict');
    });

    it('moves a job only from the given states, clearing the lease when it leaves running', async () => {
      const j = job(await withClient());
      await storage().reviewJobs.insert(j);
      expect(await storage().reviewJobs.transition(j.id, ['running'], 'stopped', {})).toBeUndefined();
      const [claimed] = await claim('w1');
      expect(claimed?.leaseOwner).toBe('w1');
      const stopped = await storage().reviewJobs.transition(j.id, ['queued', 'running'], 'stopped', {
        completedAt: LATER,
      });
      expect(stopped).toMatchObject({ status: 'stopped', completedAt: LATER, leaseOwner: null, leaseExpiresAt: null });
    });

    it('counts active jobs, finds them per pull request and remembers finished revisions', async () => {
      const clientId = await withClient();
      const a = job(clientId, { revisionKey: 'r-a', pullRequestKey: 'pr-1' });
      const b = job(clientId, { revisionKey: 'r-b', pullRequestKey: 'pr-1', status: 'completed' });
      const c = job(clientId, { revisionKey: 'r-c', pullRequestKey: 'pr-2', status: 'failed' });
      const held = job(clientId, { revisionKey: 'r-held', pullRequestKey: 'pr-3', status: 'budgetHeld' });
      const over = job(clientId, { revisionKey: 'r-over', pullRequestKey: 'pr-3', status: 'budgetExceeded' });
      const gone = job(clientId, { revisionKey: 'r-gone', pullRequestKey: 'pr-4', status: 'superseded' });
      for (const x of [a, b, c, held, over, gone]) await storage().reviewJobs.insert(x);
      expect(await storage().reviewJobs.countActive()).toBe(1);
      expect((await storage().reviewJobs.findActiveByPullRequestKey('pr-1')).map((x) => x.id)).toEqual([a.id]);
      expect(await storage().reviewJobs.hasFinishedRevision('r-b')).toBe(true);
      expect(await storage().reviewJobs.hasFinishedRevision('r-c')).toBe(true);
      expect(await storage().reviewJobs.hasFinishedRevision('r-held')).toBe(true);
      expect(await storage().reviewJobs.hasFinishedRevision('r-over')).toBe(true);
      expect(await storage().reviewJobs.hasFinishedRevision('r-a')).toBe(false);
      expect(await storage().reviewJobs.hasFinishedRevision('r-gone')).toBe(false);
    });

    it('lists a client’s jobs newest first, filtered and paged', async () => {
      const clientId = await withClient();
      const other = await withClient();
      const jobs = [0, 1, 2, 3].map((i) =>
        job(clientId, {
          submittedAt: T(i),
          codeReview: { platform: 'pullRequest', externalReviewId: String(i % 2), number: 1 + (i % 2) },
          status: i === 3 ? 'completed' : 'queued',
        }),
      );
      for (const j of [...jobs, job(other)]) await storage().reviewJobs.insert(j);
      const first = await storage().reviewJobs.list(clientId, {}, { limit: 3 });
      expect(first.items.map((j) => j.id)).toEqual([jobs[3]?.id, jobs[2]?.id, jobs[1]?.id]);
      const rest = await storage().reviewJobs.list(clientId, {}, { limit: 3, cursor: first.nextCursor });
      expect(rest).toEqual({ items: [jobs[0]], nextCursor: null });
      expect(
        (await storage().reviewJobs.list(clientId, { status: 'completed' }, { limit: 9 })).items.map((j) => j.id),
      ).toEqual([jobs[3]?.id]);
      expect((await storage().reviewJobs.list(clientId, { pullRequestId: 2 }, { limit: 9 })).items).toHaveLength(2);
      expect((await storage().reviewJobs.list(clientId, { repositoryId: 'nope' }, { limit: 9 })).items).toEqual([]);
    });

    it('claims queued jobs oldest first, up to the limit, leasing them to the owner', async () => {
      const clientId = await withClient();
      const jobs = [2, 0, 1].map((s) => job(clientId, { submittedAt: T(s) }));
      for (const j of jobs) await storage().reviewJobs.insert(j);
      const claimed = await claim('w1', { limit: 2 });
      expect(claimed.map((j) => j.submittedAt)).toEqual([T(0), T(1)]);
      expect(claimed[0]).toMatchObject({
        status: 'running',
        leaseOwner: 'w1',
        leaseExpiresAt: T(70),
        startedAt: T(10),
      });
      expect((await claim('w2')).map((j) => j.submittedAt)).toEqual([T(2)]);
      expect(await claim('w3')).toEqual([]);
    });

    it('leaves the queued jobs of a deactivated client alone, and does not count them as active', async () => {
      const active = await withClient();
      const deactivated = client({ isActive: false });
      await storage().clients.insert(deactivated);
      const waiting = job(deactivated.id, { submittedAt: T(0) });
      const ready = job(active, { submittedAt: T(1) });
      await storage().reviewJobs.insert(waiting);
      await storage().reviewJobs.insert(ready);
      expect(await storage().reviewJobs.countActive()).toBe(1);
      expect((await claim('w1')).map((j) => j.id)).toEqual([ready.id]);
      expect(await claim('w2', { exclusive: true })).toEqual([]);
      await storage().clients.update(deactivated.id, { isActive: true, updatedAt: LATER });
      expect(await storage().reviewJobs.countActive()).toBe(2);
      expect((await claim('w3')).map((j) => j.id)).toEqual([waiting.id]);
    });

    it('leaves the queued jobs of a deactivated tenant’s clients alone', async () => {
      const closed = tenant({ isActive: false });
      await storage().tenants.insert(closed);
      const inClosed = client({ tenantId: closed.id });
      await storage().clients.insert(inClosed);
      const waiting = job(inClosed.id, { submittedAt: T(0) });
      await storage().reviewJobs.insert(waiting);
      expect(await storage().reviewJobs.countActive()).toBe(0);
      expect(await claim('w1')).toEqual([]);
      await storage().tenants.update(closed.id, { isActive: true, updatedAt: LATER });
      expect(await storage().reviewJobs.countActive()).toBe(1);
      expect((await claim('w2')).map((j) => j.id)).toEqual([waiting.id]);
    });

    it('never hands one job to two concurrent claimers', async () => {
      const clientId = await withClient();
      for (let i = 0; i < 30; i++) await storage().reviewJobs.insert(job(clientId, { submittedAt: T(i) }));
      const rounds = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(`w${i}`, { limit: 4 })));
      const ids = rounds.flat().map((j) => j.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('claims exclusively only while nothing runs, and only one job', async () => {
      const clientId = await withClient();
      for (let i = 0; i < 3; i++) await storage().reviewJobs.insert(job(clientId, { submittedAt: T(i) }));
      const concurrent = await Promise.all([
        claim('a', { exclusive: true }),
        claim('b', { exclusive: true }),
        claim('c', { exclusive: true }),
      ]);
      expect(concurrent.flat()).toHaveLength(1);
      expect(await claim('d', { exclusive: true })).toEqual([]);
      const running = concurrent.flat()[0] as ReviewJobRecord;
      expect(
        await storage().reviewJobs.finish(running.id, running.leaseOwner ?? '', { status: 'completed', at: T(20) }),
      ).toBe(true);
      expect(await claim('d', { exclusive: true })).toHaveLength(1);
    });

    it('renews, finishes and releases only the owner’s running job', async () => {
      const j = job(await withClient());
      await storage().reviewJobs.insert(j);
      await claim('w1');
      expect(await storage().reviewJobs.renewLease(j.id, 'w2', T(100))).toBe(false);
      expect(await storage().reviewJobs.renewLease(j.id, 'w1', T(100), { filesTotal: 10, filesDone: 4 })).toBe(true);
      expect(await storage().reviewJobs.findById(j.id)).toMatchObject({
        leaseExpiresAt: T(100),
        progress: { filesTotal: 10, filesDone: 4 },
      });
      expect(await storage().reviewJobs.finish(j.id, 'w2', { status: 'completed', at: T(30) })).toBe(false);
      const usage = { inputTokens: 1, cachedInputTokens: 0, outputTokens: 2, estimatedCostUsd: 0.01, byModel: [] };
      expect(
        await storage().reviewJobs.finish(j.id, 'w1', {
          status: 'completed',
          at: T(30),
          result: { summary: 'ok' },
          usage,
          error: null,
        }),
      ).toBe(true);
      expect(await storage().reviewJobs.findById(j.id)).toMatchObject({
        status: 'completed',
        completedAt: T(30),
        result: { summary: 'ok' },
        usage,
        leaseOwner: null,
      });
      expect(await storage().reviewJobs.renewLease(j.id, 'w1', T(200))).toBe(false);

      const k = job(j.clientId);
      await storage().reviewJobs.insert(k);
      await claim('w3');
      expect(await storage().reviewJobs.release(k.id, 'w1', T(40))).toBe(false);
      expect(await storage().reviewJobs.release(k.id, 'w3', T(40))).toBe(true);
      expect(await storage().reviewJobs.findById(k.id)).toMatchObject({
        status: 'queued',
        leaseOwner: null,
        startedAt: null,
      });
    });

    it('returns jobs with lapsed leases to the queue, and fails them once the reclaim limit is used', async () => {
      const clientId = await withClient();
      const j = job(clientId);
      const worn = job(clientId, { reclaimCount: 3, submittedAt: T(1) });
      await storage().reviewJobs.insert(j);
      await storage().reviewJobs.insert(worn);
      await claim('crashed', { now: T(0) }); // lease until T(60)
      expect(await storage().reviewJobs.reclaimExpired(T(59), 3)).toEqual({ requeued: [], failed: [], lost: [] });
      const outcome = await storage().reviewJobs.reclaimExpired(T(61), 3);
      expect(outcome).toMatchObject({ requeued: [j.id], failed: [worn.id] });
      // Who held each lease and when it ran out, read before the lease was cleared.
      const lost = { attempt: j.attempt, owner: 'crashed', expiredAt: T(60) };
      expect([...outcome.lost].sort((a, b) => (a.reclaim < b.reclaim ? -1 : 1))).toEqual([
        { ...lost, jobId: j.id, reclaim: 1, outcome: 'requeued' },
        { ...lost, jobId: worn.id, reclaim: 4, outcome: 'failed' },
      ]);
      expect(await storage().reviewJobs.reclaimExpired(T(62), 3)).toEqual({ requeued: [], failed: [], lost: [] });
      expect(await storage().reviewJobs.findById(j.id)).toMatchObject({
        status: 'queued',
        reclaimCount: 1,
        leaseOwner: null,
      });
      expect(await storage().reviewJobs.findById(worn.id)).toMatchObject({
        status: 'failed',
        error: RECLAIM_EXHAUSTED,
        completedAt: T(61),
      });
      expect(await storage().reviewJobs.renewLease(j.id, 'crashed', T(120))).toBe(false);
    });

    it('takes each lapsed lease back once when several hosts reclaim at once', async () => {
      const clientId = await withClient();
      const jobs = Array.from({ length: 6 }, (_, i) => job(clientId, { submittedAt: T(i) }));
      for (const j of jobs) await storage().reviewJobs.insert(j);
      await claim('crashed', { now: T(0) });
      const outcomes = await Promise.all([1, 2, 3].map(() => storage().reviewJobs.reclaimExpired(T(61), 3)));
      const ids = jobs.map((j) => j.id).sort();
      expect(outcomes.flatMap((o) => o.requeued).sort()).toEqual(ids);
      expect(outcomes.flatMap((o) => o.lost.map((l) => l.jobId)).sort()).toEqual(ids);
    });
  });

  describe('blocked pull requests', () => {
    it('blocks idempotently, lists newest first and unblocks', async () => {
      const clientId = await withClient();
      const block = {
        id: uuid(),
        clientId,
        providerScopePath: 'https://github.com/acme',
        providerProjectKey: 'acme',
        repositoryId: '42',
        pullRequestId: 7,
        reason: 'Release freeze',
        blockedByUserId: null,
        blockedAt: NOW,
      };
      expect(await storage().blockedPullRequests.put(block)).toEqual(block);
      expect(
        await storage().blockedPullRequests.put({ ...block, id: uuid(), reason: 'again', blockedAt: LATER }),
      ).toEqual(block);
      const second = { ...block, id: uuid(), pullRequestId: 8, blockedAt: LATER };
      await storage().blockedPullRequests.put(second);
      const firstPage = await storage().blockedPullRequests.list(clientId, { limit: 1 });
      expect(firstPage.items.map((b) => b.id)).toEqual([second.id]);
      const nextPage = await storage().blockedPullRequests.list(clientId, { limit: 1, cursor: firstPage.nextCursor });
      expect(nextPage).toEqual({ items: [block], nextCursor: null });
      expect(await storage().blockedPullRequests.find(clientId, '42', 7)).toEqual(block);
      expect(await storage().blockedPullRequests.remove(clientId, '42', 7)).toBe(true);
      expect(await storage().blockedPullRequests.remove(clientId, '42', 7)).toBe(false);
      expect(await storage().blockedPullRequests.find(clientId, '42', 7)).toBeUndefined();
    });

    it('takes repository ids that differ only in case for the same repository', async () => {
      const clientId = await withClient();
      const block = {
        id: uuid(),
        clientId,
        providerScopePath: 'https://dev.azure.com/acme',
        providerProjectKey: 'acme',
        repositoryId: 'AB12-CD34',
        pullRequestId: 7,
        reason: 'Release freeze',
        blockedByUserId: null,
        blockedAt: NOW,
      };
      expect(await storage().blockedPullRequests.put(block)).toEqual(block);
      expect(await storage().blockedPullRequests.put({ ...block, id: uuid(), repositoryId: 'ab12-cd34' })).toEqual(
        block,
      );
      expect(await storage().blockedPullRequests.find(clientId, 'ab12-CD34', 7)).toEqual(block);
      expect(await storage().blockedPullRequests.remove(clientId, 'ab12-cd34', 7)).toBe(true);
      expect(await storage().blockedPullRequests.find(clientId, 'AB12-CD34', 7)).toBeUndefined();
    });
  });

  describe('dismissals', () => {
    it('stores, lists newest first and removes only within the client', async () => {
      const clientId = await withClient();
      const other = await withClient();
      const a = {
        id: uuid(),
        clientId,
        findingMessage: 'Prefer const',
        filePath: null,
        label: 'style',
        createdAt: NOW,
        createdByUserId: null,
      };
      const b = {
        ...a,
        id: uuid(),
        findingMessage: 'Magic number',
        filePath: 'src/x.ts',
        label: null,
        createdAt: LATER,
      };
      await storage().dismissals.insert(a);
      await storage().dismissals.insert(b);
      expect(await storage().dismissals.list(clientId)).toEqual([b, a]);
      const firstPage = await storage().dismissals.listPage(clientId, { limit: 1 });
      expect(firstPage.items).toEqual([b]);
      expect(await storage().dismissals.listPage(clientId, { limit: 1, cursor: firstPage.nextCursor })).toEqual({
        items: [a],
        nextCursor: null,
      });
      expect(await storage().dismissals.remove(other, a.id)).toBe(false);
      expect(await storage().dismissals.remove(clientId, a.id)).toBe(true);
      expect(await storage().dismissals.list(clientId)).toEqual([b]);
    });
  });

  describe('thread memories', () => {
    const memory = (clientId: string, over: Partial<ThreadMemoryRecord> = {}): ThreadMemoryRecord => ({
      id: uuid(),
      clientId,
      threadKey: 'repo-1#7#thread-1',
      source: 'threadResolved',
      intent: 'rejected',
      filePath: 'src/billing.ts',
      summary: 'Total ignores the discount',
      findingFingerprint: 'f'.repeat(16),
      providerThreadId: 'thread-1',
      repositoryId: 'repo-1',
      pullRequestId: 7,
      embedding: [0.25, -0.5, 1],
      createdAt: NOW,
      createdBy: 'octocat',
      forgottenAt: null,
      ...over,
    });

    it('keeps one record per thread: a second decision replaces the first under the same id', async () => {
      const clientId = await withClient();
      const first = memory(clientId);
      expect(await storage().threadMemories.upsert(first)).toEqual(first);
      const second = memory(clientId, {
        source: 'replyRejected',
        intent: 'acceptedByHuman',
        embedding: null,
        createdAt: LATER,
      });
      expect(await storage().threadMemories.upsert(second)).toEqual({ ...second, id: first.id });
      expect(await storage().threadMemories.listForRepository(clientId, 'repo-1')).toEqual([
        { ...second, id: first.id },
      ]);
      // The same thread key in another client is another record.
      const otherClient = await withClient();
      const theirs = memory(otherClient);
      expect((await storage().threadMemories.upsert(theirs)).id).toBe(theirs.id);
    });

    it("retrieves a repository's records with the client-wide ones, and pages and filters the client's", async () => {
      const clientId = await withClient();
      const here = memory(clientId, { createdAt: NOW });
      const elsewhere = memory(clientId, { threadKey: 'repo-2#1#9', repositoryId: 'repo-2', createdAt: LATER });
      const dismissal = memory(clientId, {
        threadKey: 'dismissal:d1',
        source: 'adminDismissed',
        repositoryId: null,
        pullRequestId: null,
        providerThreadId: null,
        filePath: null,
        createdAt: '2026-01-01T02:00:00.000Z',
      });
      for (const m of [here, elsewhere, dismissal]) await storage().threadMemories.upsert(m);
      expect(await storage().threadMemories.listForRepository(clientId, 'repo-1')).toEqual([dismissal, here]);
      const first = await storage().threadMemories.listPage(clientId, {}, { limit: 2 });
      expect(first.items).toEqual([dismissal, elsewhere]);
      expect(await storage().threadMemories.listPage(clientId, {}, { limit: 2, cursor: first.nextCursor })).toEqual({
        items: [here],
        nextCursor: null,
      });
      expect(
        (await storage().threadMemories.listPage(clientId, { source: 'adminDismissed' }, { limit: 10 })).items,
      ).toEqual([dismissal]);
      expect(
        (await storage().threadMemories.listPage(clientId, { filePath: 'src/billing.ts' }, { limit: 10 })).items,
      ).toEqual([elsewhere, here]);
    });

    it('forgets a record: no longer listed or found, still retrieved for learning, until a new decision replaces it', async () => {
      const clientId = await withClient();
      const a = memory(clientId);
      await storage().threadMemories.upsert(a);
      expect(await storage().threadMemories.markForgotten(await withClient(), a.id, LATER)).toBe(false);
      expect(await storage().threadMemories.markForgotten(clientId, a.id, LATER)).toBe(true);
      expect(await storage().threadMemories.markForgotten(clientId, a.id, LATER)).toBe(false);
      expect(await storage().threadMemories.find(clientId, a.id)).toBeUndefined();
      expect((await storage().threadMemories.listPage(clientId, {}, { limit: 10 })).items).toEqual([]);
      expect(await storage().threadMemories.listForRepository(clientId, 'repo-1')).toEqual([
        { ...a, forgottenAt: LATER },
      ]);
      const decidedAgain = memory(clientId, { intent: 'acceptedByHuman', createdAt: LATER });
      expect(await storage().threadMemories.upsert(decidedAgain)).toEqual({ ...decidedAgain, id: a.id });
      expect(await storage().threadMemories.find(clientId, a.id)).toEqual({ ...decidedAgain, id: a.id });
    });

    it('finds and removes only within the client, by id or by thread key', async () => {
      const clientId = await withClient();
      const other = await withClient();
      const a = memory(clientId);
      const b = memory(clientId, { threadKey: 'repo-1#7#thread-2', providerThreadId: 'thread-2' });
      await storage().threadMemories.upsert(a);
      await storage().threadMemories.upsert(b);
      expect(await storage().threadMemories.find(other, a.id)).toBeUndefined();
      expect(await storage().threadMemories.find(clientId, a.id)).toEqual(a);
      expect(await storage().threadMemories.remove(other, a.id)).toBe(false);
      expect(await storage().threadMemories.remove(clientId, a.id)).toBe(true);
      expect(await storage().threadMemories.removeByThreadKey(other, b.threadKey)).toBe(false);
      expect(await storage().threadMemories.removeByThreadKey(clientId, b.threadKey)).toBe(true);
      expect(await storage().threadMemories.listForRepository(clientId, 'repo-1')).toEqual([]);
    });
  });

  describe('review publications (the outbox)', () => {
    const entry = (clientId: string, over: Partial<PublicationRecord> = {}): PublicationRecord => ({
      id: uuid(),
      clientId,
      pullRequestKey: 'pr-key-1',
      marker: 'margin:fp=0001',
      kind: 'finding',
      fingerprint: '0001',
      jobId: 'job-1',
      state: 'pending',
      providerThreadId: null,
      providerCommentId: null,
      error: null,
      createdAt: NOW,
      updatedAt: NOW,
      ...over,
    });

    it('reserves each marker of a pull request once, whoever asks, and records the post', async () => {
      const clientId = await withClient();
      await storage().reviewPublications.reserve([
        entry(clientId),
        entry(clientId, { marker: 'margin:summary', kind: 'summary', fingerprint: null }),
      ]);
      await storage().reviewPublications.reserve([entry(clientId, { jobId: 'job-2' })]);
      await storage().reviewPublications.update('pr-key-1', 'margin:fp=0001', {
        state: 'posted',
        providerThreadId: 'thread-9',
        providerCommentId: 'comment-9',
        updatedAt: LATER,
      });
      const listed = await storage().reviewPublications.listForPullRequest('pr-key-1');
      expect(listed.map((e) => [e.marker, e.jobId, e.state, e.providerThreadId])).toEqual([
        ['margin:fp=0001', 'job-1', 'posted', 'thread-9'],
        ['margin:summary', 'job-1', 'pending', null],
      ]);
      expect(await storage().reviewPublications.listForPullRequest('pr-key-other')).toEqual([]);
    });

    it('hands a failed post to the next job that reserves it', async () => {
      const clientId = await withClient();
      await storage().reviewPublications.reserve([entry(clientId, { pullRequestKey: 'pr-key-2' })]);
      await storage().reviewPublications.update('pr-key-2', 'margin:fp=0001', {
        state: 'failed',
        error: '422',
        updatedAt: LATER,
      });
      await storage().reviewPublications.reserve([
        entry(clientId, { pullRequestKey: 'pr-key-2', jobId: 'job-3', updatedAt: LATER }),
      ]);
      const [again] = await storage().reviewPublications.listForPullRequest('pr-key-2');
      expect(again).toMatchObject({ jobId: 'job-3', state: 'pending', error: null });
    });
  });

  describe('review findings (identity across pushes)', () => {
    const finding = (clientId: string, over: Partial<StoredFindingRecord> = {}): StoredFindingRecord => ({
      id: uuid(),
      clientId,
      pullRequestKey: 'pr-findings-1',
      repositoryId: 'repo-1',
      pullRequestNumber: 7,
      fingerprint: '0123456789abcdef',
      locKey: 'fedcba9876543210',
      path: 'src/a.ts',
      anchorText: 'const total = price * qty;',
      enclosingSymbol: 'function totalFor(order)',
      identifiers: ['price', 'qty'],
      words: ['total', 'discount'],
      category: 'bug',
      severity: 'error',
      title: 'Total ignores the discount',
      message: 'The total is computed from price and qty only.',
      startLine: 42,
      endLine: 42,
      side: 'new',
      state: 'open',
      firstSeenRevision: 'a'.repeat(40),
      lastSeenRevision: 'a'.repeat(40),
      resolvedAtRevision: null,
      firstJobId: 'job-1',
      lastJobId: 'job-1',
      providerThreadId: 'thread-1',
      marker: 'margin:fp=0123456789abcdef',
      reopenCount: 0,
      citations: [],
      createdAt: NOW,
      updatedAt: NOW,
      ...over,
    });

    it('remembers findings per pull request, updates them whole, and lists a client’s findings by filter, newest change first', async () => {
      const clientId = await withClient();
      const first = finding(clientId);
      const second = finding(clientId, {
        pullRequestKey: 'pr-findings-2',
        pullRequestNumber: 8,
        citations: [{ sourceId: 'src-1', path: 'lib/tokens.ts', startLine: 20, endLine: 26, commit: 'c'.repeat(40) }],
        createdAt: T(1),
        updatedAt: T(1),
      });
      await storage().reviewFindings.save({ inserted: [first, second], updated: [] });
      expect(await storage().reviewFindings.listForPullRequest('pr-findings-1')).toEqual([first]);
      expect(await storage().reviewFindings.listForPullRequest('pr-findings-2')).toEqual([second]);
      const resolved = {
        ...first,
        state: 'resolved' as const,
        resolvedAtRevision: 'b'.repeat(40),
        lastJobId: 'job-2',
        updatedAt: T(5),
      };
      await storage().reviewFindings.save({ inserted: [], updated: [resolved] });
      expect(await storage().reviewFindings.listForPullRequest('pr-findings-1')).toEqual([resolved]);

      const all = await storage().reviewFindings.list(clientId, {}, { limit: 1 });
      expect(all.items.map((f) => f.id)).toEqual([first.id]);
      const next = await storage().reviewFindings.list(clientId, {}, { limit: 1, cursor: all.nextCursor });
      expect(next.items.map((f) => f.id)).toEqual([second.id]);
      expect(next.nextCursor).toBeNull();
      const open = await storage().reviewFindings.list(clientId, { state: 'open' }, { limit: 10 });
      expect(open.items.map((f) => f.id)).toEqual([second.id]);
      const byPr = await storage().reviewFindings.list(
        clientId,
        { repositoryId: 'repo-1', pullRequestNumber: 7 },
        { limit: 10 },
      );
      expect(byPr.items.map((f) => f.id)).toEqual([first.id]);
    });

    it('finds the last completed job of a pull request', async () => {
      const clientId = await withClient();
      const older = job(clientId, {
        pullRequestKey: 'pr-last',
        revisionKey: 'pr-last|1',
        status: 'completed',
        completedAt: T(1),
      });
      const newer = job(clientId, {
        pullRequestKey: 'pr-last',
        revisionKey: 'pr-last|2',
        status: 'completed',
        completedAt: T(2),
      });
      const failed = job(clientId, {
        pullRequestKey: 'pr-last',
        revisionKey: 'pr-last|3',
        status: 'failed',
        completedAt: T(3),
      });
      for (const j of [older, newer, failed]) await storage().reviewJobs.insert(j);
      expect((await storage().reviewJobs.findLastCompleted('pr-last'))?.id).toBe(newer.id);
      expect(await storage().reviewJobs.findLastCompleted('pr-none')).toBeUndefined();
    });
  });

  describe('protocol', () => {
    it('reads passes in order with their events, filtered by category, with or without bodies', async () => {
      const j = job(await withClient());
      await storage().reviewJobs.insert(j);
      const pass = (id: string, startedAt: string, stage: string) => ({
        id,
        jobId: j.id,
        attempt: 1,
        stage,
        label: stage,
        filePath: null,
        startedAt,
        completedAt: null,
        outcome: 'running' as const,
        inputTokens: 0,
        cachedInputTokens: 0,
        outputTokens: 0,
      });
      const [p1, p2] = [uuid(), uuid()];
      await storage().protocol.insertPass(pass(p2, T(2), 'review'));
      await storage().protocol.insertPass(pass(p1, T(1), 'plan'));
      const event = (
        passId: string,
        sequence: number,
        eventCategory: ProtocolEventRecord['eventCategory'],
      ): ProtocolEventRecord => ({
        id: uuid(),
        passId,
        jobId: j.id,
        sequence,
        kind: 'k',
        name: `e${sequence}`,
        eventCategory,
        occurredAt: T(sequence),
        durationMs: 5,
        inputTokens: 10,
        outputTokens: null,
        body: { prompt: `p${sequence}` },
      });
      await storage().protocol.insertEvents([
        event(p2, 3, 'ai-call'),
        event(p1, 1, 'planning'),
        event(p2, 2, 'scm-call'),
      ]);
      await storage().protocol.completePass(p1, {
        completedAt: T(5),
        outcome: 'succeeded',
        inputTokens: 10,
        cachedInputTokens: 2,
        outputTokens: 3,
      });

      const full = (await storage().protocol.read(j.id, { includeBodies: true, page: { limit: 10 } })).items;
      expect(full.map((p) => p.stage)).toEqual(['plan', 'review']);
      expect(full[0]).toMatchObject({
        outcome: 'succeeded',
        completedAt: T(5),
        inputTokens: 10,
        cachedInputTokens: 2,
        outputTokens: 3,
      });
      expect(full[1]?.events.map((e) => e.name)).toEqual(['e2', 'e3']);
      expect(full[1]?.events[1]?.body).toEqual({ prompt: 'p3' });

      const lean = (
        await storage().protocol.read(j.id, { includeBodies: false, eventCategory: 'ai-call', page: { limit: 10 } })
      ).items;
      expect(lean.map((p) => p.events.map((e) => e.name))).toEqual([[], ['e3']]);
      expect(lean[1]?.events[0]).toMatchObject({
        body: null,
        durationMs: 5,
        inputTokens: 10,
        eventCategory: 'ai-call',
      });

      const first = await storage().protocol.read(j.id, { includeBodies: true, page: { limit: 1 } });
      expect(first.items.map((p) => [p.stage, p.events.map((e) => e.name)])).toEqual([['plan', ['e1']]]);
      const rest = await storage().protocol.read(j.id, {
        includeBodies: true,
        page: { limit: 1, cursor: first.nextCursor },
      });
      expect(rest.items.map((p) => [p.stage, p.events.map((e) => e.name)])).toEqual([['review', ['e2', 'e3']]]);
      expect(rest.nextCursor).toBeNull();
    });
  });
}
