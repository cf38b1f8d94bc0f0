import { errorFromResponse } from './errors.js';

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Per-call options every SDK method accepts last: extra headers and a signal to cancel the call. */
export interface CallOptions {
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
}

/** The data of a 2xx answer; a `MarginApiError` subclass for anything else. */
export async function unwrap<T>(pending: Promise<Result<T>>): Promise<T> {
  const result = await pending;
  if (result.response.ok) return result.data as T;
  throw errorFromResponse(result.response.status, result.error, result.response.headers.get('retry-after'));
}

/**
 * Like `unwrap`, for an operation whose named non-2xx answers are outcomes: a body of one of
 * `statuses` that has every one of `keys` comes back as data. Anything else still throws.
 */
export async function unwrapOutcome<T>(
  pending: Promise<Result<T>>,
  statuses: readonly number[],
  keys: readonly string[],
): Promise<T> {
  const result = await pending;
  if (result.response.ok) return result.data as T;
  const body: unknown = result.error;
  if (
    statuses.includes(result.response.status) &&
    typeof body === 'object' &&
    body !== null &&
    keys.every((key) => key in body)
  ) {
    return body as T;
  }
  throw errorFromResponse(result.response.status, result.error, result.response.headers.get('retry-after'));
}
