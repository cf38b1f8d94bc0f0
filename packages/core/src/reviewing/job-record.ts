import type { Page, PageRequest } from '../kernel/index.js';
import type { JobUsage } from '../review-engine/index.js';
import type { ProviderFamily } from '../scm-provider/index.js';

export const JOB_STATUSES = [
  'queued',
  'running',
  'completed',
  'failed',
  'stopped',
  'superseded',
  'cancelled',
  'budgetHeld',
  'budgetExceeded',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Jobs that hold their revision: at most one per revision, and what Community counts. */
export const ACTIVE_STATUSES = ['queued', 'running'] as const satisfies readonly JobStatus[];

/** Why a job whose lease kept running out was failed rather than queued again. */
export const RECLAIM_EXHAUSTED =
  'The review lost its worker too many times (the host stopped or stalled); restart it to try again.';

export const JOB_TRIGGERS = ['api', 'byCoordinates', 'webhook', 'crawl', 'restart'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];

export interface JobRepository {
  externalRepositoryId: string;
  ownerOrNamespace: string;
  projectPath: string;
}

export interface JobCodeReview {
  platform: 'pullRequest' | 'mergeRequest';
  externalReviewId: string;
  number: number;
}

export interface JobRevision {
  headSha: string;
  baseSha: string;
  providerRevisionId?: string | undefined;
}

/** What a trigger configuration snapshots onto the jobs it queues. */
export interface JobOptions {
  reviewTemperature?: number | undefined;
  knowledgeSourceScopeMode?: string | undefined;
  knowledgeSourceIds?: string[] | undefined;
  /** The crawl or webhook configuration that queued the job. */
  configurationId?: string | undefined;
  /** Where the pull request lives, for by-coordinates and trigger jobs. */
  providerScopePath?: string | undefined;
  providerProjectKey?: string | undefined;
}

export interface ReviewJobRecord {
  id: string;
  clientId: string;
  status: JobStatus;
  trigger: JobTrigger;
  provider: ProviderFamily;
  hostBaseUrl: string;
  repository: JobRepository;
  codeReview: JobCodeReview;
  reviewRevision: JobRevision | null;
  /** Identifies the pull request: provider, host, repository and number. */
  pullRequestKey: string;
  /** The pull request key plus the revision (or `*` when none was given): one active job per key. */
  revisionKey: string;
  options: JobOptions;
  attempt: number;
  submittedByUserId: string | null;
  submittedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  updatedAt: string;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  /** Times a lease ran out and the job went back to the queue, this attempt. */
  reclaimCount: number;
  progress: { filesTotal: number; filesDone: number };
  result: unknown | null;
  usage: JobUsage | null;
  error: string | null;
}

export interface JobListFilter {
  status?: JobStatus | undefined;
  repositoryId?: string | undefined;
  pullRequestId?: number | undefined;
}

export interface ClaimRequest {
  /** Identifies the claiming worker, e.g. `host:pid`. */
  owner: string;
  limit: number;
  leaseMs: number;
  now: string;
  /**
   * One review at a time installation-wide (no `parallel-review-execution`): claims nothing while any
   * job runs, and the database refuses a second concurrent claim.
   */
  exclusive: boolean;
}

export interface FinishRequest {
  status: Extract<JobStatus, 'completed' | 'failed' | 'cancelled' | 'superseded' | 'budgetHeld' | 'budgetExceeded'>;
  at: string;
  result?: unknown;
  usage?: JobUsage | null | undefined;
  error?: string | null | undefined;
  /** The last progress reported, so a job that ends between two heartbeats shows where it got to. */
  progress?: ReviewJobRecord['progress'] | undefined;
}

export interface ReclaimOutcome {
  requeued: string[];
  failed: string[];
  /** Every lease taken back, requeued and failed alike, as it was when it ran out. */
  lost: LostLease[];
}

/** A lease that ran out and was taken back from the worker holding it. */
export interface LostLease {
  jobId: string;
  /** The attempt that ran under the lease; a requeued job goes on with the same attempt. */
  attempt: number;
  /** The worker that held the lease and lost it. */
  owner: string;
  /** When the lease ran out. */
  expiredAt: string;
  /** Which time the job's lease was taken back: 1 the first time. */
  reclaim: number;
  outcome: 'requeued' | 'failed';
}

export interface ReviewJobsRepository {
  /** Throws `conflict` when an active job already holds the revision key. */
  insert(job: ReviewJobRecord): Promise<void>;
  findById(id: string): Promise<ReviewJobRecord | undefined>;
  findActiveByRevisionKey(revisionKey: string): Promise<ReviewJobRecord | undefined>;
  findActiveByPullRequestKey(pullRequestKey: string): Promise<ReviewJobRecord[]>;
  /** Running jobs and queued jobs of active clients, installation-wide (what holds the one-at-a-time slot). */
  countActive(): Promise<number>;
  /** The pull request's most recently completed job: what an incremental review builds on. */
  findLastCompleted(pullRequestKey: string): Promise<ReviewJobRecord | undefined>;
  /** Whether a job of this revision ever ended in a `RAN_ITS_COURSE` status (automatic triggers skip those). */
  hasFinishedRevision(revisionKey: string): Promise<boolean>;
  /** Newest first. */
  list(clientId: string, filter: JobListFilter, page: PageRequest): Promise<Page<ReviewJobRecord>>;
  /**
   * Moves a job from one of `from` to `to` with the extra fields, atomically; undefined when the job
   * is not in one of `from` (someone else moved it first).
   */
  transition(
    id: string,
    from: readonly JobStatus[],
    to: JobStatus,
    patch: Partial<
      Pick<
        ReviewJobRecord,
        'attempt' | 'trigger' | 'error' | 'completedAt' | 'startedAt' | 'updatedAt' | 'reclaimCount'
      >
    >,
  ): Promise<ReviewJobRecord | undefined>;
  /** Takes up to `limit` queued jobs of active clients, oldest first, and leases them to `owner`. */
  claimNext(request: ClaimRequest): Promise<ReviewJobRecord[]>;
  /** Extends the lease; false when the job is no longer this owner's running job (stopped, superseded, lost). */
  renewLease(
    id: string,
    owner: string,
    leaseExpiresAt: string,
    progress?: ReviewJobRecord['progress'],
  ): Promise<boolean>;
  /** Records the end of a run; false when the job is no longer this owner's running job. */
  finish(id: string, owner: string, finish: FinishRequest): Promise<boolean>;
  /** Gives a running job back to the queue (graceful shutdown); false when it was not this owner's. */
  release(id: string, owner: string, at: string): Promise<boolean>;
  /**
   * Running jobs whose lease ran out go back to the queue; a job that already went back
   * `maxReclaims` times fails instead. Each job is taken back once, however many hosts ask at once.
   */
  reclaimExpired(now: string, maxReclaims: number): Promise<ReclaimOutcome>;
}
