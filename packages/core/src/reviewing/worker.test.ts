import { beforeEach, describe, expect, it } from 'vitest';
import type { MarginEvents } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import {
  LEASE_MS,
  PLATFORM_ADMIN,
  REVIEWED,
  reviewSubmission,
  startUseCases,
  type UseCaseHarness,
  WORKER,
} from '../use-case-harness.js';
import { RECLAIM_EXHAUSTED, type ReviewJobRecord } from './job-record.js';
import { MAX_RECLAIMS, NO_ENGINE } from './worker.js';

/** The worker that takes back the leases others lost. */
const RECLAIMER = 'worker-reclaiming';

let h: UseCaseHarness;
let clientId: string;
const submit = async (number: number) =>
  (await h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, clientId, reviewSubmission(number))).jobId;
const status = (jobId: string) => h.core.reviewing.getReviewJobStatus(PLATFORM_ADMIN, jobId);
const claim = (capacity = 10, owner = WORKER) => h.core.worker.claimJobs({ owner, capacity, leaseMs: LEASE_MS });
const execute = (job: ReviewJobRecord, signal = new AbortController().signal) =>
  h.core.worker.executeJob(job, { owner: WORKER, signal, onProgress: () => undefined });
async function claimOne(): Promise<ReviewJobRecord> {
  const [job] = await claim(1);
  if (!job) throw new Error('nothing was claimed');
  return job;
}
function recorded<K extends keyof MarginEvents>(name: K): Array<MarginEvents[K]> {
  const seen: Array<MarginEvents[K]> = [];
  h.core.events.on(name, (e) => seen.push(e));
  return seen;
}

beforeEach(async () => {
  h = await startUseCases({ edition: 'Commercial' });
  clientId = await h.newClient();
});

describe('how many reviews a host runs at once', () => {
  it('is the configured number with parallel-review-execution, else one', async () => {
    expect(await h.core.worker.allowedConcurrency(4)).toBe(4);
    await h.setEdition('Commercial', [{ capability: 'parallel-review-execution', overrideState: 'disabled' }]);
    expect(await h.core.worker.allowedConcurrency(4)).toBe(1);
    await h.setEdition('Community');
    expect(await h.core.worker.allowedConcurrency(4)).toBe(1);
  });
});

describe('claiming jobs', () => {
  it('leases queued jobs oldest first, up to the capacity, and announces each start', async () => {
    const ids: string[] = [];
    for (const number of [1, 2, 3]) {
      ids.push(await submit(number));
      h.clock.advance(1000);
    }
    const started = recorded('job.started');
    const claimed = await claim(2);
    expect(claimed.map((j) => j.id)).toEqual([ids[0], ids[1]]);
    expect(claimed[0]).toMatchObject({
      status: 'running',
      leaseOwner: WORKER,
      leaseExpiresAt: new Date(h.clock.now().getTime() + LEASE_MS).toISOString(),
      startedAt: h.clock.now().toISOString(),
    });
    expect(started).toEqual([
      { jobId: ids[0], clientId, attempt: 1 },
      { jobId: ids[1], clientId, attempt: 1 },
    ]);
    expect(await status(ids[0] as string)).toMatchObject({ status: 'running', startedAt: h.clock.now().toISOString() });
    expect(await claim(0)).toEqual([]);
    expect((await claim(5)).map((j) => j.id)).toEqual([ids[2]]);
    expect(await claim(5)).toEqual([]);
  });

  it('claims one job, and none while any runs, without parallel-review-execution', async () => {
    await submit(1);
    await submit(2);
    await h.setEdition('Community');
    expect(await claim(4)).toHaveLength(1);
    expect(await claim(4, 'worker-2')).toEqual([]);
  });
});

describe('running a claimed job', () => {
  it('records what the engine answers and announces the end', async () => {
    const jobId = await submit(1);
    const job = await claimOne();
    const completed = recorded('job.completed');
    const usage = { inputTokens: 100, cachedInputTokens: 20, outputTokens: 30, estimatedCostUsd: 0.0012, byModel: [] };
    h.engine.script = async (_job, ctx) => {
      ctx.reportProgress({ filesTotal: 2, filesDone: 2 });
      return {
        ...REVIEWED,
        result: { summary: 'One finding.', findings: [{ id: 'f1' }], coverage: { files: [] } },
        usage,
      };
    };
    h.clock.advance(5000);
    expect(await execute(job)).toEqual({ status: 'completed' });
    expect(await status(jobId)).toMatchObject({
      status: 'completed',
      completedAt: h.clock.now().toISOString(),
      progress: { filesTotal: 2, filesDone: 2 },
      result: { summary: 'One finding.', findings: [{ id: 'f1' }] },
      usage,
      error: null,
    });
    expect(completed).toEqual([{ jobId, clientId, status: 'completed' }]);
  });

  it.each(['cancelled', 'superseded', 'budgetHeld', 'budgetExceeded'] as const)(
    'records a run the engine ends as %s, with its reason',
    async (outcome) => {
      const jobId = await submit(1);
      h.engine.script = async () => ({ ...REVIEWED, status: outcome, reason: `Ended as ${outcome}.` });
      const completed = recorded('job.completed');
      expect(await execute(await claimOne())).toEqual({ status: outcome });
      expect(await status(jobId)).toMatchObject({ status: outcome, error: `Ended as ${outcome}.` });
      expect(completed).toEqual([{ jobId, clientId, status: outcome }]);
    },
  );

  it('fails a job the engine fails, keeping its reason', async () => {
    const jobId = await submit(1);
    const failed = recorded('job.failed');
    h.engine.script = async () => ({ ...REVIEWED, status: 'failed', reason: 'Every chunk failed.' });
    expect(await execute(await claimOne())).toEqual({ status: 'failed' });
    expect(await status(jobId)).toMatchObject({ status: 'failed', error: 'Every chunk failed.' });
    expect(failed).toEqual([{ jobId, clientId, reason: 'Every chunk failed.' }]);
  });

  it('keeps what a review that threw had spent: on the job and in the ledger, call for call', async () => {
    const jobId = await submit(1);
    const call = (purpose: string, estimatedCostUsd: number) => ({
      at: h.clock.now().toISOString(),
      purpose,
      logicalModel: null,
      connectionId: 'conn-1',
      remoteModelId: 'model-a',
      inputTokens: 1000,
      cachedInputTokens: 100,
      outputTokens: 50,
      reasoningTokens: 0,
      estimatedCostUsd,
      costIsApproximate: false,
    });
    h.engine.script = async (_job, ctx) => {
      ctx.onModelCall?.(call('reviewDefault', 0.001234));
      ctx.onModelCall?.(call('reviewVerification', 0.000101));
      throw MarginError.provider('unavailable', 'The provider stopped answering.');
    };
    expect((await execute(await claimOne())).status).toBe('failed');
    expect((await status(jobId)).usage).toMatchObject({
      inputTokens: 2000,
      cachedInputTokens: 200,
      outputTokens: 100,
      estimatedCostUsd: 0.001335,
      byModel: [
        expect.objectContaining({ purpose: 'reviewDefault', estimatedCostUsd: 0.001234 }),
        expect.objectContaining({ purpose: 'reviewVerification', estimatedCostUsd: 0.000101 }),
      ],
    });
    const events = await h.storage.usageEvents.listForJob(jobId);
    expect(events.map((e) => [e.purpose, e.estimatedCostUsd])).toEqual([
      ['reviewDefault', 0.001234],
      ['reviewVerification', 0.000101],
    ]);
  });

  it('fails a job whose engine throws: with the error’s message, or a generic one for an unexpected error', async () => {
    const explained = await submit(1);
    h.engine.script = async () => {
      throw MarginError.provider('rateLimited', 'The model provider limited the calls.');
    };
    expect((await execute(await claimOne())).status).toBe('failed');
    expect((await status(explained)).error).toBe('The model provider limited the calls.');
    const protocol = await h.core.reviewing.getReviewJobProtocol(PLATFORM_ADMIN, explained, {});
    expect(protocol.items.at(-1)).toMatchObject({
      stage: 'operational',
      outcome: 'failed',
      events: [
        expect.objectContaining({
          name: 'job.failed',
          eventCategory: 'operational',
          body: { message: 'The model provider limited the calls.' },
        }),
      ],
    });

    const unexpected = await submit(2);
    const bug = new TypeError("Cannot read properties of undefined (reading 'path')");
    h.engine.script = async () => {
      throw bug;
    };
    // The host gets the error for its log; the job shows no internals.
    expect(await execute(await claimOne())).toEqual({ status: 'failed', error: bug });
    expect((await status(unexpected)).error).toBe('The review failed unexpectedly.');
  });

  it('fails a job when no engine is configured, saying so', async () => {
    h = await startUseCases({ edition: 'Commercial', withoutEngine: true });
    clientId = await h.newClient();
    const jobId = await submit(1);
    expect((await execute(await claimOne())).status).toBe('failed');
    expect((await status(jobId)).error).toBe(NO_ENGINE);
  });

  it('records nothing for an aborted run (shutdown): the job is released back to the queue', async () => {
    const jobId = await submit(1);
    const job = await claimOne();
    const abort = new AbortController();
    h.engine.script = async () => {
      abort.abort();
      return REVIEWED;
    };
    expect(await execute(job, abort.signal)).toEqual({ status: 'abandoned' });
    expect((await status(jobId)).status).toBe('running');
    expect(await h.core.worker.releaseJob(jobId, WORKER)).toBe(true);
    expect(await status(jobId)).toMatchObject({ status: 'queued', startedAt: null });
    expect(await h.core.worker.releaseJob(jobId, WORKER)).toBe(false);
  });
});

describe('leases', () => {
  it('are renewed only by the owner of a running job, saving its progress for status reads', async () => {
    const jobId = await submit(1);
    await claimOne();
    expect((await status(jobId)).progress).toEqual({ filesTotal: 0, filesDone: 0 });
    const renewal = { jobId, owner: WORKER, leaseMs: LEASE_MS, progress: { filesTotal: 4, filesDone: 1 } };
    expect(await h.core.worker.renewLease(renewal)).toBe(true);
    expect((await status(jobId)).progress).toEqual({ filesTotal: 4, filesDone: 1 });
    expect(await h.core.worker.renewLease({ ...renewal, owner: 'worker-2' })).toBe(false);
  });

  it('that ran out put the job back in the queue; the fourth time the job fails, announced', async () => {
    const jobId = await submit(1);
    const failed = recorded('job.failed');
    const reclaimed = (outcome: { requeued: string[]; failed: string[] }) => ({
      requeued: outcome.requeued,
      failed: outcome.failed,
    });
    for (let reclaim = 1; reclaim <= MAX_RECLAIMS; reclaim++) {
      await claimOne();
      expect(await h.core.worker.reclaimExpired(RECLAIMER)).toEqual({ requeued: [], failed: [], lost: [] });
      h.clock.advance(LEASE_MS + 1);
      expect(reclaimed(await h.core.worker.reclaimExpired(RECLAIMER))).toEqual({ requeued: [jobId], failed: [] });
      expect(await status(jobId)).toMatchObject({ status: 'queued', startedAt: null });
    }
    await claimOne();
    h.clock.advance(LEASE_MS + 1);
    expect(reclaimed(await h.core.worker.reclaimExpired(RECLAIMER))).toEqual({ requeued: [], failed: [jobId] });
    expect(await status(jobId)).toMatchObject({ status: 'failed', error: RECLAIM_EXHAUSTED });
    expect(failed).toEqual([{ jobId, clientId, reason: RECLAIM_EXHAUSTED }]);

    // A restart starts counting afresh.
    await h.core.reviewing.restartReviewJob(PLATFORM_ADMIN, jobId);
    await claimOne();
    h.clock.advance(LEASE_MS + 1);
    expect(reclaimed(await h.core.worker.reclaimExpired(RECLAIMER))).toEqual({ requeued: [jobId], failed: [] });
  });

  it('that ran out is an operational event of the attempt: who lost it, when, and who took it back', async () => {
    const jobId = await submit(1);
    const job = await claimOne();
    const expiredAt = job.leaseExpiresAt;
    h.clock.advance(LEASE_MS + 1);
    const reclaimedAt = h.clock.now().toISOString();
    const outcome = await h.core.worker.reclaimExpired(RECLAIMER);
    expect(outcome.lost).toEqual([{ jobId, attempt: 1, owner: WORKER, expiredAt, reclaim: 1, outcome: 'requeued' }]);

    const protocol = await h.core.reviewing.getReviewJobProtocol(PLATFORM_ADMIN, jobId, {
      eventCategory: 'operational',
    });
    expect(protocol.items).toHaveLength(1);
    expect(protocol.items[0]).toMatchObject({
      attempt: 1,
      stage: 'operational',
      label: 'Lease lost',
      outcome: 'failed',
    });
    expect(protocol.items[0]?.events).toMatchObject([
      {
        kind: 'failure',
        name: 'job.leaseLost',
        eventCategory: 'operational',
        body: {
          lostBy: WORKER,
          leaseExpiredAt: expiredAt,
          reclaimedBy: RECLAIMER,
          reclaimedAt,
          attempt: 1,
          reclaim: 1,
          outcome: 'requeued',
        },
      },
    ]);
  });
});
