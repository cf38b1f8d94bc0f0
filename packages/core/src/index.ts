/**
 * `@margin/core`: what a host or an embedding application uses — the core and the runtime, errors,
 * events, the review engine and reviews without a server, and the views they answer with. Ports and
 * their records are in `@margin/core/spec`, the API's zod models in `@margin/core/schemas`, the
 * in-memory storage in `@margin/core/memory`, contract suites in `@margin/core/testing`.
 */

export { type BoundModelTraits, bindReviewModel, type ModelBinding, type ModelBindingInput } from './ai/index.js';
export { createMarginCore, type MarginCore, type MarginCoreOptions } from './core.js';
export {
  type BootstrapAdminResult,
  type SessionTokens,
  SSO_ERROR_CODES,
  type SsoClientConfig,
  type SsoErrorCode,
  type VerifiedSsoClaims,
} from './identity/index.js';
export type { Actor, ClientRole, TenantRole } from './kernel/index.js';
export {
  createAesGcmSecretBox,
  createEventBus,
  ERROR_STATUS,
  type ErrorCode,
  type EventBus,
  fromZodError,
  MAX_VALIDATION_DETAILS,
  MarginError,
  type MarginEventName,
  type MarginEvents,
  type ProviderFailure,
  toMarginError,
  type ValidationIssue,
} from './kernel/index.js';
export type { CoverageFile, CoverageManifest, CoverageState } from './review-engine/index.js';
export {
  createMemoryLedger,
  createMemoryProtocol,
  createReviewEngine,
  type DiffSourceInput,
  diffReviewSource,
  FINDING_CATEGORIES,
  type FindingView,
  findingView,
  type OpenedPullRequest,
  openPullRequestByUrl,
  type PullRequestUrl,
  parsePullRequestUrl,
  providerMarkerMemory,
  publishReview,
  type ReviewDiffInput,
  type ReviewEngineOptions,
  type ReviewModelTraits,
  type ReviewProtocol,
  type ReviewPullRequestInput,
  type ReviewResultView,
  resolvePullRequestRef,
  resultView,
  reviewDiff,
  reviewModelsOf,
  reviewPullRequest,
  runReview,
  SEVERITIES,
  type Severity,
  type StandaloneReview,
  splitUnifiedDiff,
  type UnifiedDiffFile,
  VERIFY_SYSTEM_PROMPT,
} from './review-engine/index.js';
export {
  type BackgroundSettings,
  type BackgroundSettingsInput,
  type BackgroundWork,
  type CrawlerSettings,
  CrawlScheduler,
  type CrawlSchedulerOptions,
  consoleLogger,
  createBackgroundWork,
  createHealth,
  createMarginService,
  DEFAULT_BACKGROUND_SETTINGS,
  type DeliveryProcessorOptions,
  type DeliverySettings,
  type HealthContributor,
  type HealthReport,
  type MarginLogger,
  type MarginService,
  type MarginServiceOptions,
  Poller,
  type PollerOptions,
  ReviewWorker,
  type ReviewWorkerOptions,
  resolveBackgroundSettings,
  silentLogger,
  WebhookDeliveryProcessor,
  type WorkerSettings,
} from './runtime/index.js';
export type { ListenerBase } from './triggers/index.js';
