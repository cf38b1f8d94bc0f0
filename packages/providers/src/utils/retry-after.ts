/**
 * How long a provider asked us to wait, from the headers providers use: `retry-after-ms` (OpenAI,
 * Azure), `Retry-After` in seconds or as an HTTP date, and rate-limit reset headers given as epoch
 * seconds (GitHub `x-ratelimit-reset`) or as seconds from now (`ratelimit-reset`).
 */
export function retryDelayFromHeaders(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;

  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }

  // Only meaningful when the allowance is used up.
  if (headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(headers.get('x-ratelimit-reset'));
    if (Number.isFinite(reset) && reset > 1_000_000_000) return Math.max(0, reset * 1000 - now);
  }
  const relative = Number(headers.get('ratelimit-reset'));
  if (headers.has('ratelimit-reset') && Number.isFinite(relative) && relative >= 0) return relative * 1000;
  return undefined;
}

/** Google's `RetryInfo.retryDelay` ("32s", "1.5s") inside an error body's `details`. */
export function retryInfoDelay(body: unknown): number | undefined {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = (detail as { '@type'?: string; retryDelay?: unknown })?.retryDelay;
    if (typeof delay === 'string') {
      const seconds = Number(delay.replace(/s$/, ''));
      if (Number.isFinite(seconds)) return seconds * 1000;
    }
  }
  return undefined;
}
