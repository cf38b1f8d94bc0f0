import { type ErrorAnswer, type ErrorVerdict, readObject, readString } from '../../utils/index.js';
import { contextLengthVerdict } from '../shared/context-length.js';

/**
 * Anthropic error bodies: `{type: "error", error: {type, message}}`. 529 `overloaded_error` is
 * retried like a 503; a credit balance that ran out is a billing state and is not retried. A prompt
 * over the context window (400 `invalid_request_error`, "prompt is too long: N tokens > M maximum")
 * is `contextLengthExceeded`.
 */
export function inspectAnthropicError(answer: ErrorAnswer): ErrorVerdict | undefined {
  const error = readObject(readObject(answer.body)?.error);
  const type = readString(error?.type);
  const message = readString(error?.message) ?? '';
  const tooLong = type === 'invalid_request_error' ? contextLengthVerdict(message) : undefined;
  if (tooLong) return tooLong;
  if (type === 'billing_error' || /credit balance is too low/i.test(message)) {
    return { failure: 'quotaExceeded', retry: false };
  }
  if (type === 'overloaded_error') return { failure: 'unavailable', retry: true };
  if (type === 'authentication_error') return { failure: 'credentials', retry: false };
  if (type === 'permission_error') return { failure: 'authorization', retry: false };
  return undefined;
}
