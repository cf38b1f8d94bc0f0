/**
 * `@margin/core/spec`: the versioned ports adapters implement (storage, source control, AI, the
 * review engine, secrets, clock, ids) with their records, and the helpers adapters share with core.
 */

/**
 * The zod core checks an AI kind's `settings` schema with: adapters build the schema with it, so
 * it is the copy core reads (`z.object({ region: z.string().regex(...).optional() })`).
 */
export { z } from 'zod';
export {
  type AiAuth,
  type AiChatRequest,
  type AiChatResult,
  type AiConnectionConfig,
  type AiConnectionProfile,
  type AiDiscoveryResult,
  type AiEmbeddingResult,
  type AiFailureCategory,
  type AiFinishReason,
  type AiKindSettings,
  type AiMessage,
  type AiModelSpec,
  type AiModelV1,
  type AiProbeResult,
  type AiProtocolV1,
  type AiProviderKind,
  type AiProviderKindV1,
  type AiResponseFormat,
  type AiSettingsSchemaV1,
  type AiToolCall,
  type AiToolChoice,
  type AiToolDefinition,
  type AiUsage,
  BUILT_IN_AI_PROVIDER_KINDS,
  BUILT_IN_PROTOCOL_MODES,
  type BuiltInAiProviderKind,
  type BuiltInProtocolMode,
  type DiscoveredModel,
  type KnownModelV1,
  type ProtocolMode,
  REASONING_EFFORTS,
  type ReasoningEffort,
  type TokenCount,
  type WireProtocolMode,
} from './ai/ai-model-v1.js';
export {
  AI_FAILURE_CATEGORIES,
  type AiAuthMode,
  type AiConnectionRecord,
  type AiConnectionsRepository,
  type AiLogicalModelsRepository,
  type AiModelCatalogRepository,
  AUTH_MODES,
  type CatalogModelRecord,
  type ConfiguredModelRecord,
  DISCOVERY_MODES,
  type DiscoveryMode,
  type LogicalModelOwnerKind,
  type LogicalModelRecord,
  MODEL_SOURCES,
  type ModelSource,
  type ModelTraits,
  type PriceOverrideRecord,
  type PurposeBindingRecord,
  type PurposeMappingRecord,
  type VerificationRecord,
} from './ai/ai-records.js';
export { failureCategoryOf, failureSummaryOf } from './ai/failure-category.js';
export { aiConnectionConfigOf } from './ai/kind-settings.js';
export { modesOf, operationOf } from './ai/profile-rules.js';
export {
  AI_PURPOSES,
  type AiPurpose,
  capabilityForPurpose,
  isAiPurpose,
  OPERATION_KINDS,
  type OperationKind,
} from './ai/purposes.js';
export {
  type AddressClass,
  classifyAddress,
  isMetadataHostName,
  refusedAddressClass,
} from './egress/address-policy.js';
export { type EgressRefusal, egressRefusalOf } from './egress/url-policy.js';
export type { ClientMemberRecord, MembershipsRepository, TenantMemberRecord } from './identity/membership-record.js';
export type { PersonalAccessTokenRecord, PersonalAccessTokensRepository } from './identity/pat-record.js';
export type { RefreshTokenRecord, RefreshTokensRepository } from './identity/session-record.js';
export type { SignInFailureRecord, SignInFailuresRepository } from './identity/sign-in-failure-record.js';
export {
  GLOBAL_ROLES,
  type GlobalRole,
  type UserPatch,
  type UserRecord,
  type UsersRepository,
} from './identity/user-record.js';
export {
  KNOWLEDGE_SOURCE_KINDS,
  type KnowledgeSourceKind,
  type KnowledgeSourceRecord,
  type KnowledgeSourcesRepository,
  REFRESH_TRIGGER_MODES,
  SYMBOL_MODES,
  type TrackedBranch,
} from './knowledge/knowledge-records.js';
export { type Clock, systemClock } from './platform/clock.js';
export { type Ids, randomIds } from './platform/ids.js';
export { type SealedField, type SecretBox, sealedSecretContext } from './platform/secret-box.js';
export {
  familyOfSegment,
  type ProviderRegistry,
  requestedAiKind,
  requestedScmFamily,
  scmFamily,
} from './providers.js';
export { type ReviewPublisher, type ReviewSource, scmReviewSource } from './review-engine/pipeline/review-source.js';
export type { JobUsage } from './review-engine/protocol/job-usage.js';
export type {
  PassTokens,
  ProtocolEventInput,
  ProtocolPass,
  ProtocolWriter,
} from './review-engine/protocol/protocol-writer.js';
export {
  EVENT_CATEGORIES,
  type EventCategory,
  type PassOutcome,
  RESOLVED_HEAD_EVENT,
} from './review-engine/protocol/vocabulary.js';
export type {
  ReviewContext,
  ReviewEngineV1,
  ReviewJob,
  ReviewModel,
  ReviewModels,
  ReviewOutcome,
  ReviewScm,
} from './review-engine/review-engine-v1.js';
export type { BlockedPullRequestRecord, BlockedPullRequestsRepository } from './reviewing/block-record.js';
export type { DismissalRecord, DismissalsRepository } from './reviewing/dismissal-record.js';
export {
  FINDING_STATES,
  type FindingState,
  type ReviewFindingsRepository,
  type StoredFindingFilter,
  type StoredFindingRecord,
} from './reviewing/finding-record.js';
export {
  ACTIVE_STATUSES,
  type ClaimRequest,
  type FinishRequest,
  JOB_STATUSES,
  JOB_TRIGGERS,
  type JobCodeReview,
  type JobListFilter,
  type JobOptions,
  type JobRepository,
  type JobRevision,
  type JobStatus,
  type JobTrigger,
  RECLAIM_EXHAUSTED,
  type ReclaimOutcome,
  type ReviewJobRecord,
  type ReviewJobsRepository,
} from './reviewing/job-record.js';
/** The statuses `ReviewJobsRepository.hasFinishedRevision` counts. */
export { RAN_ITS_COURSE } from './reviewing/job-state.js';
export type {
  ProtocolEventRecord,
  ProtocolPassRecord,
  ProtocolRepository,
} from './reviewing/protocol-record.js';
export type {
  PublicationPatch,
  PublicationRecord,
  ReviewPublicationsRepository,
} from './reviewing/publication-record.js';
export {
  type ProviderConnectionPatch,
  type ProviderConnectionRecord,
  type ProviderConnectionsRepository,
  type ProviderScopePatch,
  type ProviderScopeRecord,
  type ProviderScopesRepository,
  type ReviewerIdentitiesRepository,
  type ReviewerIdentityRecord,
  SCOPE_TYPES,
  type ScopeType,
} from './scm/connection-records.js';
export { PROVIDER_FAILURES } from './scm/provider-failures.js';
export {
  AUTHENTICATION_KINDS,
  type AuthenticationKind,
  BUILT_IN_PROVIDER_FAMILIES,
  type BuiltInProviderFamily,
  type ChangedFile,
  type ChangeType,
  type CodeReviewPlatform,
  type CommitComparison,
  type CreatedThread,
  type CreateThreadInput,
  type CreateThreadOutcome,
  type EditCommentInput,
  type FileContent,
  type FileDiff,
  type ListChangedFilesOptions,
  type ListingTruncation,
  type NormalizedWebhookEvent,
  type ProviderFamily,
  type PullRequestAddress,
  type PullRequestRef,
  type PullRequestSnapshot,
  type PullRequestStatus,
  type PullRequestSummary,
  type RepositoryRef,
  type ReviewThread,
  type Revision,
  type ScmAccount,
  type ScmCallOptions,
  type ScmConnectionConfig,
  type ScmProject,
  type ScmProviderFamilyV1,
  type ScmProviderV1,
  type ScmPullRequestUrlsV1,
  type ScmRepository,
  type ScmScopeRef,
  type ScmUser,
  type ScmWebhookV1,
  THREAD_MARKER_PATTERN,
  type ThreadAnchor,
  type ThreadClosure,
  type ThreadComment,
  type ThreadStatus,
  WEBHOOK_EVENT_KINDS,
  type WebhookEventKind,
  type WebhookHeaders,
} from './scm/scm-provider-v1.js';
export {
  type CursorPosition,
  decodeCursor,
  encodeCursor,
  type Page,
  type PageRequest,
  toPage,
} from './storage/paging.js';
export type { SettingsRepository } from './storage/settings-repository.js';
export type { Repositories, StorageV1 } from './storage/storage-v1.js';
export {
  type ClientAccess,
  type ClientListFilter,
  type ClientRecord,
  type ClientsRepository,
  SYSTEM_TENANT_ID,
  type TenantRecord,
  type TenantsRepository,
} from './tenancy/tenancy-records.js';
export {
  CRAWL_OUTCOMES,
  type CrawlClaimRequest,
  type CrawlConfigurationPatch,
  type CrawlConfigurationRecord,
  type CrawlConfigurationsRepository,
  type CrawlCounts,
  type CrawlFinish,
  type CrawlOutcome,
  DELIVERY_OUTCOMES,
  type DeliveryClaimRequest,
  type DeliveryOutcome,
  type DeliveryProcessingResult,
  DUPLICATE_DELIVERY,
  duplicateOf,
  KNOWLEDGE_SCOPE_MODES,
  type KnowledgeScopeMode,
  PROCESSING_STATES,
  type ProcessingState,
  type RepoFilter,
  type TriggerConfigurationBase,
  type TriggerListFilter,
  type WebhookConfigurationPatch,
  type WebhookConfigurationRecord,
  type WebhookConfigurationsRepository,
  type WebhookDeliveriesRepository,
  type WebhookDeliveryRecord,
} from './triggers/trigger-records.js';
export { VERIFICATION_STATUSES, type VerificationStatus } from './verification.js';
