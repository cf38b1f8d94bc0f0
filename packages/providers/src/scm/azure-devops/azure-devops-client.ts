import { MarginError, type ScmConnectionConfig } from '@margin/core/spec';
import {
  createTransport,
  type ExpiringTokenSource,
  type HttpTransport,
  type TransportRequest,
  type TransportResponse,
  throwIfCancelled,
  trimTrailingSlashes,
} from '../../utils/index.js';
import type { AzureDevOpsOptions } from './azure-devops-options.js';
import { entraTokenSource } from './entra-token.js';

const PROVIDER = 'Azure DevOps';

export interface AdoRequest extends TransportRequest {
  /** `connectionData` and a few others take no `api-version`. */
  unversioned?: boolean | undefined;
}

/**
 * Authenticated HTTP to one Azure DevOps organization or Server collection: adds the credentials,
 * `api-version`, and `X-TFS-FedAuthRedirect: Suppress` (so bad credentials give 401 instead of a
 * 302 or a 203 sign-in page), retries once with a fresh Entra token after a 401, and keeps every
 * request on the connection's own host.
 */
export class AzureDevOpsClient {
  readonly hostBaseUrl: string;
  readonly apiVersion: string;
  readonly #transport: HttpTransport;
  readonly #connection: ScmConnectionConfig;
  readonly #entra: ExpiringTokenSource | undefined;
  readonly #identityBaseUrl: string | undefined;

  constructor(connection: ScmConnectionConfig, options: AzureDevOpsOptions) {
    this.#connection = connection;
    if (connection.family !== 'suiteDevOps') {
      throw MarginError.validation(`The Azure DevOps adapter cannot connect a ${connection.family} connection.`);
    }
    if (!URL.canParse(connection.hostBaseUrl)) {
      throw MarginError.validation('hostBaseUrl must be the Azure DevOps organization or collection URL.');
    }
    this.hostBaseUrl = trimTrailingSlashes(connection.hostBaseUrl);
    this.apiVersion = options.apiVersion ?? (isServices(this.hostBaseUrl) ? '7.1' : '6.0');
    this.#identityBaseUrl = options.identityBaseUrl;
    if (connection.authenticationKind === 'oauthClientCredentials') {
      if (!connection.oAuthTenantId || !connection.oAuthClientId) {
        throw MarginError.validation('Entra ID client credentials need oAuthTenantId and oAuthClientId.');
      }
      this.#entra = entraTokenSource({
        tenantId: connection.oAuthTenantId,
        clientId: connection.oAuthClientId,
        clientSecret: connection.secret,
        authorityUrl: options.entraAuthorityUrl,
        fetch: options.fetch,
        now: options.now,
        retries: options.retries,
        backoffBaseMs: options.backoffBaseMs,
        timeoutMs: options.timeoutMs,
      });
    } else if (connection.authenticationKind !== 'personalAccessToken') {
      throw MarginError.validation(
        `Azure DevOps accepts personalAccessToken or oauthClientCredentials, not ${connection.authenticationKind}.`,
      );
    }
    this.#transport = createTransport({
      provider: PROVIDER,
      fetch: options.fetch,
      retries: options.retries,
      backoffBaseMs: options.backoffBaseMs,
      maxRetryDelayMs: options.maxRetryDelayMs,
      timeoutMs: options.timeoutMs,
      secrets: () => {
        const current = this.#entra?.current();
        return current ? [connection.secret, current] : [connection.secret];
      },
    });
  }

  /**
   * The organization or collection URL a scope path names. It must live on the connection's host:
   * a scope path is stored configuration, and the connection's credentials go nowhere else.
   */
  organizationUrl(scopePath: string | undefined): string {
    if (!scopePath) return this.hostBaseUrl;
    let scope: URL;
    try {
      scope = new URL(scopePath);
    } catch {
      throw MarginError.validation('The Azure DevOps scope path must be the organization or collection URL.');
    }
    if (scope.origin !== new URL(this.hostBaseUrl).origin) {
      throw MarginError.validation("The scope path is not on this connection's Azure DevOps host.");
    }
    return trimTrailingSlashes(`${scope.origin}${scope.pathname}`);
  }

  /** Where identities live: `vssps.dev.azure.com/<org>` on Services, the collection itself on Server. */
  identityUrl(organizationUrl: string): string {
    if (this.#identityBaseUrl) return trimTrailingSlashes(this.#identityBaseUrl);
    const url = new URL(organizationUrl);
    if (url.hostname === 'dev.azure.com') return trimTrailingSlashes(`https://vssps.dev.azure.com${url.pathname}`);
    const legacy = /^([^.]+)\.visualstudio\.com$/.exec(url.hostname);
    if (legacy) return `https://${legacy[1]}.vssps.visualstudio.com`;
    return organizationUrl;
  }

  async request<T>(request: AdoRequest): Promise<TransportResponse<T>> {
    // Checked before an Entra token is fetched, so a cancelled call sends nothing at all.
    throwIfCancelled(request.signal, PROVIDER);
    const first = await this.#send<T>(request, false);
    if (first !== 'retry') return first;
    const second = await this.#send<T>(request, true);
    if (second === 'retry') throw MarginError.internal('Azure DevOps retry loop.');
    return second;
  }

  async #send<T>(request: AdoRequest, retried: boolean): Promise<TransportResponse<T> | 'retry'> {
    const query = request.unversioned ? request.query : { ...request.query, 'api-version': this.apiVersion };
    try {
      const response = await this.#transport.request<T>({
        ...request,
        query,
        headers: {
          accept: 'application/json',
          'x-tfs-fedauthredirect': 'Suppress',
          ...request.headers,
          authorization: await this.#authorization(),
        },
      });
      if (response.status === 203) throw signInPage();
      return response;
    } catch (error) {
      // A sign-in page served as "non-authoritative information" fails JSON parsing in the transport.
      if (MarginError.isInstance(error) && error.details.providerStatus === 203) throw signInPage();
      // An Entra token can be revoked before it expires; one fresh token is worth a second try.
      if (!retried && this.#entra && MarginError.isInstance(error) && error.details.providerStatus === 401) {
        this.#entra.invalidate();
        return 'retry';
      }
      throw error;
    }
  }

  async #authorization(): Promise<string> {
    if (this.#entra) return `Bearer ${await this.#entra.get()}`;
    // PATs go as Basic with an empty user name; Azure DevOps ignores the user.
    return `Basic ${Buffer.from(`:${this.#connection.secret}`, 'utf8').toString('base64')}`;
  }
}

/** Azure DevOps answers unaccepted credentials without the suppress header with a 203 sign-in page. */
function signInPage(): MarginError {
  return MarginError.provider('credentials', `${PROVIDER} answered 203 with a sign-in page.`, { providerStatus: 401 });
}

function isServices(hostBaseUrl: string): boolean {
  try {
    const host = new URL(hostBaseUrl).hostname;
    return host === 'dev.azure.com' || host.endsWith('.visualstudio.com');
  } catch {
    return false;
  }
}
