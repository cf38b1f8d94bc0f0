import { MarginError, type ProviderFailure } from '@margin/core/spec';
import ky, { type KyInstance } from 'ky';
import { type Deadline, DeadlineExceeded, fetchWithinDeadline, startDeadline } from './deadline.js';
import { providerMessage, redactSecrets } from './redact.js';
import { retryDelayFromHeaders } from './retry-after.js';

export interface TransportOptions {
  /** Shown in error messages: `GitHub answered 401: Bad credentials`. */
  provider: string;
  fetch?: typeof fetch | undefined;
  /**
   * The deadline of one attempt: connecting, the headers and the whole body. Default 30 s. A retry
   * gets a fresh one; the call as a whole, waits between attempts included, is bounded by one
   * attempt's deadline per attempt allowed (`(retries + 1) × timeoutMs`).
   */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt, for throttling, 5xx, timeouts and network errors. Default 3. */
  retries?: number | undefined;
  /** A retry wait longer than this is not waited for: the call fails as rate limited. Default 60 s. */
  maxRetryDelayMs?: number | undefined;
  /** Base of the exponential backoff when the provider names no wait. Default 500 ms. */
  backoffBaseMs?: number | undefined;
  /** Follow 3xx answers. AI adapters turn this off (the egress guard forbids redirects). Default true. */
  followRedirects?: boolean | undefined;
  /** Credential values to scrub from every message (API keys, PATs, client secrets, tokens). */
  secrets?: (() => readonly string[]) | undefined;
  /**
   * Provider-specific reading of an error answer: a non-retryable quota error, a 403 that is really
   * a rate limit, a wait named in the body. Return undefined to keep the defaults.
   */
  inspectError?: ((answer: ErrorAnswer) => ErrorVerdict | undefined) | undefined;
}

/** The deadline of one attempt when `timeoutMs` is not given. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Transport knobs a host or a test may tune; the defaults suit production. */
export type HttpTuning = Pick<TransportOptions, 'timeoutMs' | 'retries' | 'backoffBaseMs' | 'maxRetryDelayMs'>;

export interface ErrorAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, otherwise the text. */
  body: unknown;
}

export interface ErrorVerdict {
  failure?: ProviderFailure | undefined;
  retry?: boolean | undefined;
  retryAfterMs?: number | undefined;
  message?: string | undefined;
}

export type ResponseType = 'json' | 'text' | 'bytes' | 'none';

export interface TransportRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | undefined;
  url: string | URL;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  headers?: Record<string, string> | undefined;
  json?: unknown;
  body?: string | Uint8Array | undefined;
  /** Default `json`. */
  responseType?: ResponseType | undefined;
  /** Statuses handed back to the caller instead of thrown, e.g. `[404]` for "file absent". */
  allowStatuses?: readonly number[] | undefined;
  signal?: AbortSignal | undefined;
}

export interface TransportResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

export interface HttpTransport {
  request<T = unknown>(request: TransportRequest): Promise<TransportResponse<T>>;
}

const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504, 529]);

/**
 * The one HTTP transport of every adapter: ky with a deadline per attempt that covers the whole
 * body, an overall deadline per call, retries that honour `Retry-After`, `retry-after-ms`,
 * rate-limit reset headers and provider hints, and errors mapped to MarginError with credentials
 * scrubbed from every message. Answers are read in full under the attempt's deadline: `data` and
 * the body an `inspectError` sees never wait on the network.
 */
export function createTransport(options: TransportOptions): HttpTransport {
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const backoffBaseMs = options.backoffBaseMs ?? 500;
  const retries = options.retries ?? 3;
  const attemptMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const callMs = attemptMs * (retries + 1);
  const secrets = () => options.secrets?.() ?? [];

  const verdictFor = async (response: Response): Promise<ErrorVerdict & { body: unknown }> => {
    const body = await readBody(response.clone());
    const custom = options.inspectError?.({ status: response.status, headers: response.headers, body }) ?? {};
    return { ...custom, body };
  };

  const client: KyInstance = ky.create({
    // Looked up per call, so a fetch installed after the transport was made (a test's) is used.
    fetch: fetchWithinDeadline(() => options.fetch ?? globalThis.fetch, attemptMs),
    // ky's own timeout ends at the headers; the deadline above covers the body too.
    timeout: false,
    throwHttpErrors: false,
    retry: {
      limit: retries,
      methods: ['get', 'post', 'put', 'patch', 'delete', 'head'],
      // Status-based retries are decided in `afterResponse`, where the body can be read.
      statusCodes: [],
      // An attempt past its deadline rejects with a `TimeoutError`: retried, on a fresh deadline.
      retryOnTimeout: true,
      // A MarginError thrown by the fetch itself is a refusal (the egress guard), never worth retrying.
      shouldRetry: ({ error }) => (MarginError.isInstance(error) ? false : undefined),
      backoffLimit: maxRetryDelayMs,
      delay: (attempt) => backoffBaseMs * 2 ** (attempt - 1),
      jitter: true,
    },
    hooks: {
      afterResponse: [
        async (_request, kyOptions, response, state) => {
          // On the last attempt the answer goes back as it is (a forced retry past the limit would throw).
          if (response.ok || state.retryCount >= retries) return;
          const verdict = await verdictFor(response);
          const retry = verdict.retry ?? RETRYABLE_STATUSES.has(response.status);
          if (!retry) return;
          const wait = verdict.retryAfterMs ?? retryDelayFromHeaders(response.headers);
          // Too long to wait, or past the call's deadline: fail now, with this answer's error.
          const left = callDeadlineOf(kyOptions.context).remainingMs();
          if (wait !== undefined && (wait > maxRetryDelayMs || wait >= left)) return;
          return ky.retry(wait !== undefined ? { delay: wait } : {});
        },
      ],
    },
  });

  return {
    async request<T>(request: TransportRequest): Promise<TransportResponse<T>> {
      const url = withQuery(request.url, request.query);
      throwIfCancelled(request.signal, options.provider);
      const call = startDeadline(callMs, request.signal);
      let response: Response;
      try {
        response = await client(url, {
          method: request.method ?? 'GET',
          headers: request.headers,
          json: request.json,
          body: request.body,
          signal: call.signal,
          redirect: options.followRedirects === false ? 'manual' : 'follow',
          context: { call },
        });
      } catch (error) {
        // ky rejects a retry wait with the signal's own reason, which need not be an AbortError.
        throwIfCancelled(request.signal, options.provider);
        if (call.expired()) throw timedOut(options.provider, callMs, retries > 0 ? 'retries included' : undefined);
        if (error instanceof DeadlineExceeded) throw timedOut(options.provider, error.ms);
        throw networkError(options.provider, error, secrets());
      } finally {
        call.clear();
      }
      if (response.ok || request.allowStatuses?.includes(response.status)) {
        return {
          status: response.status,
          headers: response.headers,
          data: (await readSuccess(response, request, options.provider)) as T,
        };
      }
      const verdict = await verdictFor(response);
      throw answerError(options.provider, response, verdict, secrets());
    },
  };
}

function withQuery(url: string | URL, query: TransportRequest['query']): URL {
  const out = new URL(url);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) out.searchParams.set(key, String(value));
  }
  return out;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function readSuccess(response: Response, request: TransportRequest, provider: string): Promise<unknown> {
  const type = request.responseType ?? 'json';
  if (type === 'none' || response.status === 204) {
    await response.body?.cancel();
    return undefined;
  }
  if (type === 'bytes') return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  if (type === 'text') return text;
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw MarginError.provider(
      'invalidResponse',
      `${provider} answered ${response.status} with a body that is not JSON.`,
      {
        providerStatus: response.status,
      },
    );
  }
}

function defaultFailure(status: number): ProviderFailure {
  if (status === 401) return 'credentials';
  if (status === 403) return 'authorization';
  if (status === 404) return 'notFound';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rateLimited';
  if (status >= 500) return 'unavailable';
  if (status >= 300 && status < 400) return 'rejected';
  return 'rejected';
}

function answerError(
  provider: string,
  response: Response,
  verdict: ErrorVerdict & { body: unknown },
  secrets: readonly string[],
): MarginError {
  const failure = verdict.failure ?? defaultFailure(response.status);
  const detail = verdict.message ?? providerMessage(verdict.body);
  const base =
    response.status >= 300 && response.status < 400
      ? `${provider} answered ${response.status} (a redirect, which is not followed)`
      : `${provider} answered ${response.status}`;
  const message = redactSecrets(detail ? `${base}: ${detail}` : `${base}.`, secrets);
  const retryAfterMs = verdict.retryAfterMs ?? retryDelayFromHeaders(response.headers);
  if (failure === 'notFound')
    return new MarginError('not_found', message, { providerFailure: failure, providerStatus: response.status });
  return MarginError.provider(failure, message, { providerStatus: response.status, retryAfterMs });
}

/** The call's overall deadline, handed to ky's hooks through its `context`. */
function callDeadlineOf(context: Record<string, unknown>): Deadline {
  return context.call as Deadline;
}

/**
 * A call whose signal is aborted fails at once and sends nothing: the review that asked for it was
 * stopped, superseded or the host is shutting down. It is a cancellation, never a timeout.
 */
export function throwIfCancelled(signal: AbortSignal | undefined, provider: string): void {
  if (signal?.aborted) {
    throw MarginError.provider('cancelled', `The call to ${provider} was cancelled.`, { cause: signal.reason });
  }
}

/** A deadline ran out: the provider connected slowly, sent no headers, or trickled its body. */
function timedOut(provider: string, ms: number, note?: string): MarginError {
  const within = `${ms / 1000} s${note ? `, ${note}` : ''}`;
  return MarginError.provider('timeout', `${provider} did not answer within ${within}.`);
}

function networkError(provider: string, error: unknown, secrets: readonly string[]): MarginError {
  if (MarginError.isInstance(error)) return error;
  // A timeout of a fetch the caller supplied, not one of the transport's deadlines.
  if ((error as Error | undefined)?.name === 'TimeoutError') {
    return MarginError.provider('timeout', `${provider} did not answer in time.`);
  }
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error | undefined)?.message ?? 'network error';
  return MarginError.provider('unavailable', redactSecrets(`${provider} could not be reached (${reason}).`, secrets));
}
