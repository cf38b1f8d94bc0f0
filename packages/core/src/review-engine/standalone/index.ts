export { type DiffSourceInput, diffReviewSource } from './diff-review-source.js';
export { createMemoryProtocol, type ReviewProtocol } from './memory-protocol.js';
export { providerMarkerMemory } from './provider-marker-memory.js';
export {
  type OpenedPullRequest,
  openPullRequestByUrl,
  type PullRequestUrl,
  parsePullRequestUrl,
  resolvePullRequestRef,
} from './pull-request-url.js';
export { type ReviewModelTraits, reviewModelsOf } from './review-models.js';
export {
  type ReviewDiffInput,
  type ReviewPullRequestInput,
  reviewDiff,
  reviewPullRequest,
  type StandaloneReview,
} from './review-pull-request.js';
export { splitUnifiedDiff, type UnifiedDiffFile } from './unified-diff-files.js';
