import {
  type ErrorAnswer,
  type ErrorVerdict,
  readArray,
  readObject,
  readString,
  retryInfoDelay,
} from '../../utils/index.js';
import { contextLengthVerdict } from '../shared/context-length.js';

/**
 * Google API errors: `{error: {code, message, status, details: [...]}}`. `RetryInfo.retryDelay`
 * names the wait for RESOURCE_EXHAUSTED; an invalid API key arrives as 400 INVALID_ARGUMENT with
 * reason API_KEY_INVALID and is a credentials problem. OAuth token-endpoint errors
 * (`invalid_grant`, `invalid_client`) are too. An input over the model's limit (400
 * INVALID_ARGUMENT, "The input token count (N) exceeds the maximum number of tokens allowed (M)")
 * is `contextLengthExceeded`.
 */
export function inspectGoogleError(answer: ErrorAnswer): ErrorVerdict | undefined {
  const body = readObject(answer.body);
  const oauthError = readString(body?.error);
  if (oauthError === 'invalid_grant' || oauthError === 'invalid_client' || oauthError === 'unauthorized_client') {
    return { failure: 'credentials', retry: false };
  }
  const error = readObject(body?.error);
  const status = readString(error?.status);
  const reasons = readArray(error?.details).map((detail) => readString(readObject(detail)?.reason));
  if (reasons.includes('API_KEY_INVALID') || status === 'UNAUTHENTICATED')
    return { failure: 'credentials', retry: false };
  if (status === 'PERMISSION_DENIED') return { failure: 'authorization', retry: false };
  const tooLong = status === 'INVALID_ARGUMENT' ? contextLengthVerdict(readString(error?.message)) : undefined;
  if (tooLong) return tooLong;
  const delay = retryInfoDelay(answer.body);
  if (status === 'RESOURCE_EXHAUSTED' || delay !== undefined) {
    return { failure: 'rateLimited', retry: true, retryAfterMs: delay };
  }
  return undefined;
}
