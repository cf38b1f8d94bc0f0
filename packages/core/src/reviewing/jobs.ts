import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { isCapabilityAvailable } from '../licensing/index.js';
import type { ReviewJobRecord } from './job-record.js';
import { RESTARTABLE, STOPPABLE } from './job-state.js';
import { jobStatusView, jobSummaryView } from './job-view.js';
import type { ReviewingDeps } from './reviewing-deps.js';
import { JobListQuery, ProtocolQuery } from './schemas.js';
import { activationLock, clashingJob, ONE_AT_A_TIME } from './submit-job.js';

const jobNotFound = () => MarginError.notFound('Job not found.');

/** The job and the client it belongs to, checked for the action (404 for jobs of clients the caller cannot see). */
async function requireJob(
  deps: ReviewingDeps,
  actor: Actor,
  action: 'reviewing.read' | 'reviewing.restart' | 'reviewing.stop',
  jobId: string,
): Promise<ReviewJobRecord> {
  // Status reads may come from the short-lived cache; moves read the database itself.
  const job =
    action === 'reviewing.read' ? await deps.jobStatusCache.get(jobId) : await deps.storage.reviewJobs.findById(jobId);
  if (!job) throw jobNotFound();
  try {
    await deps.authz.requireClient(actor, action, job.clientId);
  } catch (error) {
    if (MarginError.isInstance(error) && error.code === 'not_found') throw jobNotFound();
    throw error;
  }
  return job;
}

export async function getJobStatus(deps: ReviewingDeps, actor: Actor, jobId: string) {
  return sharedStatusView(await requireJob(deps, actor, 'reviewing.read', jobId));
}

/**
 * Status reads are the hot path, and the record comes from a short-lived cache: while the same
 * record is served, so is one deeply frozen view of it, which hosts may serialize once (frozen
 * bodies are safe to memoize).
 */
const statusViews = new WeakMap<ReviewJobRecord, Readonly<ReturnType<typeof jobStatusView>>>();
function sharedStatusView(job: ReviewJobRecord) {
  let view = statusViews.get(job);
  if (!view) {
    view = deepFreeze(structuredClone(jobStatusView(job)));
    statusViews.set(job, view);
  }
  return view;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export async function listJobs(deps: ReviewingDeps, actor: Actor, clientId: string, query: unknown) {
  const { limit, cursor, ...filter } = JobListQuery.parse(query);
  await deps.authz.requireClient(actor, 'reviewing.read', clientId);
  const page = await deps.storage.reviewJobs.list(clientId, filter, { limit, cursor });
  return { items: page.items.map(jobSummaryView), nextCursor: page.nextCursor };
}

/**
 * A failed (or budget-held) job goes back to the queue as the same job with the next attempt.
 * Failed reviews never continue by themselves; this is the explicit way.
 */
export async function restartJob(deps: ReviewingDeps, actor: Actor, jobId: string) {
  const job = await requireJob(deps, actor, 'reviewing.restart', jobId);
  if (!RESTARTABLE.includes(job.status)) {
    throw MarginError.conflict(
      `A ${job.status} job cannot be restarted; only failed ones and those a spend cap held or stopped can.`,
      {
        jobId,
        status: job.status,
      },
    );
  }
  const block = await deps.storage.blockedPullRequests.find(
    job.clientId,
    job.repository.externalRepositoryId,
    job.codeReview.number,
  );
  if (block) throw MarginError.conflict(`This pull request is blocked: ${block.reason}`, { reason: 'blocked' });
  const parallel = await isCapabilityAvailable(deps, 'parallel-review-execution');
  const now = deps.clock.now().toISOString();
  const moved = await deps.storage.transaction(
    async (tx) => {
      if (!parallel && (await tx.reviewJobs.countActive()) > 0)
        throw MarginError.licenseRequired('parallel-review-execution', ONE_AT_A_TIME);
      const active = await clashingJob(tx, job.pullRequestKey, job.revisionKey, job.reviewRevision, false);
      if (active)
        throw MarginError.conflict('A review of this revision is already queued or running.', { jobId: active.id });
      return tx.reviewJobs.transition(jobId, RESTARTABLE, 'queued', {
        attempt: job.attempt + 1,
        trigger: 'restart',
        error: null,
        startedAt: null,
        completedAt: null,
        reclaimCount: 0,
        updatedAt: now,
      });
    },
    { lock: activationLock(job.pullRequestKey, parallel) },
  );
  deps.jobStatusCache.forget(jobId);
  if (!moved) throw MarginError.conflict('The job changed meanwhile; read its status and try again.', { jobId });
  deps.events.emit('job.queued', { jobId, clientId: job.clientId, trigger: 'restart' });
  return { jobId, status: moved.status, attempt: moved.attempt };
}

/** Stops a queued or running job for good; a running review notices at its next heartbeat. */
export async function stopJob(deps: ReviewingDeps, actor: Actor, jobId: string) {
  const job = await requireJob(deps, actor, 'reviewing.stop', jobId);
  const now = deps.clock.now().toISOString();
  const moved = await deps.storage.reviewJobs.transition(jobId, STOPPABLE, 'stopped', {
    completedAt: now,
    updatedAt: now,
  });
  deps.jobStatusCache.forget(jobId);
  if (!moved) {
    const current = (await deps.storage.reviewJobs.findById(jobId))?.status ?? job.status;
    throw MarginError.conflict(`A ${current} job cannot be stopped; only queued or running ones can.`, {
      jobId,
      status: current,
    });
  }
  deps.events.emit('job.stopped', { jobId, clientId: job.clientId });
  return { jobId, status: moved.status, attempt: moved.attempt };
}

/** A page of the job's protocol passes with their events; `nextCursor` continues it. */
export async function readProtocol(deps: ReviewingDeps, actor: Actor, jobId: string, query: unknown) {
  const { includeEvents, eventCategory, limit, cursor } = ProtocolQuery.parse(query);
  await requireJob(deps, actor, 'reviewing.read', jobId);
  return deps.storage.protocol.read(jobId, { includeBodies: includeEvents, eventCategory, page: { limit, cursor } });
}
