/**
 * What the source-control families share and AI kinds never need: commits, diffs, hidden thread
 * markers, thread posting and refusals. The generic pieces (transport, JSON readers, paging, token
 * caching, signatures) are in `../../utils`.
 */
export { relationFromMergeBase, sameCommit } from './commit-relation.js';
export { statusCommit, statusDescription } from './commit-status.js';
export { createThreadsOneByOne } from './create-threads-one-by-one.js';
export { diffFromVersions, diffOfVersions, type ReadFileAt } from './file-versions-diff.js';
export {
  assertThreadMarker,
  type MarkerStyle,
  readHiddenMarker,
  withHiddenMarker,
  withMarkerRead,
} from './hidden-marker.js';
export { branchName, type DecodedFile, decodeFile, headsRef, looksBinary, relativePath } from './normalize.js';
export { pullRequestNumber } from './pull-request-number.js';
export { describeAnchor, refusedThread } from './thread-refusal.js';
export { computeUnifiedDiff, type UnifiedDiffInput, withFileHeaders } from './unified-diff.js';
