export type { Anchor, AnchorMethod, AnchorScope } from './anchor/anchor.js';
export { isPriced } from './budget/spend-caps.js';
export { parseRepoConfig, REPO_CONFIG_PATH, type RepoConfig } from './config/repo-config.js';
export type { CoverageFile, CoverageManifest, CoverageState } from './coverage.js';
export { createReviewEngine, type ReviewEngineOptions } from './engine.js';
export type { EngineFinding, Publication } from './engine-finding.js';
// Hostile-input helpers other capabilities reuse when they put provider text before a model.
export { fence, nonceFrom } from './hostile/fence.js';
export { sanitizeOutbound } from './hostile/outbound.js';
export { SecretRedactor } from './hostile/redact-secrets.js';
export {
  createMemoryFindingStore,
  createMemoryLedger,
  type DismissedFinding,
  type FindingStore,
  findingMarker,
  type KnownFinding,
  type KnownFindingState,
  type PublicationEntry,
  type PublicationKind,
  type PublicationLedger,
  type PublicationState,
  type ReviewBaseline,
  type ReviewMemory,
  resolutionMarker,
  SUMMARY_MARKER,
} from './memory/review-memory.js';
export {
  type LearnedDecision,
  MEMORY_INTENTS,
  MEMORY_SOURCES,
  type MemoryIntent,
  type MemorySource,
  type PastDecision,
  type ThreadMemory,
} from './memory/thread-memory.js';
export { FINDING_CATEGORIES, type FindingCategory, SEVERITIES, type Severity } from './output/review-answer.js';
export { type PublishOutcome, publishReview } from './pipeline/publish-review.js';
export {
  type Lifecycle,
  lifecycleOf,
  type ReviewIdentity,
  type ReviewRun,
  type RunReviewInput,
} from './pipeline/review-run.js';
export { DEFAULT_REVIEW_SETTINGS, type ReviewSettings } from './pipeline/review-settings.js';
export { type ReviewPublisher, type ReviewSource, scmReviewSource } from './pipeline/review-source.js';
export { runReview } from './pipeline/run-review.js';
export { classifyByPath, type SkipReason } from './plan/classify-file.js';
export { VERIFY_SYSTEM_PROMPT } from './prompt/review-prompt.js';
export { type JobUsage, jobUsageOf, type ModelCallUsage } from './protocol/job-usage.js';
export type { PassTokens, ProtocolEventInput, ProtocolPass, ProtocolWriter } from './protocol/protocol-writer.js';
export type { RecordedEvent, RecordedPass } from './protocol/recorded-protocol.js';
export { EVENT_CATEGORIES, type EventCategory, type PassOutcome, RESOLVED_HEAD_EVENT } from './protocol/vocabulary.js';
export { type FindingView, findingView, type ReviewResultView, resultView } from './result-view.js';
export type {
  KnowledgeChangeV1,
  KnowledgeCitation,
  KnowledgeLookupV1,
  KnowledgeSearchHit,
  KnowledgeSymbolHit,
  ReviewContext,
  ReviewEngineV1,
  ReviewJob,
  ReviewModel,
  ReviewModels,
  ReviewOutcome,
  ReviewScm,
  SharedSpendV1,
} from './review-engine-v1.js';
export { everyChunkFailed } from './review-failure.js';
export * from './standalone/index.js';
export { DEFAULT_THOROUGH_SETTINGS, type ThoroughSettings } from './thorough/thorough-settings.js';
