import { beforeEach, describe, expect, it } from 'vitest';
import type { MarginEvents } from '../kernel/index.js';
import {
  LEASE_MS,
  PLATFORM_ADMIN,
  REVIEWED,
  refusalOf,
  reviewSubmission,
  startUseCases,
  type UseCaseHarness,
  WORKER,
} from '../use-case-harness.js';

let h: UseCaseHarness;
let clientId: string;
const submit = async (body: unknown) => (await h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, clientId, body)).jobId;
const status = (jobId: string) => h.core.reviewing.getReviewJobStatus(PLATFORM_ADMIN, jobId);
const restart = (jobId: string) => h.core.reviewing.restartReviewJob(PLATFORM_ADMIN, jobId);
const stop = (jobId: string) => h.core.reviewing.stopReviewJob(PLATFORM_ADMIN, jobId);
const list = (query: Record<string, unknown> = {}) => h.core.reviewing.listReviewJobs(PLATFORM_ADMIN, clientId, query);
const UNKNOWN_JOB = '00000000-0000-4000-8000-00000000beef';

/** A job of its own pull request, run once by the worker to the engine's answer. */
async function ranJob(number: number, outcome: Partial<typeof REVIEWED> = {}): Promise<string> {
  const jobId = await submit(reviewSubmission(number));
  h.engine.script = async () => ({ ...REVIEWED, ...outcome });
  await h.runQueued();
  return jobId;
}

beforeEach(async () => {
  h = await startUseCases({ edition: 'Commercial' });
  clientId = await h.newClient();
});

describe('job status reads', () => {
  it('show a change made through core at once, though reads are cached', async () => {
    const jobId = await submit(reviewSubmission(1));
    expect((await status(jobId)).status).toBe('queued');
    await stop(jobId);
    expect((await status(jobId)).status).toBe('stopped');
  });

  it('show a change made elsewhere (another host) once the cache time has passed', async () => {
    h = await startUseCases({ edition: 'Commercial', jobStatusCacheMs: 1000 });
    clientId = await h.newClient();
    const jobId = await submit(reviewSubmission(1));
    expect((await status(jobId)).status).toBe('queued');
    await h.storage.reviewJobs.transition(jobId, ['queued'], 'stopped', {});
    expect((await status(jobId)).status).toBe('queued');
    h.clock.advance(1001);
    expect((await status(jobId)).status).toBe('stopped');
  });

  it('answer an unknown job with 404', async () => {
    const refused = await refusalOf(status(UNKNOWN_JOB));
    expect([refused.code, refused.message]).toEqual(['not_found', 'Job not found.']);
  });
});

describe('restarting a job', () => {
  it('puts a failed job back in the queue as the same job’s next attempt, announced', async () => {
    const jobId = await ranJob(1, { status: 'failed', reason: 'The model answered nonsense twice.' });
    expect(await status(jobId)).toMatchObject({ status: 'failed', error: 'The model answered nonsense twice.' });
    const queued: Array<MarginEvents['job.queued']> = [];
    h.core.events.on('job.queued', (e) => queued.push(e));

    expect(await restart(jobId)).toEqual({ jobId, status: 'queued', attempt: 2 });
    expect(await status(jobId)).toMatchObject({
      status: 'queued',
      attempt: 2,
      trigger: 'restart',
      error: null,
      startedAt: null,
      completedAt: null,
    });
    expect(queued).toEqual([{ jobId, clientId, trigger: 'restart' }]);
  });

  it('restarts jobs a spend cap held or stopped, like failed ones', async () => {
    for (const [number, held] of [
      [1, 'budgetHeld'],
      [2, 'budgetExceeded'],
    ] as const) {
      const jobId = await ranJob(number, { status: held, reason: 'Over the hard cap.' });
      expect((await status(jobId)).status).toBe(held);
      expect(await restart(jobId)).toEqual({ jobId, status: 'queued', attempt: 2 });
    }
  });

  it('refuses any other state with 409 naming it', async () => {
    const completed = await ranJob(1);
    const queued = await submit(reviewSubmission(2));
    const refusedQueued = await refusalOf(restart(queued));
    expect(refusedQueued.code).toBe('conflict');
    expect(refusedQueued.details).toEqual({ jobId: queued, status: 'queued' });
    const refusedCompleted = await refusalOf(restart(completed));
    expect(refusedCompleted.message).toBe(
      'A completed job cannot be restarted; only failed ones and those a spend cap held or stopped can.',
    );
    await stop(queued);
    expect((await refusalOf(restart(queued))).details).toEqual({ jobId: queued, status: 'stopped' });
    expect((await refusalOf(restart(UNKNOWN_JOB))).code).toBe('not_found');
  });

  it('refuses while a review of the same revision is active again (409 naming it)', async () => {
    const failed = await ranJob(1, { status: 'failed', reason: 'boom' });
    const again = await submit(reviewSubmission(1));
    const refused = await refusalOf(restart(failed));
    expect(refused.code).toBe('conflict');
    expect(refused.details).toEqual({ jobId: again });
    expect((await status(failed)).status).toBe('failed');
  });

  it('refuses a job of a pull request blocked since (409, reason blocked)', async () => {
    const failed = await ranJob(1, { status: 'failed', reason: 'boom' });
    await h.core.reviewing.blockPullRequest(PLATFORM_ADMIN, clientId, {
      providerScopePath: 'https://github.com/acme',
      providerProjectKey: 'acme',
      repositoryId: '4242',
      pullRequestId: 1,
      reason: 'Release freeze',
    });
    const refused = await refusalOf(restart(failed));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toBe('This pull request is blocked: Release freeze');
    expect(refused.details).toEqual({ reason: 'blocked' });
  });

  it('refuses while another review is queued, without parallel-review-execution', async () => {
    const failed = await ranJob(1, { status: 'failed', reason: 'boom' });
    await submit(reviewSubmission(2));
    await h.setEdition('Community');
    const refused = await refusalOf(restart(failed));
    expect(refused.code).toBe('license_required');
    expect(refused.details).toEqual({ capability: 'parallel-review-execution' });
  });
});

describe('stopping a job', () => {
  it('stops a queued job for good (200 body), announced, and never runs it', async () => {
    const jobId = await submit(reviewSubmission(1));
    const stopped: Array<MarginEvents['job.stopped']> = [];
    h.core.events.on('job.stopped', (e) => stopped.push(e));
    expect(await stop(jobId)).toEqual({ jobId, status: 'stopped', attempt: 1 });
    expect(stopped).toEqual([{ jobId, clientId }]);
    expect(await status(jobId)).toMatchObject({ status: 'stopped', completedAt: h.clock.now().toISOString() });
    expect(await h.runQueued()).toEqual([]);
    expect(h.engine.reviewed).toEqual([]);
  });

  it('stops a running job: its lease can no longer be renewed and its end is not recorded', async () => {
    const jobId = await submit(reviewSubmission(1));
    const [job] = await h.core.worker.claimJobs({ owner: WORKER, capacity: 1, leaseMs: LEASE_MS });
    if (!job) throw new Error('nothing claimed');
    expect((await stop(jobId)).status).toBe('stopped');
    expect(await h.core.worker.renewLease({ jobId, owner: WORKER, leaseMs: LEASE_MS })).toBe(false);
    const run = { owner: WORKER, signal: new AbortController().signal, onProgress: () => undefined };
    expect(await h.core.worker.executeJob(job, run)).toEqual({ status: 'abandoned' });
    expect(await status(jobId)).toMatchObject({ status: 'stopped', result: null });
  });

  it('refuses a job that is no longer queued or running (409 naming its state), and an unknown one (404)', async () => {
    const done = await ranJob(1);
    const refused = await refusalOf(stop(done));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toBe('A completed job cannot be stopped; only queued or running ones can.');
    expect(refused.details).toEqual({ jobId: done, status: 'completed' });
    const stopped = await submit(reviewSubmission(2));
    await stop(stopped);
    expect((await refusalOf(stop(stopped))).message).toBe(
      'A stopped job cannot be stopped; only queued or running ones can.',
    );
    expect((await refusalOf(stop(UNKNOWN_JOB))).code).toBe('not_found');
  });
});

describe('listing a client’s jobs', () => {
  it('lists newest first, a page at a time', async () => {
    const ids: string[] = [];
    for (const number of [1, 2, 3]) {
      ids.push(await submit(reviewSubmission(number)));
      h.clock.advance(1000);
    }
    const first = await list({ limit: '2' });
    expect(first.items.map((j) => j.jobId)).toEqual([ids[2], ids[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list({ limit: '2', cursor: first.nextCursor });
    expect(second).toEqual({ items: [expect.objectContaining({ jobId: ids[0] })], nextCursor: null });
  });

  it('filters by status, repository and pull request, and lists no other client’s jobs', async () => {
    const done = await ranJob(1);
    const queued = await submit(reviewSubmission(2, { repositoryId: '77' }));
    const other = await h.newClient();
    await h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, other, reviewSubmission(3));
    const ids = async (query: Record<string, unknown>) => (await list(query)).items.map((j) => j.jobId);
    expect(await ids({})).toEqual([queued, done]);
    expect(await ids({ status: 'completed' })).toEqual([done]);
    expect(await ids({ repositoryId: '77' })).toEqual([queued]);
    expect(await ids({ pullRequestId: '1' })).toEqual([done]);
    expect(await ids({ status: 'queued', repositoryId: '4242' })).toEqual([]);
  });

  it('lists a job without its findings and coverage files, counting the findings', async () => {
    const jobId = await ranJob(1, {
      result: {
        summary: 'One finding.',
        findings: [{ id: 'f1', message: 'Check the bounds.' }],
        coverage: { files: [{ path: 'src/a.ts' }], complete: true },
      },
    });
    const [listed] = (await list()).items;
    expect(listed).toMatchObject({
      jobId,
      status: 'completed',
      result: { summary: 'One finding.', coverage: { complete: true }, findingCount: 1 },
    });
    expect((await status(jobId)).result?.findings).toEqual([{ id: 'f1', message: 'Check the bounds.' }]);
  });

  it('refuses unknown filter values (400)', async () => {
    for (const query of [{ status: 'exploded' }, { pullRequestId: '0' }, { limit: '201' }, { limit: '0' }]) {
      expect((await refusalOf(list(query))).code, JSON.stringify(query)).toBe('validation_failed');
    }
  });
});

describe('reading a job’s protocol', () => {
  let jobId: string;
  beforeEach(async () => {
    jobId = await submit(reviewSubmission(1));
    h.engine.script = async (_job, ctx) => {
      const plan = await ctx.protocol.pass('plan', 'Plan the review');
      plan.event({ kind: 'decision', name: 'files.selected', eventCategory: 'planning', body: { files: ['a.ts'] } });
      plan.event({
        kind: 'call',
        name: 'chat',
        eventCategory: 'ai-call',
        durationMs: 12,
        inputTokens: 100,
        outputTokens: 30,
        body: { prompt: 'Review this diff' },
      });
      await plan.complete('succeeded', { inputTokens: 100, outputTokens: 30 });
      const publish = await ctx.protocol.pass('publish', 'Post the findings');
      publish.event({ kind: 'call', name: 'thread.created', eventCategory: 'publication', body: { path: 'a.ts' } });
      await publish.complete('succeeded');
      return REVIEWED;
    };
    await h.runQueued();
  });
  const read = (query: Record<string, unknown> = {}) =>
    h.core.reviewing.getReviewJobProtocol(PLATFORM_ADMIN, jobId, query);

  it('answers the passes in order with their events and bodies', async () => {
    const { items, nextCursor } = await read();
    expect(nextCursor).toBeNull();
    expect(items.map((p) => [p.stage, p.outcome, p.attempt])).toEqual([
      ['plan', 'succeeded', 1],
      ['publish', 'succeeded', 1],
    ]);
    expect(items[0]).toMatchObject({ jobId, label: 'Plan the review', inputTokens: 100, outputTokens: 30 });
    expect(items[0]?.events).toEqual([
      expect.objectContaining({ name: 'files.selected', eventCategory: 'planning', body: { files: ['a.ts'] } }),
      expect.objectContaining({
        name: 'chat',
        eventCategory: 'ai-call',
        durationMs: 12,
        inputTokens: 100,
        outputTokens: 30,
        body: { prompt: 'Review this diff' },
      }),
    ]);
  });

  it('keeps the event rows and leaves out their bodies with includeEvents=false, and filters by category', async () => {
    const lean = await read({ includeEvents: 'false', eventCategory: 'ai-call' });
    expect(lean.items.map((p) => p.events)).toEqual([
      [expect.objectContaining({ name: 'chat', inputTokens: 100, body: null })],
      [],
    ]);
  });

  it('pages pass by pass with a cursor', async () => {
    const first = await read({ limit: '1' });
    expect(first.items.map((p) => p.stage)).toEqual(['plan']);
    const second = await read({ limit: '1', cursor: first.nextCursor });
    expect(second.items.map((p) => p.stage)).toEqual(['publish']);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses an unknown category (400) and an unknown job (404)', async () => {
    expect((await refusalOf(read({ eventCategory: 'gossip' }))).code).toBe('validation_failed');
    const unknown = await refusalOf(h.core.reviewing.getReviewJobProtocol(PLATFORM_ADMIN, UNKNOWN_JOB, {}));
    expect(unknown.code).toBe('not_found');
  });
});
