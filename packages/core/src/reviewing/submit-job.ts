import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { isCapabilityAvailable } from '../licensing/index.js';
import { requestedScmFamily } from '../provider-registry/index.js';
import { RESOLVED_HEAD_EVENT } from '../review-engine/index.js';
import type { ProviderFamily } from '../scm-provider/index.js';
import { pullRequestKey, revisionKey } from './job-keys.js';
import type {
  JobCodeReview,
  JobOptions,
  JobRepository,
  JobRevision,
  JobTrigger,
  ReviewJobRecord,
} from './job-record.js';
import { SUPERSEDABLE } from './job-state.js';
import type { ReviewingDeps, ReviewingRepositories, SubmitDeps } from './reviewing-deps.js';
import { SubmitJobInput } from './schemas.js';

export interface ReviewRequest {
  clientId: string;
  trigger: JobTrigger;
  submittedByUserId: string | null;
  provider: ProviderFamily;
  hostBaseUrl: string;
  repository: JobRepository;
  codeReview: JobCodeReview;
  reviewRevision: JobRevision | null;
  options?: JobOptions | undefined;
}

/** Why a request queued nothing, for the triggers that must answer with a named outcome. */
export type Refusal =
  | { refused: 'duplicateActiveJob'; jobId: string }
  | { refused: 'blocked'; reason: string }
  | { refused: 'alreadyReviewed' }
  | { refused: 'oneAtATime'; message: string };

export type SubmissionResult = { queued: ReviewJobRecord; superseded: string[] } | Refusal;

const EXPLICIT: readonly JobTrigger[] = ['api', 'byCoordinates'];

/**
 * The one way a review job comes to exist, whatever triggered it:
 * - a blocked pull request gets no job;
 * - a revision with an active job gets no second one (the database enforces it across hosts);
 * - automatic triggers (webhook, crawl) never re-review a revision that completed or failed, or that a
 *   spend cap held or stopped;
 * - an explicit request for a newer revision retires the pull request's older active job as superseded;
 * - without `parallel-review-execution`, nothing is queued while another review is queued or running.
 */
export async function requestReview(deps: SubmitDeps, request: ReviewRequest): Promise<SubmissionResult> {
  const prKey = pullRequestKey(
    request.clientId,
    request.provider,
    request.hostBaseUrl,
    request.repository,
    request.codeReview,
  );
  const revKey = revisionKey(prKey, request.reviewRevision);
  const explicit = EXPLICIT.includes(request.trigger);

  const block = await deps.storage.blockedPullRequests.find(
    request.clientId,
    request.repository.externalRepositoryId,
    request.codeReview.number,
  );
  if (block) return { refused: 'blocked', reason: block.reason };
  if (!explicit && (await deps.storage.reviewJobs.hasFinishedRevision(revKey))) return { refused: 'alreadyReviewed' };
  const parallel = await isCapabilityAvailable(deps, 'parallel-review-execution');

  const now = deps.clock.now().toISOString();
  const job: ReviewJobRecord = {
    id: deps.ids.uuid(),
    clientId: request.clientId,
    status: 'queued',
    trigger: request.trigger,
    provider: request.provider,
    hostBaseUrl: request.hostBaseUrl,
    repository: request.repository,
    codeReview: request.codeReview,
    reviewRevision: request.reviewRevision,
    pullRequestKey: prKey,
    revisionKey: revKey,
    options: request.options ?? {},
    attempt: 1,
    submittedByUserId: request.submittedByUserId,
    submittedAt: now,
    startedAt: null,
    completedAt: null,
    updatedAt: now,
    leaseOwner: null,
    leaseExpiresAt: null,
    reclaimCount: 0,
    progress: { filesTotal: 0, filesDone: 0 },
    result: null,
    usage: null,
    error: null,
  };

  try {
    const result = await deps.storage.transaction(
      async (tx) => {
        // Only an explicit request that names a revision is known to be newer than what is active.
        const supersedes = explicit && request.reviewRevision !== null;
        const clash = await clashingJob(tx, prKey, revKey, request.reviewRevision, supersedes);
        if (clash) return { refused: 'duplicateActiveJob', jobId: clash.id } as const;
        const superseded: string[] = [];
        if (supersedes && request.reviewRevision) {
          const active = await tx.reviewJobs.findActiveByPullRequestKey(prKey);
          const already = await reviewingHead(tx, active, request.reviewRevision.headSha);
          if (already) return { refused: 'duplicateActiveJob', jobId: already.id } as const;
          for (const older of active) {
            const moved = await tx.reviewJobs.transition(older.id, SUPERSEDABLE, 'superseded', {
              completedAt: now,
              updatedAt: now,
            });
            if (moved) superseded.push(older.id);
          }
        }
        // Thrown, not returned: the supersessions above must roll back with the refusal.
        if (!parallel && (await tx.reviewJobs.countActive()) > 0)
          throw new RefusedInTransaction({ refused: 'oneAtATime', message: ONE_AT_A_TIME });
        await tx.reviewJobs.insert(job);
        return { queued: job, superseded };
      },
      { lock: activationLock(prKey, parallel) },
    );
    if ('queued' in result && result.queued) deps.jobStatusCache.forget(job.id, ...result.superseded);
    return result;
  } catch (error) {
    if (error instanceof RefusedInTransaction) return error.refusal;
    // Another host inserted the same revision a moment earlier.
    if (MarginError.isInstance(error) && error.code === 'conflict') {
      const active = await deps.storage.reviewJobs.findActiveByRevisionKey(revKey);
      if (active) return { refused: 'duplicateActiveJob', jobId: active.id };
    }
    throw error;
  }
}

/**
 * The lock of a transaction that may make a job active. What it decides on is the pull request's
 * active jobs (duplicates, supersession), so submissions for different pull requests pass each
 * other; one review at a time decides on every active job, so then all of them take one lock.
 */
export function activationLock(pullRequestKey: string, parallel: boolean): string {
  return parallel ? `review-jobs:${pullRequestKey}` : 'review-jobs:one-at-a-time';
}

/**
 * The active job a review would run beside, reviewing the same commits: one of the same revision,
 * or — since a review without a revision reads the pull request's head when it runs — any active
 * job of the pull request for a review without one, and an active revision-less job for a review of
 * a named revision, unless that review retires the pull request's other jobs (`supersedes`).
 */
export async function clashingJob(
  tx: ReviewingRepositories,
  prKey: string,
  revKey: string,
  revision: JobRevision | null,
  supersedes: boolean,
): Promise<ReviewJobRecord | undefined> {
  const same = await tx.reviewJobs.findActiveByRevisionKey(revKey);
  if (same || supersedes) return same;
  const others = await tx.reviewJobs.findActiveByPullRequestKey(prKey);
  return revision ? others.find((j) => j.reviewRevision === null) : others[0];
}

/**
 * A running review without a revision that is already reviewing this head: it read the pull request
 * when its attempt started and recorded the head (`RESOLVED_HEAD_EVENT`), so retiring it for a
 * submission naming that head would only review the same commits again. Queued ones have read
 * nothing yet and are retired as before; so is a running one whose head is not recorded yet.
 */
async function reviewingHead(
  tx: ReviewingRepositories,
  active: readonly ReviewJobRecord[],
  headSha: string,
): Promise<ReviewJobRecord | undefined> {
  for (const job of active) {
    if (job.reviewRevision !== null || job.status !== 'running') continue;
    const head = await resolvedHead(tx, job);
    if (head?.toLowerCase() === headSha.toLowerCase()) return job;
  }
  return undefined;
}

/** The head the job's current attempt recorded, if it got that far. Earlier attempts' passes come first. */
async function resolvedHead(tx: ReviewingRepositories, job: ReviewJobRecord): Promise<string | undefined> {
  let cursor: string | undefined;
  do {
    const page = await tx.protocol.read(job.id, {
      eventCategory: RESOLVED_HEAD_EVENT.eventCategory,
      includeBodies: true,
      page: { limit: 100, cursor },
    });
    for (const pass of page.items) {
      if (pass.attempt !== job.attempt || pass.stage !== RESOLVED_HEAD_EVENT.stage) continue;
      const event = pass.events.find((e) => e.name === RESOLVED_HEAD_EVENT.name);
      const head = (event?.body as { headSha?: unknown } | null | undefined)?.headSha;
      return typeof head === 'string' ? head : undefined;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return undefined;
}

class RefusedInTransaction extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.refused);
  }
}

export const ONE_AT_A_TIME =
  'Another review is queued or running. Running more than one review at a time needs a Commercial license (parallel-review-execution).';

/** Turns a refusal into the error an API caller gets. */
export function refusalError(refusal: Refusal): MarginError {
  switch (refusal.refused) {
    case 'duplicateActiveJob':
      return MarginError.conflict('A review of this revision is already queued or running.', { jobId: refusal.jobId });
    case 'blocked':
      return MarginError.conflict(`This pull request is blocked: ${refusal.reason}`, { reason: 'blocked' });
    case 'alreadyReviewed':
      return MarginError.conflict('This revision was already reviewed.');
    case 'oneAtATime':
      return MarginError.licenseRequired('parallel-review-execution', refusal.message);
  }
}

/** `POST /clients/{clientId}/reviewing/jobs`: an explicit submission (ClientAdministrator). */
export async function submitJob(deps: ReviewingDeps, actor: Actor, clientId: string, input: unknown) {
  const req = SubmitJobInput.parse(input);
  requestedScmFamily(deps.providers, req.provider, 'provider');
  await deps.authz.requireClient(actor, 'reviewing.submit', clientId);
  const result = await requestReview(deps, {
    clientId,
    trigger: 'api',
    submittedByUserId: actor.userId,
    provider: req.provider,
    hostBaseUrl: req.hostBaseUrl,
    repository: req.repository,
    codeReview: req.codeReview,
    reviewRevision: req.reviewRevision ?? null,
  });
  if ('refused' in result) throw refusalError(result);
  announceQueued(deps, result.queued);
  return {
    jobId: result.queued.id,
    status: 'queued' as const,
    attempt: result.queued.attempt,
    submittedAt: result.queued.submittedAt,
  };
}

export function announceQueued(deps: Pick<SubmitDeps, 'events'>, job: ReviewJobRecord): void {
  deps.events.emit('job.queued', { jobId: job.id, clientId: job.clientId, trigger: job.trigger });
}
