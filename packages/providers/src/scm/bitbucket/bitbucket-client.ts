import { MarginError, type ScmScopeRef } from '@margin/core/spec';
import {
  createTransport,
  encodeSegment,
  type HttpTransport,
  type HttpTuning,
  type TransportRequest,
  type TransportResponse,
  trimTrailingSlashes,
} from '../../utils/index.js';
import { type BitbucketCredential, bitbucketCredential } from './bitbucket-credentials.js';
import type { BbPage } from './bitbucket-wire.js';

export const DEFAULT_API_BASE = 'https://api.bitbucket.org/2.0';

/** Bitbucket Cloud caps most lists at 100 a page. */
export const PAGE_SIZE = 100;

type Query = TransportRequest['query'];

export interface BitbucketClientOptions {
  apiBaseUrl: string;
  secret: string;
  fetch?: typeof fetch | undefined;
  http?: HttpTuning | undefined;
}

export interface BitbucketClient {
  readonly credential: BitbucketCredential;
  request<T>(request: Omit<TransportRequest, 'url'> & { path: string }): Promise<TransportResponse<T>>;
  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T>;
  /** Every value of a paged list, one page at a time, following `next` links verbatim. */
  pages<T>(
    path: string,
    query?: Query,
    signal?: AbortSignal,
    options?: { emptyOnStatuses?: readonly number[] | undefined },
  ): AsyncGenerator<T[]>;
}

/**
 * Bitbucket Cloud 2.0 over the shared transport. A 429 carries no dependable `Retry-After`, so the
 * transport's exponential backoff applies; `next` links are followed only on the API's own origin so
 * credentials never travel elsewhere.
 */
export function createBitbucketClient(options: BitbucketClientOptions): BitbucketClient {
  const base = trimTrailingSlashes(options.apiBaseUrl);
  const origin = new URL(base).origin;
  const credential = bitbucketCredential(options.secret);
  const transport: HttpTransport = createTransport({
    provider: 'Bitbucket',
    fetch: options.fetch,
    secrets: () => credential.secrets,
    ...options.http,
  });
  const auth = { Authorization: credential.authorization };
  const send = <T>(request: TransportRequest) =>
    transport.request<T>({ ...request, headers: { ...auth, ...request.headers } });

  return {
    credential,
    request: ({ path, ...rest }) => send({ ...rest, url: `${base}${path}` }),
    async get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
      return (await send<T>({ url: `${base}${path}`, query, signal })).data;
    },
    async *pages<T>(
      path: string,
      query?: Query,
      signal?: AbortSignal,
      options?: { emptyOnStatuses?: readonly number[] | undefined },
    ): AsyncGenerator<T[]> {
      const first = {
        url: `${base}${path}`,
        query: { pagelen: PAGE_SIZE, ...query },
        signal,
        allowStatuses: options?.emptyOnStatuses,
      };
      const answer = await send<BbPage<T>>(first);
      // A status the caller allowed (a 404 for a missing directory) is an empty list.
      if (answer.status >= 300) return;
      let page: BbPage<T> = answer.data;
      for (;;) {
        if (!Array.isArray(page?.values)) {
          throw MarginError.provider(
            'invalidResponse',
            `Bitbucket answered ${path} with something that is not a page.`,
          );
        }
        yield page.values;
        if (!page.next) return;
        if (new URL(page.next).origin !== origin) {
          throw MarginError.provider('invalidResponse', 'Bitbucket named a next page on another host.');
        }
        page = (await send<BbPage<T>>({ url: page.next, signal })).data;
      }
    },
  };
}

/** `https://bitbucket.org` (the site) → the API; an explicit API URL is kept. */
export function bitbucketApiBase(hostBaseUrl: string | undefined): string {
  const trimmed = trimTrailingSlashes((hostBaseUrl ?? '').trim());
  if (!trimmed) return DEFAULT_API_BASE;
  let host: string;
  try {
    host = new URL(trimmed).hostname;
  } catch {
    throw MarginError.validation(`'${trimmed}' is not a URL.`);
  }
  if (host === 'bitbucket.org' || host === 'www.bitbucket.org') return DEFAULT_API_BASE;
  return trimmed.endsWith('/2.0') ? trimmed : `${trimmed}/2.0`;
}

/** The workspace slug: the first segment of the scope URL (`https://bitbucket.org/acme` → `acme`). */
export function workspaceOf(scope: Pick<ScmScopeRef, 'scopePath'> & Partial<ScmScopeRef>): string {
  let first: string | undefined;
  try {
    first = new URL(scope.scopePath).pathname.split('/').find(Boolean);
  } catch {
    first = undefined;
  }
  const workspace = first ? decodeURIComponent(first) : scope.projectKey;
  if (!workspace) throw MarginError.validation(`The scope path '${scope.scopePath}' names no Bitbucket workspace.`);
  return workspace;
}

/** Bitbucket writes repository UUIDs in braces; accept them with or without. */
export function braced(uuid: string): string {
  const bare = uuid.trim().replace(/^\{|\}$/g, '');
  return `{${bare}}`;
}

const UUID = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;

/** A repository path: `/repositories/{workspace}/{uuid}`, or by `workspace/slug` full name. */
export function repoPath(workspace: string, repository: string): string {
  const id = UUID.test(repository) ? braced(repository) : repository;
  return `/repositories/${encodeSegment(workspace)}/${encodeSegment(id)}`;
}
