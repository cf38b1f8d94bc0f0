import type { ErrorAnswer, ErrorVerdict } from '../../http/transport.js';
import { asObject, asString } from '../shared/wire-values.js';

/**
 * OpenAI-shaped error bodies (`{error: {message, type, code}}`), also from Azure and LiteLLM:
 * - `insufficient_quota` (429) is a billing state, not throttling: never retried.
 * - LiteLLM's `budget_exceeded` (400) likewise.
 * - `x-should-retry: true|false` is the server's own verdict and wins over the status.
 */
export function inspectOpenAiError(answer: ErrorAnswer): ErrorVerdict | undefined {
  const error = asObject(asObject(answer.body)?.error);
  const code = asString(error?.code);
  const type = asString(error?.type);
  if (code === 'insufficient_quota' || type === 'insufficient_quota' || type === 'budget_exceeded') {
    return { failure: 'quotaExceeded', retry: false };
  }
  const shouldRetry = answer.headers.get('x-should-retry');
  if (shouldRetry === 'false') return { retry: false };
  if (shouldRetry === 'true') return { retry: true };
  return undefined;
}
