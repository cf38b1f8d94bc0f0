import { MarginError, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { isCapabilityAvailable } from '../licensing/index.js';
import {
  type JobUsage,
  jobUsageOf,
  type ModelCallUsage,
  type ProtocolWriter,
  RESOLVED_HEAD_EVENT,
  type ReviewEngineV1,
  type ReviewScm,
} from '../review-engine/index.js';
import { budgetAdmission } from '../spend/index.js';
import { commitStatusReporter, DEFAULT_PROVIDER_STATUS } from './commit-status.js';
import { jobKnowledge } from './job-knowledge.js';
import type { FinishRequest, LostLease, ReclaimOutcome, ReviewJobRecord } from './job-record.js';
import { createProtocolWriter } from './protocol-writer.js';
import { createReviewContext, jobScm } from './review-context.js';
import type { ReviewingDeps } from './reviewing-deps.js';
import { splitJobUsage } from './usage-events.js';

/** A lease may run out this many times before the job fails instead of going back to the queue. */
export const MAX_RECLAIMS = 3;

export const NO_ENGINE = 'No review engine is configured in this installation, so the job cannot run.';

/** How many reviews this host may run at once: the configured number, or one without the capability. */
export async function allowedConcurrency(deps: ReviewingDeps, configured: number): Promise<number> {
  return (await isCapabilityAvailable(deps, 'parallel-review-execution')) ? configured : 1;
}

/**
 * Leases up to `capacity` queued jobs to `owner`, oldest first. Without `parallel-review-execution`
 * nothing is claimed while any review runs on any host.
 */
export async function claimJobs(
  deps: ReviewingDeps,
  request: { owner: string; capacity: number; leaseMs: number },
): Promise<ReviewJobRecord[]> {
  if (request.capacity <= 0) return [];
  const exclusive = !(await isCapabilityAvailable(deps, 'parallel-review-execution'));
  const claimed = await deps.storage.reviewJobs.claimNext({
    owner: request.owner,
    limit: request.capacity,
    leaseMs: request.leaseMs,
    now: deps.clock.now().toISOString(),
    exclusive,
  });
  deps.jobStatusCache.forget(...claimed.map((job) => job.id));
  for (const job of claimed) {
    deps.events.emit('job.started', { jobId: job.id, clientId: job.clientId, attempt: job.attempt });
  }
  return claimed;
}

export function renewJobLease(
  deps: ReviewingDeps,
  request: { jobId: string; owner: string; leaseMs: number; progress?: ReviewJobRecord['progress'] | undefined },
): Promise<boolean> {
  const expires = new Date(deps.clock.now().getTime() + request.leaseMs).toISOString();
  if (request.progress) deps.jobStatusCache.forget(request.jobId);
  return deps.storage.reviewJobs.renewLease(request.jobId, request.owner, expires, request.progress);
}

/**
 * Takes back the leases that ran out, on behalf of the worker `reclaimedBy`, and records each in its
 * job's protocol: the worker that lost it records nothing, as its run is cut off.
 */
export async function reclaimExpiredJobs(deps: ReviewingDeps, reclaimedBy: string): Promise<ReclaimOutcome> {
  const now = deps.clock.now().toISOString();
  const outcome = await deps.storage.reviewJobs.reclaimExpired(now, MAX_RECLAIMS);
  deps.jobStatusCache.forget(...outcome.requeued, ...outcome.failed);
  for (const lost of outcome.lost) await recordLostLease(deps, lost, reclaimedBy, now);
  for (const jobId of outcome.failed) {
    const job = await deps.storage.reviewJobs.findById(jobId);
    if (job) deps.events.emit('job.failed', { jobId, clientId: job.clientId, reason: job.error ?? 'lease lost' });
  }
  return outcome;
}

/** The protocol event of a lost lease, in a pass of its own in the attempt that lost it. */
export const LEASE_LOST_EVENT = { stage: 'operational', name: 'job.leaseLost', eventCategory: 'operational' } as const;

async function recordLostLease(deps: ReviewingDeps, lost: LostLease, reclaimedBy: string, reclaimedAt: string) {
  const pass = await createProtocolWriter(deps, lost.jobId, lost.attempt).pass(LEASE_LOST_EVENT.stage, 'Lease lost');
  pass.event({
    kind: 'failure',
    name: LEASE_LOST_EVENT.name,
    eventCategory: LEASE_LOST_EVENT.eventCategory,
    body: {
      lostBy: lost.owner,
      leaseExpiredAt: lost.expiredAt,
      reclaimedBy,
      reclaimedAt,
      attempt: lost.attempt,
      reclaim: lost.reclaim,
      outcome: lost.outcome,
    },
  });
  await pass.complete('failed');
}

export async function releaseJob(deps: ReviewingDeps, jobId: string, owner: string): Promise<boolean> {
  const released = await deps.storage.reviewJobs.release(jobId, owner, deps.clock.now().toISOString());
  deps.jobStatusCache.forget(jobId);
  return released;
}

export interface ExecutionOutcome {
  /** What the job ended as; `abandoned` when the run was aborted and left for its new state. */
  status: 'completed' | 'cancelled' | 'superseded' | 'failed' | 'budgetHeld' | 'budgetExceeded' | 'abandoned';
  /** The error that failed it, for the host's log (never put on the wire as is). */
  error?: unknown;
}

/**
 * Runs one claimed job through the review engine and records the outcome. An aborted run (stopped,
 * superseded, lease lost, shutdown) records nothing: the job's new state stands.
 */
export async function executeJob(
  deps: ReviewingDeps,
  engine: ReviewEngineV1 | undefined,
  job: ReviewJobRecord,
  run: { owner: string; signal: AbortSignal; onProgress(progress: ReviewJobRecord['progress']): void },
): Promise<ExecutionOutcome> {
  const protocol = createProtocolWriter(deps, job.id, job.attempt);
  const now = () => deps.clock.now().toISOString();
  /** Every model call of this attempt as it returned: a review that throws still spent them. */
  const calls: ModelCallUsage[] = [];

  /**
   * Ends the job with its usage. The usage and its ledger events land together or not at all, so
   * reports never disagree with jobs; the job's in-flight claims go with them (the ledger counts
   * its calls now). False when the job was no longer this run's to end.
   */
  const finish = async (end: Omit<FinishRequest, 'at' | 'usage'>, usage: JobUsage | null): Promise<boolean> => {
    const tenantId = (await deps.storage.clients.findById(job.clientId))?.tenantId ?? SYSTEM_TENANT_ID;
    const split = splitJobUsage(deps.ids, job, tenantId, usage);
    const recorded = await deps.storage.transaction(async (tx) => {
      const finished = await tx.reviewJobs.finish(job.id, run.owner, { ...end, at: now(), usage: split.usage });
      if (finished && split.events.length > 0) await tx.usageEvents.record(split.events);
      if (finished) await tx.inFlightSpend.remove(job.id);
      return finished;
    });
    deps.jobStatusCache.forget(job.id);
    return recorded;
  };

  // Opened once, for the engine and the provider status alike.
  let opened: Promise<ReviewScm> | undefined;
  const scm = () => {
    opened ??= jobScm(deps, job);
    return opened;
  };
  const status = commitStatusReporter(deps.providerStatus ?? DEFAULT_PROVIDER_STATUS, job, {
    scm,
    protocol,
    signal: run.signal,
  });
  const fail = async (message: string, error?: unknown): Promise<ExecutionOutcome> => {
    await status.finished({ status: 'failed', reason: message });
    const pass = await protocol.pass('operational', 'Review failed');
    pass.event({ kind: 'failure', name: 'job.failed', eventCategory: 'operational', body: { message } });
    await pass.complete('failed');
    const recorded = await finish({ status: 'failed', error: message }, calls.length ? jobUsageOf(calls) : null);
    if (recorded) deps.events.emit('job.failed', { jobId: job.id, clientId: job.clientId, reason: message });
    return { status: 'failed', error };
  };

  /** Ends the job `budgetHeld` before any model call; a restart re-admits it. */
  const hold = async (reason: string): Promise<ExecutionOutcome> => {
    await status.finished({ status: 'budgetHeld', reason });
    const recorded = await finish({ status: 'budgetHeld', error: reason }, null);
    if (recorded) deps.events.emit('job.completed', { jobId: job.id, clientId: job.clientId, status: 'budgetHeld' });
    return { status: recorded ? 'budgetHeld' : 'abandoned' };
  };

  if (!engine) return fail(NO_ENGINE);
  const target = targetHeadObserver(deps, job, protocol);
  try {
    status.started();
    let progress: ReviewJobRecord['progress'] | undefined;
    const onProgress = (p: ReviewJobRecord['progress']) => {
      progress = p;
      run.onProgress(p);
    };
    // Decided once per job: a license change while it runs applies from the next job on.
    const spendCapsApply = await isCapabilityAvailable(deps, 'budgeting');
    // Without budgeting the client's caps stay stored and bind nothing.
    const admission = spendCapsApply ? await budgetAdmission(deps, job) : {};
    if (admission.heldReason) return hold(admission.heldReason);
    const budgetCaps = { softUsd: admission.softUsd, hardUsd: admission.hardUsd };
    const context = createReviewContext(deps, job, {
      signal: run.signal,
      protocol: target.protocol,
      onProgress,
      spendCapsApply,
      budgetCaps,
      knowledge: await jobKnowledge(deps, job, run.signal, protocol),
      sharedSpend: admission.shared,
      onModelCall: (call) => calls.push(call),
      scm,
    });
    const outcome = await engine.review(job, context);
    if (run.signal.aborted) return { status: 'abandoned' };
    // Before the job is recorded as ended, so whoever sees it ended sees the provider's status final too.
    await status.finished(outcome);
    const recorded = await finish(
      { status: outcome.status, result: outcome.result, error: outcome.reason ?? null, progress },
      outcome.usage,
    );
    if (!recorded) return { status: 'abandoned' };
    if (outcome.status === 'failed') {
      deps.events.emit('job.failed', { jobId: job.id, clientId: job.clientId, reason: outcome.reason ?? '' });
    } else {
      deps.events.emit('job.completed', { jobId: job.id, clientId: job.clientId, status: outcome.status });
    }
    return { status: outcome.status };
  } catch (error) {
    if (run.signal.aborted) return { status: 'abandoned' };
    const message =
      MarginError.isInstance(error) && error.code !== 'internal' ? error.message : 'The review failed unexpectedly.';
    return fail(message, error);
  } finally {
    await target.report();
  }
}

/**
 * The target branch head the review read (the engine records it when it resolves the pull request,
 * `RESOLVED_HEAD_EVENT`), reported to code knowledge once the review ended: no provider call of its
 * own, and knowledge never fails a review.
 */
function targetHeadObserver(deps: ReviewingDeps, job: ReviewJobRecord, protocol: ProtocolWriter) {
  let seen: { branchName: string; headSha: string } | undefined;
  const observed: ProtocolWriter = {
    async pass(stage, label, filePath) {
      const pass = await protocol.pass(stage, label, filePath);
      if (stage !== RESOLVED_HEAD_EVENT.stage) return pass;
      return {
        id: pass.id,
        complete: (outcome, tokens) => pass.complete(outcome, tokens),
        event(event) {
          pass.event(event);
          if (event.name !== RESOLVED_HEAD_EVENT.name) return;
          const body = event.body as { targetBranch?: unknown; baseSha?: unknown } | undefined;
          if (typeof body?.targetBranch === 'string' && typeof body.baseSha === 'string' && body.baseSha) {
            seen = { branchName: body.targetBranch, headSha: body.baseSha };
          }
        },
      };
    },
  };
  return {
    protocol: observed,
    async report() {
      if (!seen || !deps.knowledgeHeadSeen) return;
      await deps
        .knowledgeHeadSeen({ clientId: job.clientId, repositoryId: job.repository.externalRepositoryId, ...seen })
        .catch(() => undefined);
    },
  };
}
