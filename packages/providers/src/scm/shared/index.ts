export { BoundedCache } from './bounded-cache.js';
export { relationFromMergeBase, sameCommit } from './commit-relation.js';
export { createThreadsOneByOne } from './create-threads-one-by-one.js';
export {
  createExpiringToken,
  type ExpiringTokenOptions,
  type ExpiringTokenSource,
  type IssuedToken,
} from './expiring-token.js';
export { diffFromVersions, diffOfVersions, type ReadFileAt } from './file-versions-diff.js';
export {
  assertThreadMarker,
  type MarkerStyle,
  readHiddenMarker,
  withHiddenMarker,
  withMarkerRead,
} from './hidden-marker.js';
export {
  isObject,
  type JsonObject,
  readBoolean,
  readNumber,
  readObject,
  readString,
  requiredFields,
} from './json-read.js';
export {
  branchName,
  type DecodedFile,
  decodeFile,
  encodePathSegments,
  encodeSegment,
  headsRef,
  looksBinary,
  relativePath,
} from './normalize.js';
export { continuationToken, type Page, paginate, parseLinkHeader } from './paging.js';
export { rememberOnce } from './remember-once.js';
export { constantTimeEqual, hmacSha256Hex, verifySha256Signature } from './secrets.js';
export { describeAnchor, refusedThread } from './thread-refusal.js';
export { computeUnifiedDiff, type UnifiedDiffInput, withFileHeaders } from './unified-diff.js';
