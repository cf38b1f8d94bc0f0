import { MarginError, type ProviderFailure } from '@margin/core/spec';
import ky, { type KyInstance } from 'ky';
import { providerMessage, redactSecrets } from './redact.js';
import { retryDelayFromHeaders } from './retry-after.js';

export interface TransportOptions {
  /** Shown in error messages: `GitHub answered 401: Bad credentials`. */
  provider: string;
  fetch?: typeof fetch | undefined;
  /** Per attempt. Default 30 s. */
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
 * The one HTTP transport of every adapter: ky with per-attempt timeouts, retries that honour
 * `Retry-After`, `retry-after-ms`, rate-limit reset headers and provider hints, and errors mapped to
 * MarginError with credentials scrubbed from every message.
 */
export function createTransport(options: TransportOptions): HttpTransport {
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  const backoffBaseMs = options.backoffBaseMs ?? 500;
  const retries = options.retries ?? 3;
  const secrets = () => options.secrets?.() ?? [];

  const verdictFor = async (response: Response): Promise<ErrorVerdict & { body: unknown }> => {
    const body = await readBody(response.clone());
    const custom = options.inspectError?.({ status: response.status, headers: response.headers, body }) ?? {};
    return { ...custom, body };
  };

  const client: KyInstance = ky.create({
    fetch: options.fetch,
    timeout: options.timeoutMs ?? 30_000,
    throwHttpErrors: false,
    retry: {
      limit: retries,
      methods: ['get', 'post', 'put', 'patch', 'delete', 'head'],
      // Status-based retries are decided in `afterResponse`, where the body can be read.
      statusCodes: [],
      retryOnTimeout: true,
      // A MarginError thrown by the fetch itself is a refusal (the egress guard), never worth retrying.
      shouldRetry: ({ error }) => (MarginError.isInstance(error) ? false : undefined),
      backoffLimit: maxRetryDelayMs,
      delay: (attempt) => backoffBaseMs * 2 ** (attempt - 1),
      jitter: true,
    },
    hooks: {
      afterResponse: [
        async (_request, _options, response, state) => {
          // On the last attempt the answer goes back as it is (a forced retry past the limit would throw).
          if (response.ok || state.retryCount >= retries) return;
          const verdict = await verdictFor(response);
          const retry = verdict.retry ?? RETRYABLE_STATUSES.has(response.status);
          if (!retry) return;
          const wait = verdict.retryAfterMs ?? retryDelayFromHeaders(response.headers);
          if (wait !== undefined && wait > maxRetryDelayMs) return; // too long to wait: fail now
          return ky.retry(wait !== undefined ? { delay: wait } : {});
        },
      ],
    },
  });

  return {
    async request<T>(request: TransportRequest): Promise<TransportResponse<T>> {
      const url = withQuery(request.url, request.query);
      throwIfCancelled(request.signal, options.provider);
      let response: Response;
      try {
        response = await client(url, {
          method: request.method ?? 'GET',
          headers: request.headers,
          json: request.json,
          body: request.body,
          signal: request.signal,
          redirect: options.followRedirects === false ? 'manual' : 'follow',
        });
      } catch (error) {
        // ky rejects a retry wait with the signal's own reason, which need not be an AbortError.
        throwIfCancelled(request.signal, options.provider);
        throw networkError(options.provider, error, secrets());
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

/**
 * A call whose signal is aborted fails at once and sends nothing: the review that asked for it was
 * stopped, superseded or the host is shutting down.
 */
export function throwIfCancelled(signal: AbortSignal | undefined, provider: string): void {
  if (signal?.aborted) {
    throw MarginError.provider('timeout', `The call to ${provider} was cancelled.`, { cause: signal.reason });
  }
}

function networkError(provider: string, error: unknown, secrets: readonly string[]): MarginError {
  if (MarginError.isInstance(error)) return error;
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError') return MarginError.provider('timeout', `${provider} did not answer in time.`);
  if (name === 'AbortError') return MarginError.provider('timeout', `The call to ${provider} was cancelled.`);
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error | undefined)?.message ?? 'network error';
  return MarginError.provider('unavailable', redactSecrets(`${provider} could not be reached (${reason}).`, secrets));
}
