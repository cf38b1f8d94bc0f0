import { retryInfoDelay } from '../../http/retry-after.js';
import type { ErrorAnswer, ErrorVerdict } from '../../http/transport.js';
import { contextLengthVerdict } from '../shared/context-length.js';
import { asArray, asObject, asString } from '../shared/wire-values.js';

/**
 * Google API errors: `{error: {code, message, status, details: [...]}}`. `RetryInfo.retryDelay`
 * names the wait for RESOURCE_EXHAUSTED; an invalid API key arrives as 400 INVALID_ARGUMENT with
 * reason API_KEY_INVALID and is a credentials problem. OAuth token-endpoint errors
 * (`invalid_grant`, `invalid_client`) are too. An input over the model's limit (400
 * INVALID_ARGUMENT, "The input token count (N) exceeds the maximum number of tokens allowed (M)")
 * is `contextLengthExceeded`.
 */
export function inspectGoogleError(answer: ErrorAnswer): ErrorVerdict | undefined {
  const body = asObject(answer.body);
  const oauthError = asString(body?.error);
  if (oauthError === 'invalid_grant' || oauthError === 'invalid_client' || oauthError === 'unauthorized_client') {
    return { failure: 'credentials', retry: false };
  }
  const error = asObject(body?.error);
  const status = asString(error?.status);
  const reasons = asArray(error?.details).map((detail) => asString(asObject(detail)?.reason));
  if (reasons.includes('API_KEY_INVALID') || status === 'UNAUTHENTICATED')
    return { failure: 'credentials', retry: false };
  if (status === 'PERMISSION_DENIED') return { failure: 'authorization', retry: false };
  const tooLong = status === 'INVALID_ARGUMENT' ? contextLengthVerdict(asString(error?.message)) : undefined;
  if (tooLong) return tooLong;
  const delay = retryInfoDelay(answer.body);
  if (status === 'RESOURCE_EXHAUSTED' || delay !== undefined) {
    return { failure: 'rateLimited', retry: true, retryAfterMs: delay };
  }
  return undefined;
}
