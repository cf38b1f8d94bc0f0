/**
 * `@margin/providers/utils`: the adapter-agnostic pieces every source-control family and AI kind is
 * built on, built-in or plugin. Nothing here knows a provider; each piece has one implementation.
 */

/** A least-recently-used map bounded in size, and a lookup done once and remembered. */
export { BoundedCache } from './bounded-cache.js';
/** The outbound guard: https only, no private, link-local or metadata addresses (checked at connect time), no redirects. */
export { assertEgressUrlAllowed, createEgressGuardedFetch, type EgressGuardOptions } from './egress-guard.js';
/** Type-checked reading of untrusted JSON, and required fields that fail as a 400 naming the path. */
export {
  isObject,
  type JsonObject,
  readArray,
  readBoolean,
  readNumber,
  readObject,
  readString,
  requiredFields,
} from './json-read.js';
/** Streaming a paged list, `Link` headers and continuation tokens. */
export { continuationToken, type Page, paginate, parseLinkHeader } from './paging.js';
/** Credentials out of every message; a provider's own explanation out of an error body. */
export { providerMessage, redactSecrets } from './redact.js';
export { rememberOnce } from './remember-once.js';
/** How long a provider asked to wait, from its headers or a Google `RetryInfo`. */
export { retryDelayFromHeaders, retryInfoDelay } from './retry-after.js';
/** HMAC-SHA256 webhook signatures, checked in constant time. */
export { constantTimeEqual, hmacSha256Hex, verifySha256Signature } from './signatures.js';
/** Short-lived access tokens cached until shortly before expiry, one exchange for concurrent callers. */
export {
  createExpiringToken,
  createTokenCache,
  type ExpiringTokenOptions,
  type ExpiringTokenSource,
  type IssuedToken,
  type TokenCache,
  type TokenCacheOptions,
} from './token-cache.js';
/** The one HTTP transport: ky with deadlines that cover the whole answer, retries honouring `Retry-After`, errors as `MarginError` with credentials redacted. */
export {
  createTransport,
  DEFAULT_TIMEOUT_MS,
  type ErrorAnswer,
  type ErrorVerdict,
  type HttpTransport,
  type HttpTuning,
  type ResponseType,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
  throwIfCancelled,
} from './transport.js';
/** A tree listing's path prefix in one spelling, matched by whole segments. */
export { isUnderTreePrefix, normalizeTreePrefix } from './tree-prefix.js';
/** Joining a base URL and a path; encoding path segments. */
export { encodePathSegments, encodeSegment, joinUrl, trimTrailingSlashes } from './url.js';
