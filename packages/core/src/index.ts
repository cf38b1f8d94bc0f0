/**
 * `@margin/core`: what a host or an embedding application uses — the core and the runtime, errors,
 * events, the review engine and reviews without a server, and the views they answer with. Ports and
 * their records are in `@margin/core/spec`, the API's zod models in `@margin/core/schemas`, the
 * in-memory storage in `@margin/core/memory`, contract suites in `@margin/core/testing`.
 */
export { createMarginCore, type MarginCore, type MarginCoreOptions } from './core.js';
export {
  ERROR_STATUS,
  type ErrorCode,
  fromZodError,
  MarginError,
  type ProviderFailure,
  toMarginError,
  type ValidationIssue,
} from './errors.js';
export { createEventBus, type EventBus, type MarginEventName, type MarginEvents } from './events.js';
export type { Actor } from './identity/actor.js';
export type { BootstrapAdminResult } from './identity/bootstrap-admin.js';
export { verifyPassword } from './identity/passwords.js';
export type { ClientRole, TenantRole } from './identity/roles.js';
export type { SessionTokens } from './identity/sessions.js';
export { createAesGcmSecretBox } from './platform/secret-box.js';
export type { CoverageFile, CoverageManifest, CoverageState } from './review-engine/coverage.js';
export { createReviewEngine, type ReviewEngineOptions } from './review-engine/engine.js';
export { createMemoryLedger } from './review-engine/memory/review-memory.js';
export { FINDING_CATEGORIES, SEVERITIES, type Severity } from './review-engine/output/review-answer.js';
export { publishReview } from './review-engine/pipeline/publish-review.js';
export { runReview } from './review-engine/pipeline/run-review.js';
export { VERIFY_SYSTEM_PROMPT } from './review-engine/prompt/review-prompt.js';
export { type FindingView, findingView, type ReviewResultView, resultView } from './review-engine/result-view.js';
export { type DiffSourceInput, diffReviewSource } from './review-engine/standalone/diff-review-source.js';
export { createMemoryProtocol, type ReviewProtocol } from './review-engine/standalone/memory-protocol.js';
export {
  bindReviewModel,
  type ModelBinding,
  type ModelBindingInput,
} from './review-engine/standalone/model-binding.js';
export { providerMarkerMemory } from './review-engine/standalone/provider-marker-memory.js';
export {
  type OpenedPullRequest,
  openPullRequestByUrl,
  type PullRequestUrl,
  parsePullRequestUrl,
  resolvePullRequestRef,
} from './review-engine/standalone/pull-request-url.js';
export { type ReviewModelTraits, reviewModelsOf } from './review-engine/standalone/review-models.js';
export {
  type ReviewDiffInput,
  type ReviewPullRequestInput,
  reviewDiff,
  reviewPullRequest,
  type StandaloneReview,
} from './review-engine/standalone/review-pull-request.js';
export { splitUnifiedDiff, type UnifiedDiffFile } from './review-engine/standalone/unified-diff-files.js';
export { NO_ENGINE } from './reviewing/worker.js';
export { type BackgroundWork, createBackgroundWork } from './runtime/background-work.js';
export { createHealth, type HealthContributor, type HealthReport } from './runtime/health.js';
export { consoleLogger, type MarginLogger, silentLogger } from './runtime/logger.js';
export { Poller, type PollerOptions } from './runtime/poller.js';
export { ReviewWorker, type ReviewWorkerOptions } from './runtime/review-worker.js';
export { createMarginService, type MarginService, type MarginServiceOptions } from './runtime/service.js';
export {
  type BackgroundSettings,
  type BackgroundSettingsInput,
  type CrawlerSettings,
  DEFAULT_BACKGROUND_SETTINGS,
  type DeliverySettings,
  resolveBackgroundSettings,
  type WorkerSettings,
} from './runtime/settings.js';
export {
  CrawlScheduler,
  type CrawlSchedulerOptions,
  type DeliveryProcessorOptions,
  WebhookDeliveryProcessor,
} from './runtime/trigger-workers.js';
export type { ListenerBase } from './triggers/webhook-configurations.js';
