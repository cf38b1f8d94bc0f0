import type { Actor, Page } from '../kernel/index.js';
import type { ReviewEngineV1 } from '../review-engine/index.js';
import * as blocks from './blocks-and-dismissals.js';
import * as findings from './findings.js';
import type { ReclaimOutcome, ReviewJobRecord } from './job-record.js';
import type { JobStatusBody, JobSummaryBody } from './job-view.js';
import * as jobs from './jobs.js';
import type { ProtocolEventRecord, ProtocolPassRecord } from './protocol-record.js';
import type { ReviewingDeps } from './reviewing-deps.js';
import type {
  BlockListBody,
  BlockViewBody,
  DismissalListBody,
  DismissalViewBody,
  JobAcceptedBody,
  JobMovedBody,
  MemoryListBody,
  PullRequestFindingsViewBody,
  StoredFindingListBody,
  UnblockedBody,
} from './schemas.js';
import { submitJob } from './submit-job.js';
import * as memory from './thread-memory.js';
import * as worker from './worker.js';

export type ProtocolPage = Page<ProtocolPassRecord & { events: ProtocolEventRecord[] }>;

/** Review jobs and what people decide about pull requests and findings. */
export interface ReviewingUseCases {
  submitReviewJob(actor: Actor, clientId: string, input: unknown): Promise<JobAcceptedBody>;
  getReviewJobStatus(actor: Actor, jobId: string): Promise<JobStatusBody>;
  listReviewJobs(actor: Actor, clientId: string, query: unknown): Promise<Page<JobSummaryBody>>;
  restartReviewJob(actor: Actor, jobId: string): Promise<JobMovedBody>;
  stopReviewJob(actor: Actor, jobId: string): Promise<JobMovedBody>;
  getReviewJobProtocol(actor: Actor, jobId: string, query: unknown): Promise<ProtocolPage>;
  blockPullRequest(actor: Actor, clientId: string, input: unknown): Promise<BlockViewBody>;
  unblockPullRequest(actor: Actor, clientId: string, input: unknown): Promise<UnblockedBody>;
  listBlockedPullRequests(actor: Actor, clientId: string, query: unknown): Promise<BlockListBody>;
  dismissFinding(actor: Actor, clientId: string, input: unknown): Promise<DismissalViewBody>;
  listDismissals(actor: Actor, clientId: string, query: unknown): Promise<DismissalListBody>;
  deleteDismissal(actor: Actor, clientId: string, dismissalId: string): Promise<void>;
  listThreadMemory(actor: Actor, clientId: string, query: unknown): Promise<MemoryListBody>;
  deleteThreadMemory(actor: Actor, clientId: string, memoryId: string): Promise<void>;
  listReviewFindings(actor: Actor, clientId: string, query: unknown): Promise<StoredFindingListBody>;
  getPullRequestFindings(actor: Actor, clientId: string, query: unknown): Promise<PullRequestFindingsViewBody>;
}

export function createReviewingUseCases(deps: ReviewingDeps): ReviewingUseCases {
  return {
    submitReviewJob: (actor, clientId, input) => submitJob(deps, actor, clientId, input),
    getReviewJobStatus: (actor, jobId) => jobs.getJobStatus(deps, actor, jobId),
    listReviewJobs: (actor, clientId, query) => jobs.listJobs(deps, actor, clientId, query),
    restartReviewJob: (actor, jobId) => jobs.restartJob(deps, actor, jobId),
    stopReviewJob: (actor, jobId) => jobs.stopJob(deps, actor, jobId),
    getReviewJobProtocol: (actor, jobId, query) => jobs.readProtocol(deps, actor, jobId, query),
    blockPullRequest: (actor, clientId, input) => blocks.blockPullRequest(deps, actor, clientId, input),
    unblockPullRequest: (actor, clientId, input) => blocks.unblockPullRequest(deps, actor, clientId, input),
    listBlockedPullRequests: (actor, clientId, query) => blocks.listBlockedPullRequests(deps, actor, clientId, query),
    dismissFinding: (actor, clientId, input) => blocks.dismissFinding(deps, actor, clientId, input),
    listDismissals: (actor, clientId, query) => blocks.listDismissals(deps, actor, clientId, query),
    deleteDismissal: (actor, clientId, dismissalId) => blocks.deleteDismissal(deps, actor, clientId, dismissalId),
    listThreadMemory: (actor, clientId, query) => memory.listMemory(deps, actor, clientId, query),
    deleteThreadMemory: (actor, clientId, memoryId) => memory.deleteMemory(deps, actor, clientId, memoryId),
    listReviewFindings: (actor, clientId, query) => findings.listFindings(deps, actor, clientId, query),
    getPullRequestFindings: (actor, clientId, query) => findings.pullRequestFindings(deps, actor, clientId, query),
  };
}

export interface JobRun {
  owner: string;
  signal: AbortSignal;
  onProgress(progress: ReviewJobRecord['progress']): void;
}

/** What a host's review worker calls: claim with a lease, run, heartbeat, reclaim. */
export interface WorkerUseCases {
  /** The configured concurrency, or 1 without `parallel-review-execution`. */
  allowedConcurrency(configured: number): Promise<number>;
  claimJobs(request: { owner: string; capacity: number; leaseMs: number }): Promise<ReviewJobRecord[]>;
  executeJob(job: ReviewJobRecord, run: JobRun): Promise<worker.ExecutionOutcome>;
  renewLease(request: {
    jobId: string;
    owner: string;
    leaseMs: number;
    progress?: ReviewJobRecord['progress'];
  }): Promise<boolean>;
  /** Takes back the leases that ran out, on behalf of the worker `reclaimedBy`. */
  reclaimExpired(reclaimedBy: string): Promise<ReclaimOutcome>;
  releaseJob(jobId: string, owner: string): Promise<boolean>;
}

/** `engine` runs the claimed jobs; without one, they fail with a clear reason. */
export function createWorkerUseCases(deps: ReviewingDeps, engine: ReviewEngineV1 | undefined): WorkerUseCases {
  return {
    allowedConcurrency: (configured) => worker.allowedConcurrency(deps, configured),
    claimJobs: (request) => worker.claimJobs(deps, request),
    executeJob: (job, run) => worker.executeJob(deps, engine, job, run),
    renewLease: (request) => worker.renewJobLease(deps, request),
    reclaimExpired: (reclaimedBy) => worker.reclaimExpiredJobs(deps, reclaimedBy),
    releaseJob: (jobId, owner) => worker.releaseJob(deps, jobId, owner),
  };
}
