import { MarginError } from '@margin/core/spec';
import {
  createTransport,
  type ErrorAnswer,
  type ErrorVerdict,
  type HttpTransport,
  type HttpTuning,
  parseLinkHeader,
  type TransportRequest,
  type TransportResponse,
  trimTrailingSlashes,
} from '../../utils/index.js';

export interface GitLabClientOptions {
  /** `https://gitlab.example.com/api/v4` */
  apiBaseUrl: string;
  token: string;
  fetch?: typeof fetch | undefined;
  http?: HttpTuning | undefined;
  now?: (() => number) | undefined;
}

type Query = TransportRequest['query'];

/** GitLab caps `per_page` at 100. */
export const PAGE_SIZE = 100;

export interface GitLabClient {
  request<T>(request: Omit<TransportRequest, 'url'> & { path: string }): Promise<TransportResponse<T>>;
  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T>;
  /** Every page of an offset-paged list from `firstPage` on, one page at a time, following `x-next-page`. */
  pages<T>(path: string, query?: Query, firstPage?: number, signal?: AbortSignal): AsyncGenerator<T[]>;
  /**
   * Every page of a keyset-paged list (`pagination=keyset`), following the `Link` header's `next`.
   * Instances that answer a keyset request with offset paging instead (a known GitLab quirk of the
   * tree endpoint) are followed through `x-next-page`. `allowStatuses` on the first page (e.g. 404
   * for a missing path) end the listing with nothing.
   */
  keysetPages<T>(
    path: string,
    query: Query,
    options?: { signal?: AbortSignal | undefined; emptyOnStatuses?: readonly number[] | undefined },
  ): AsyncGenerator<T[]>;
}

/**
 * GitLab REST v4 over the shared transport. Authenticates with `PRIVATE-TOKEN`, the header GitLab
 * documents for personal, project and group access tokens alike.
 */
export function createGitLabClient(options: GitLabClientOptions): GitLabClient {
  const base = trimTrailingSlashes(options.apiBaseUrl);
  const now = options.now ?? Date.now;
  const transport: HttpTransport = createTransport({
    provider: 'GitLab',
    fetch: options.fetch,
    secrets: () => [options.token],
    inspectError: (answer) => inspectGitLabError(answer, now()),
    ...options.http,
  });
  const auth = { 'PRIVATE-TOKEN': options.token };

  const request = <T>({ path, headers, ...rest }: Omit<TransportRequest, 'url'> & { path: string }) =>
    transport.request<T>({ ...rest, url: `${base}${path}`, headers: { ...auth, ...headers } });

  return {
    request,
    async get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
      return (await request<T>({ path, query, signal })).data;
    },
    async *pages<T>(path: string, query?: Query, firstPage = 1, signal?: AbortSignal): AsyncGenerator<T[]> {
      let page: string | undefined = String(firstPage);
      while (page) {
        const res: TransportResponse<unknown> = await request({
          path,
          query: { ...query, per_page: PAGE_SIZE, page },
          signal,
        });
        if (!Array.isArray(res.data)) {
          throw MarginError.provider('invalidResponse', `GitLab answered ${path} with something that is not a list.`, {
            providerStatus: res.status,
          });
        }
        yield res.data as T[];
        const next = res.headers.get('x-next-page')?.trim();
        // An empty `x-next-page` marks the last page; a repeated page number would loop forever.
        page = next && next !== page ? next : undefined;
      }
    },
    async *keysetPages<T>(
      path: string,
      query: Query,
      options?: { signal?: AbortSignal | undefined; emptyOnStatuses?: readonly number[] | undefined },
    ): AsyncGenerator<T[]> {
      let pageQuery: Query = { ...query, pagination: 'keyset', per_page: PAGE_SIZE };
      const seen = new Set<string>();
      for (let first = true; pageQuery; first = false) {
        const res: TransportResponse<unknown> = await request({
          path,
          query: pageQuery,
          signal: options?.signal,
          allowStatuses: first ? options?.emptyOnStatuses : undefined,
        });
        if (res.status >= 300) return;
        if (!Array.isArray(res.data)) {
          throw MarginError.provider('invalidResponse', `GitLab answered ${path} with something that is not a list.`, {
            providerStatus: res.status,
          });
        }
        yield res.data as T[];
        pageQuery = nextKeysetQuery(res.headers, pageQuery, seen);
      }
    },
  };
}

/**
 * The query of the next keyset page. Only the `Link` URL's query is taken, never its host, so the
 * token is sent nowhere but the configured base URL.
 */
function nextKeysetQuery(headers: Headers, current: Query, seen: Set<string>): Query | undefined {
  const link = parseLinkHeader(headers.get('link')).next;
  let next: Query | undefined;
  if (link) {
    try {
      next = Object.fromEntries(new URL(link, 'http://link.invalid').searchParams);
    } catch {
      next = undefined;
    }
  } else {
    const page = headers.get('x-next-page')?.trim();
    if (page) next = { ...current, page };
  }
  if (!next) return undefined;
  // A provider handing back a cursor it already gave would loop forever.
  const key = JSON.stringify(next);
  if (seen.has(key)) return undefined;
  seen.add(key);
  return next;
}

/**
 * GitLab specifics: `RateLimit-Reset` is an epoch timestamp (the transport would read it as seconds
 * from now), and validation errors come as `{"message": {"field": ["msg"]}}`.
 */
export function inspectGitLabError(answer: ErrorAnswer, nowMs: number): ErrorVerdict | undefined {
  const verdict: ErrorVerdict = {};
  const wait = gitLabRetryDelay(answer.headers, nowMs);
  if (wait !== undefined) verdict.retryAfterMs = wait;
  const message = flattenMessage(answer.body);
  if (message) verdict.message = message;
  return verdict.retryAfterMs === undefined && verdict.message === undefined ? undefined : verdict;
}

function gitLabRetryDelay(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = Number(headers.get('retry-after'));
  if (headers.has('retry-after') && Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  const reset = Number(headers.get('ratelimit-reset'));
  if (headers.has('ratelimit-reset') && Number.isFinite(reset)) {
    return reset > 1_000_000_000 ? Math.max(0, reset * 1000 - nowMs) : Math.max(0, reset * 1000);
  }
  const resetTime = Date.parse(headers.get('ratelimit-resettime') ?? '');
  return Number.isNaN(resetTime) ? undefined : Math.max(0, resetTime - nowMs);
}

function flattenMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const message = (body as { message?: unknown }).message;
  if (typeof message !== 'object' || message === null) return undefined;
  const parts = Object.entries(message as Record<string, unknown>).map(([field, value]) => {
    const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    return field === 'base' ? text : `${field} ${text}`;
  });
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** `https://gitlab.example.com` (optionally with a relative root) → its REST v4 base. */
export function gitLabApiBase(hostBaseUrl: string): string {
  const trimmed = trimTrailingSlashes(hostBaseUrl);
  return /\/api\/v4$/.test(trimmed) ? trimmed : `${trimmed}/api/v4`;
}

/**
 * The group full path a scope URL names: `https://gitlab.com/acme/platform` → `acme/platform`. A
 * self-managed instance under a relative root (`https://host/gitlab/acme`) is handled by removing the
 * connection's host URL first.
 */
export function groupPathFromScope(scopePath: string, hostBaseUrl: string): string {
  const host = trimTrailingSlashes(hostBaseUrl).replace(/\/api\/v4$/, '');
  let rest: string;
  if (scopePath.startsWith(`${host}/`)) rest = scopePath.slice(host.length);
  else {
    try {
      rest = new URL(scopePath).pathname;
    } catch {
      rest = scopePath;
    }
  }
  const path = decodeURIComponent(rest)
    .replace(/^\/+|\/+$/g, '')
    .replace(/^groups\//, '');
  if (!path) throw MarginError.validation(`The scope path '${scopePath}' names no GitLab group.`);
  return path;
}
