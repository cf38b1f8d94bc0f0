import type { AiRepositories, ResolveDeps } from '../ai/index.js';
import type { Clock, EventBus, Ids, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { KnowledgeLookupV1 } from '../review-engine/index.js';
import type { ScmConnectDeps, ScmRepositories } from '../scm/index.js';
import type { SpendRepositories } from '../spend/index.js';
import type { Authorizer, TenancyRepositories } from '../tenancy/index.js';
import type { BlockedPullRequestsRepository } from './block-record.js';
import type { ProviderStatusSettings } from './commit-status.js';
import type { DismissalsRepository } from './dismissal-record.js';
import type { ReviewFindingsRepository } from './finding-record.js';
import type { ReviewJobRecord, ReviewJobsRepository } from './job-record.js';
import type { JobStatusCache } from './job-status-cache.js';
import type { ThreadMemoriesRepository } from './memory-record.js';
import type { ProtocolRepository } from './protocol-record.js';
import type { ReviewPublicationsRepository } from './publication-record.js';

/** Reviewing's part of the storage port: jobs, their protocol, publications and findings, blocks, dismissals. */
export interface ReviewingRepositories {
  reviewJobs: ReviewJobsRepository;
  blockedPullRequests: BlockedPullRequestsRepository;
  dismissals: DismissalsRepository;
  protocol: ProtocolRepository;
  reviewPublications: ReviewPublicationsRepository;
  reviewFindings: ReviewFindingsRepository;
  threadMemories: ThreadMemoriesRepository;
}

/** Where a triggered job's pull request lives: the scope of the trigger configuration that queued it. */
export interface JobOrigin {
  clientId: string;
  organizationScopeId: string;
  providerScopePath: string;
  providerProjectKey: string;
}

/** Finds the configuration that queued a job (triggers keeps them; reviewing only reads where they point). */
export interface JobOrigins {
  find(configurationId: string): Promise<JobOrigin | undefined>;
}

/** What queueing a review needs, whoever asks for it (the API, a webhook, the crawler). */
export interface SubmitDeps {
  storage: StorageSlice<ReviewingRepositories & LicensingRepositories>;
  clock: Clock;
  ids: Ids;
  events: EventBus;
  /** Job records for status reads; every job change made through core forgets the job. */
  jobStatusCache: JobStatusCache;
}

/** What the reviewing use cases and the worker need. */
export interface ReviewingDeps extends SubmitDeps, ScmConnectDeps, ResolveDeps {
  storage: StorageSlice<
    ReviewingRepositories &
      ScmRepositories &
      AiRepositories &
      TenancyRepositories &
      LicensingRepositories &
      SpendRepositories
  >;
  authz: Authorizer;
  origins: JobOrigins;
  /** The review status on the provider (`MARGIN_PROVIDER_STATUS`); on, without a link, when not given. */
  providerStatus?: ProviderStatusSettings | undefined;
  /**
   * Code knowledge for a job, narrowed to its snapshotted scope (`none`, or no `ready` source:
   * `undefined`). Given by code knowledge when the host has it; without it reviews offer no
   * knowledge tools.
   */
  knowledgeForJob?:
    | ((
        job: ReviewJobRecord,
        signal: AbortSignal,
        notes?: { missingSources(sourceIds: string[]): void },
      ) => Promise<KnowledgeLookupV1 | undefined>)
    | undefined;
  /** Code knowledge hears the target branch head a review read (stale indexes, `branchUpdate` refreshes). */
  knowledgeHeadSeen?: KnowledgeHeadSeen | undefined;
}

/** A crawl or a review saw a repository's branch at this head. */
export type KnowledgeHeadSeen = (seen: {
  clientId: string;
  repositoryId: string;
  branchName: string;
  headSha: string;
}) => Promise<unknown>;
