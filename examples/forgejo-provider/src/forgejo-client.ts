import { egressRefusalOf, MarginError, type ProviderFailure } from '@margin/core/spec';
import { redactSecrets, retryDelayFromHeaders } from '@margin/providers/utils';
import { type ForgejoOptions, forgejoApiBase } from './forgejo-options.js';

const PROVIDER = 'Forgejo';
/** Forgejo's and Gitea's default `[api] MAX_RESPONSE_ITEMS`: a larger `limit` is cut to it anyway. */
export const PAGE_LIMIT = 50;
/** A listing longer than this many pages is a server that ignores `page`; stop rather than loop. */
const MAX_PAGES = 2_000;

export interface ForgejoRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE' | undefined;
  /** Relative to the API base, starting with `/`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  json?: unknown;
  /** Default `json`. */
  responseType?: 'json' | 'text' | 'bytes' | 'none' | undefined;
  /** Statuses handed back to the caller instead of thrown, e.g. 404 for "no such file". */
  allowStatuses?: readonly number[] | undefined;
  signal?: AbortSignal | undefined;
}

export interface ForgejoResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

/**
 * Authenticated HTTP to one Forgejo or Gitea host: `Authorization: token <PAT>`, per-attempt
 * timeouts, retries that honour `Retry-After` (rate limits for every call, transient failures for
 * reads only, since a write may already have landed), no redirects (a token must never follow one),
 * and every failure as a `MarginError` with the token taken out of its message.
 */
export class ForgejoClient {
  readonly apiBase: string;
  readonly #secret: string;
  readonly #fetch: typeof fetch;
  readonly #userAgent: string;
  readonly #retries: number;
  readonly #backoffBaseMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #timeoutMs: number;

  constructor(hostBaseUrl: string, secret: string, options: ForgejoOptions = {}) {
    if (!URL.canParse(hostBaseUrl)) {
      throw MarginError.validation('hostBaseUrl must be the Forgejo or Gitea web address, e.g. https://codeberg.org.');
    }
    this.apiBase = forgejoApiBase(hostBaseUrl, options);
    // As for the built-in families: private addresses and plain http are fine (self-hosted Forgejo
    // lives there); credentials in the URL, metadata, link-local and reserved addresses are not.
    for (const address of [hostBaseUrl, this.apiBase]) {
      const refusal = egressRefusalOf(new URL(address), true);
      if (refusal) throw MarginError.provider('egressRefused', `The Forgejo address ${refusal.problem}.`);
    }
    if (!secret) throw MarginError.validation('A Forgejo connection needs a personal access token.');
    this.#secret = secret;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#userAgent = options.userAgent ?? 'margin-code-review';
    this.#retries = options.retries ?? 3;
    this.#backoffBaseMs = options.backoffBaseMs ?? 250;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  async request<T>(request: ForgejoRequest): Promise<ForgejoResponse<T>> {
    const method = request.method ?? 'GET';
    const url = this.#url(request);
    const where = `${method} ${request.path}`;
    for (let attempt = 0; ; attempt++) {
      request.signal?.throwIfAborted();
      let response: Response;
      try {
        response = await this.#send(method, url, request);
      } catch (error) {
        // The caller's own abort is not a provider failure: it rejects with the signal's reason.
        if (request.signal?.aborted) throw request.signal.reason;
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        if (method === 'GET' && attempt < this.#retries) {
          await this.#pause(this.#backoff(attempt), request.signal);
          continue;
        }
        throw timedOut
          ? MarginError.provider('timeout', `${PROVIDER} did not answer ${where} within ${this.#timeoutMs} ms.`)
          : MarginError.provider(
              'unavailable',
              this.#redact(`${PROVIDER} could not be reached for ${where}: ${causeOf(error)}`),
              { cause: error },
            );
      }

      if (request.allowStatuses?.includes(response.status)) {
        return { status: response.status, data: undefined as T, headers: response.headers };
      }
      if (response.status >= 300 && response.status < 400) {
        throw MarginError.provider(
          'invalidResponse',
          `${PROVIDER} answered ${where} with a redirect (${response.status}); set the connection's address to the one Forgejo serves at.`,
          { providerStatus: response.status },
        );
      }
      if (response.ok) {
        return {
          status: response.status,
          data: await this.#read<T>(response, request, where),
          headers: response.headers,
        };
      }

      const body = await response.text().catch(() => '');
      const retryable =
        response.status === 429 ||
        response.status === 503 ||
        (method === 'GET' && (response.status === 502 || response.status === 504));
      if (retryable && attempt < this.#retries) {
        const wait = retryDelayFromHeaders(response.headers) ?? this.#backoff(attempt);
        if (wait <= this.#maxRetryDelayMs) {
          await this.#pause(wait, request.signal);
          continue;
        }
        throw MarginError.provider(
          'rateLimited',
          `${PROVIDER} asked to wait ${Math.ceil(wait / 1000)} s before ${where} again.`,
          { providerStatus: response.status, retryAfterMs: wait },
        );
      }
      throw this.#failure(response.status, body, where, response.headers);
    }
  }

  /**
   * Every item of a paged list. Forgejo pages with `page` and `limit` and says whether more follow
   * in `X-HasMore` (pull request files and commits) or `X-Total-Count` (most lists); its `Link`
   * header is not followed, so a token never goes to an address the server names.
   */
  async *pages<T, R = T[]>(
    path: string,
    query: ForgejoRequest['query'],
    options: { signal?: AbortSignal | undefined; pick?: (data: R) => readonly T[] } = {},
  ): AsyncGenerator<T> {
    let seen = 0;
    let previousFirst: string | undefined;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const response = await this.request<R>({
        path,
        query: { ...query, page, limit: PAGE_LIMIT },
        signal: options.signal,
      });
      const items = options.pick ? options.pick(response.data) : (response.data as unknown as readonly T[]);
      if (!Array.isArray(items)) {
        throw MarginError.provider('invalidResponse', `${PROVIDER} answered GET ${path} without a list.`);
      }
      if (items.length === 0) return;
      // A server that ignores `page` sends the first page again: stop instead of looping.
      const first = JSON.stringify(items[0]);
      if (first === previousFirst) return;
      previousFirst = first;
      yield* items;
      seen += items.length;
      const hasMore = response.headers.get('x-hasmore');
      if (hasMore !== null) {
        if (hasMore !== 'true') return;
        continue;
      }
      const total = Number(response.headers.get('x-total-count') ?? Number.NaN);
      if (Number.isFinite(total)) {
        if (seen >= total) return;
        continue;
      }
      if (items.length < PAGE_LIMIT) return;
    }
  }

  /** Takes the connection's token out of a text meant for people. */
  redact(text: string): string {
    return this.#redact(text);
  }

  #url(request: ForgejoRequest): string {
    const url = new URL(`${this.apiBase}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  #send(method: string, url: string, request: ForgejoRequest): Promise<Response> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      accept: request.responseType === 'text' ? 'text/plain' : 'application/json',
      authorization: `token ${this.#secret}`,
      'user-agent': this.#userAgent,
    };
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    return this.#fetch(url, { method, headers, body, signal, redirect: 'manual' });
  }

  async #read<T>(response: Response, request: ForgejoRequest, where: string): Promise<T> {
    switch (request.responseType ?? 'json') {
      case 'none':
        await response.body?.cancel();
        return undefined as T;
      case 'text':
        return (await response.text()) as T;
      case 'bytes':
        return new Uint8Array(await response.arrayBuffer()) as T;
      default: {
        const text = await response.text();
        if (text === '') return undefined as T;
        try {
          return JSON.parse(text) as T;
        } catch {
          throw MarginError.provider(
            'invalidResponse',
            `${PROVIDER} answered ${where} with something that is not JSON.`,
            {
              providerStatus: response.status,
            },
          );
        }
      }
    }
  }

  #failure(status: number, body: string, where: string, headers: Headers): MarginError {
    const said = messageOf(body);
    const message = this.#redact(`${PROVIDER} answered ${status} to ${where}${said ? `: ${said}` : '.'}`);
    if (status === 404) return MarginError.notFound(message);
    const failure: ProviderFailure =
      status === 401
        ? 'credentials'
        : status === 403
          ? 'authorization'
          : status === 429
            ? 'rateLimited'
            : status >= 500
              ? 'unavailable'
              : 'rejected';
    const retryAfter = retryDelayFromHeaders(headers);
    return MarginError.provider(failure, message, {
      providerStatus: status,
      ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
    });
  }

  #redact(text: string): string {
    return redactSecrets(text, [this.#secret]);
  }

  #backoff(attempt: number): number {
    return this.#backoffBaseMs * 2 ** attempt;
  }

  #pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** Forgejo's error body is `{ message, url }` (sometimes with `errors`); the message is what it says. */
function messageOf(body: string): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; errors?: unknown };
    const parts = [typeof parsed.message === 'string' ? parsed.message : undefined];
    if (Array.isArray(parsed.errors)) parts.push(...parsed.errors.filter((e): e is string => typeof e === 'string'));
    const text = parts.filter(Boolean).join('; ');
    return text ? text.slice(0, 500) : undefined;
  } catch {
    return body.slice(0, 200).trim() || undefined;
  }
}

function causeOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
