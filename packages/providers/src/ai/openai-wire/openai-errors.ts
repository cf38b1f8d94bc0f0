import { type ErrorAnswer, type ErrorVerdict, readObject, readString } from '../../utils/index.js';
import { CONTEXT_LENGTH_EXCEEDED, contextLengthVerdict } from '../shared/context-length.js';

/** OpenAI's codes for an input too long to send; a string above 10 MB is split the same way. */
const TOO_LONG_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);

/**
 * OpenAI-shaped error bodies (`{error: {message, type, code}}`), also from Azure and LiteLLM:
 * - `insufficient_quota` (429) is a billing state, not throttling: never retried.
 * - LiteLLM's `budget_exceeded` (400) likewise.
 * - `x-should-retry: true|false` is the server's own verdict and wins over the status.
 * - An input longer than the context window is `contextLengthExceeded`: OpenAI and Azure say so by
 *   code, LiteLLM and compatible servers (vLLM, Ollama, LM Studio, llama.cpp, TGI) only in words,
 *   in `error.message`, a top-level `message` (older vLLM) or a string `error` (Ollama).
 */
export function inspectOpenAiError(answer: ErrorAnswer): ErrorVerdict | undefined {
  const body = readObject(answer.body);
  const error = readObject(body?.error);
  const code = readString(error?.code);
  const type = readString(error?.type);
  if (code !== undefined && TOO_LONG_CODES.has(code)) return CONTEXT_LENGTH_EXCEEDED;
  const tooLong = contextLengthVerdict(
    readString(error?.message) ?? readString(body?.message) ?? readString(body?.error) ?? readString(answer.body),
  );
  if (tooLong) return tooLong;
  if (code === 'insufficient_quota' || type === 'insufficient_quota' || type === 'budget_exceeded') {
    return { failure: 'quotaExceeded', retry: false };
  }
  const shouldRetry = answer.headers.get('x-should-retry');
  if (shouldRetry === 'false') return { retry: false };
  if (shouldRetry === 'true') return { retry: true };
  return undefined;
}
