import type { KeyObject } from 'node:crypto';
import { MarginError, type ScmConnectionConfig } from '@margin/core/spec';
import {
  createTransport,
  type ErrorAnswer,
  type ErrorVerdict,
  type ExpiringTokenSource,
  type HttpTransport,
  type Page,
  paginate,
  parseLinkHeader,
  providerMessage,
  redactSecrets,
  type TransportRequest,
  type TransportResponse,
  throwIfCancelled,
} from '../../utils/index.js';
import { appPrivateKey, createAppJwt, installationTokenSource } from './github-app-token.js';
import { type GitHubEndpoints, type GitHubOptions, gitHubEndpoints } from './github-options.js';

const PROVIDER = 'GitHub';

/**
 * GitHub's rate limits come as 403 as well as 429: the primary limit with `x-ratelimit-remaining: 0`
 * (wait until `x-ratelimit-reset`), secondary limits with `retry-after`, or without any header and a
 * message naming the secondary rate limit (then GitHub asks for at least a minute).
 */
export function inspectGitHubError({ status, headers, body }: ErrorAnswer): ErrorVerdict | undefined {
  if (status === 422) return validationDetail(body);
  if (status !== 403 && status !== 429) return undefined;
  if (headers.get('x-ratelimit-remaining') === '0' || headers.has('retry-after')) {
    return { failure: 'rateLimited', retry: true };
  }
  if (/secondary rate limit|abuse detection/i.test(providerMessage(body) ?? '')) {
    return { failure: 'rateLimited', retry: true, retryAfterMs: 60_000 };
  }
  return undefined;
}

/**
 * A 422's `message` is only "Validation Failed" or "Unprocessable Entity"; what GitHub refused is in
 * `errors[]` (strings, or `{ field, code, message }`), e.g. a line that is not part of the diff.
 */
function validationDetail(body: unknown): ErrorVerdict | undefined {
  const message = providerMessage(body);
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  if (!message || !Array.isArray(errors) || errors.length === 0) return undefined;
  const reasons = errors
    .map((e) => (typeof e === 'string' ? e : [e?.field, e?.message ?? e?.code].filter(Boolean).join(' ')))
    .filter(Boolean);
  return reasons.length ? { message: `${message}: ${reasons.join('; ')}` } : undefined;
}

interface GraphQlAnswer<T> {
  data?: T | null;
  errors?: Array<{ type?: string; message?: string }>;
}

/**
 * Authenticated HTTP to one GitHub or GitHub Enterprise Server host: the required headers, a PAT or
 * a cached App installation token (renewed once after a 401), `Link`-header paging that never leaves
 * the API's origin, and GraphQL with its 200-with-errors answers mapped to MarginError.
 */
export class GitHubClient {
  readonly endpoints: GitHubEndpoints;
  readonly #transport: HttpTransport;
  readonly #connection: ScmConnectionConfig;
  readonly #headers: Record<string, string>;
  readonly #installation: ExpiringTokenSource | undefined;
  readonly #appKey: KeyObject | undefined;
  readonly #now: () => number;

  constructor(connection: ScmConnectionConfig, options: GitHubOptions) {
    if (connection.family !== 'gitHostA') {
      throw MarginError.validation(`The GitHub adapter cannot connect a ${connection.family} connection.`);
    }
    if (!URL.canParse(connection.hostBaseUrl)) {
      throw MarginError.validation('hostBaseUrl must be the GitHub host, e.g. https://github.com.');
    }
    this.#connection = connection;
    this.#now = options.now ?? Date.now;
    this.endpoints = gitHubEndpoints(connection.hostBaseUrl, options);
    this.#headers = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': options.userAgent ?? 'margin-code-review',
    };
    this.#transport = createTransport({
      provider: PROVIDER,
      fetch: options.fetch,
      retries: options.retries,
      backoffBaseMs: options.backoffBaseMs,
      maxRetryDelayMs: options.maxRetryDelayMs,
      timeoutMs: options.timeoutMs,
      inspectError: inspectGitHubError,
      secrets: () => {
        const token = this.#installation?.current();
        return token ? [connection.secret, token] : [connection.secret];
      },
    });
    if (connection.authenticationKind === 'appInstallation') {
      const appId = connection.hostedAppId;
      const installationId = connection.hostedAppInstallationId;
      if (!appId || !installationId) {
        throw MarginError.validation('A GitHub App connection needs hostedAppId and hostedAppInstallationId.');
      }
      const key = appPrivateKey(connection.secret);
      this.#appKey = key;
      this.#installation = installationTokenSource({
        transport: this.#transport,
        restBaseUrl: this.endpoints.rest,
        appId,
        installationId,
        key,
        headers: this.#headers,
        now: this.#now,
      });
    } else if (connection.authenticationKind !== 'personalAccessToken') {
      throw MarginError.validation(
        `GitHub accepts personalAccessToken or appInstallation, not ${connection.authenticationKind}.`,
      );
    }
  }

  get isApp(): boolean {
    return this.#installation !== undefined;
  }

  /** A REST call against the API base (`path` starts with `/`) or a full URL on the API's origin. */
  async rest<T>(request: Omit<TransportRequest, 'url'> & { path: string }): Promise<TransportResponse<T>> {
    const url = request.path.startsWith('/') ? `${this.endpoints.rest}${request.path}` : request.path;
    return this.#withAuth(request.signal, (authorization) =>
      this.#transport.request<T>({ ...request, url, headers: { ...this.#headers, ...request.headers, authorization } }),
    );
  }

  /** A call as the App itself (JWT), e.g. `GET /app`. */
  async asApp<T>(path: string, signal?: AbortSignal): Promise<T> {
    if (!this.#appKey) throw MarginError.internal('Not a GitHub App connection.');
    const jwt = createAppJwt(this.#connection.hostedAppId ?? 0, this.#appKey, this.#now());
    const { data } = await this.#transport.request<T>({
      url: `${this.endpoints.rest}${path}`,
      headers: { ...this.#headers, authorization: `Bearer ${jwt}` },
      signal,
    });
    return data;
  }

  /** Every item of a `Link`-paged list, one page at a time. */
  pages<T, R = T[]>(
    path: string,
    query: TransportRequest['query'],
    options: { signal?: AbortSignal | undefined; pick?: (data: R) => readonly T[] } = {},
  ): AsyncGenerator<T> {
    const pick = options.pick ?? ((data: R) => data as unknown as T[]);
    const signal = options.signal;
    return paginate<T, string>(undefined, async (next): Promise<Page<T, string>> => {
      const response = await this.rest<R>(
        next ? { path: next, signal } : { path, query: { per_page: 100, ...query }, signal },
      );
      return { items: pick(response.data), next: this.#sameOrigin(parseLinkHeader(response.headers.get('link')).next) };
    });
  }

  async graphql<T>(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    const { data } = await this.#withAuth(signal, (authorization) =>
      this.#transport.request<GraphQlAnswer<T>>({
        method: 'POST',
        url: this.endpoints.graphql,
        headers: { ...this.#headers, authorization },
        json: { query, variables },
        signal,
      }),
    );
    const error = data?.errors?.[0];
    if (error) {
      const message = redactSecrets(`GitHub GraphQL answered: ${error.message ?? error.type ?? 'an error'}`, [
        this.#connection.secret,
      ]);
      if (error.type === 'NOT_FOUND') throw MarginError.notFound(message);
      const failure =
        error.type === 'RATE_LIMITED' ? 'rateLimited' : error.type === 'FORBIDDEN' ? 'authorization' : 'rejected';
      throw MarginError.provider(failure, message, { providerStatus: 200 });
    }
    if (!data?.data) throw MarginError.provider('invalidResponse', 'GitHub GraphQL answered without data.');
    return data.data;
  }

  async #withAuth<T>(signal: AbortSignal | undefined, send: (authorization: string) => Promise<T>): Promise<T> {
    // Checked before an installation token is minted, so a cancelled call sends nothing at all.
    throwIfCancelled(signal, PROVIDER);
    try {
      return await send(await this.#authorization());
    } catch (error) {
      // An installation token can be revoked before it expires; one fresh token is worth a second try.
      if (this.#installation && MarginError.isInstance(error) && error.details.providerStatus === 401) {
        this.#installation.invalidate();
        return send(await this.#authorization());
      }
      throw error;
    }
  }

  async #authorization(): Promise<string> {
    return `Bearer ${this.#installation ? await this.#installation.get() : this.#connection.secret}`;
  }

  /** A `Link` that points off the API's origin is not followed: our token would go with it. */
  #sameOrigin(next: string | undefined): string | undefined {
    if (!next || !URL.canParse(next)) return undefined;
    return new URL(next).origin === new URL(this.endpoints.rest).origin ? next : undefined;
  }
}
