export type { BlockedPullRequestRecord, BlockedPullRequestsRepository } from './block-record.js';
export {
  COMMIT_STATUS_EVENT,
  COMMIT_STATUS_NAME,
  DEFAULT_PROVIDER_STATUS,
  findingCounts,
  jobPageUrl,
  type ProviderStatusSettings,
} from './commit-status.js';
export type { DismissalRecord, DismissalsRepository } from './dismissal-record.js';
export {
  FINDING_STATES,
  type FindingState,
  type ReviewFindingsRepository,
  type StoredFindingFilter,
  type StoredFindingRecord,
} from './finding-record.js';
export { pullRequestKey, revisionKey } from './job-keys.js';
export * from './job-record.js';
export { RAN_ITS_COURSE, RESTARTABLE, STOPPABLE } from './job-state.js';
export { JobStatusCache } from './job-status-cache.js';
export { type JobStatusBody, type JobSummaryBody, jobStatusView, jobSummaryView } from './job-view.js';
export * from './memory-record.js';
export * from './protocol-record.js';
export { createProtocolWriter } from './protocol-writer.js';
export type { PublicationPatch, PublicationRecord, ReviewPublicationsRepository } from './publication-record.js';
export type {
  JobOrigin,
  JobOrigins,
  KnowledgeHeadSeen,
  ReviewingDeps,
  ReviewingRepositories,
  SubmitDeps,
} from './reviewing-deps.js';
export {
  BlockInput,
  BlockList,
  BlockView,
  DismissalList,
  DismissalView,
  DismissInput,
  FindingListQuery,
  JobAccepted,
  JobList,
  JobListQuery,
  JobMoved,
  JobStatusView,
  JobSummaryView,
  MemoryList,
  MemoryListQuery,
  MemoryView,
  ProtocolPassView,
  ProtocolQuery,
  ProtocolView,
  PullRequestFindingsQuery,
  PullRequestFindingsView,
  StoredFindingList,
  StoredFindingView,
  SubmitJobInput,
  Unblocked,
  UnblockInput,
} from './schemas.js';
export {
  announceQueued,
  ONE_AT_A_TIME,
  type Refusal,
  type ReviewRequest,
  refusalError,
  requestReview,
  type SubmissionResult,
} from './submit-job.js';
export {
  createReviewingUseCases,
  createWorkerUseCases,
  type JobRun,
  type ProtocolPage,
  type ReviewingUseCases,
  type WorkerUseCases,
} from './use-cases.js';
export { type ExecutionOutcome, MAX_RECLAIMS, NO_ENGINE } from './worker.js';
