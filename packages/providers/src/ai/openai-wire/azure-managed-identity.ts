import { MarginError } from '@margin/core/spec';
import { createTransport, type IssuedToken, readNumber, readObject, readString } from '../../utils/index.js';

/** The resource Azure OpenAI / Foundry tokens are issued for. */
export const COGNITIVE_SERVICES_RESOURCE = 'https://cognitiveservices.azure.com';

export const IMDS_TOKEN_ENDPOINT = 'http://169.254.169.254/metadata/identity/oauth2/token';

/** Anything that can hand out an Entra token for a resource; injectable for hosts with their own. */
export type AzureTokenProvider = (resource: string) => Promise<IssuedToken>;

export interface AzureManagedIdentityOptions {
  /** Default: the instance metadata service (IMDS). */
  endpoint?: string | undefined;
  /** Client id of a user-assigned identity; omit for the system-assigned one. */
  clientId?: string | undefined;
  /**
   * The fetch for the metadata endpoint. It is deliberately NOT the egress-guarded fetch: IMDS is
   * a link-local address the guard refuses, and this URL is fixed by the host, never taken from a
   * profile. Default: the global fetch.
   */
  fetch?: typeof fetch | undefined;
  /** Replaces IMDS entirely (e.g. a host using @azure/identity, or tests). */
  tokenProvider?: AzureTokenProvider | undefined;
}

/**
 * Managed-identity tokens from IMDS: `GET …/oauth2/token?api-version=2018-02-01&resource=…` with
 * `Metadata: true` → `{access_token, expires_on}` (providers.md §6.3). Caching is the caller's.
 */
export function createImdsTokenProvider(options: AzureManagedIdentityOptions, now: () => number): AzureTokenProvider {
  if (options.tokenProvider) return options.tokenProvider;
  const endpoint = options.endpoint ?? IMDS_TOKEN_ENDPOINT;
  const transport = createTransport({
    provider: 'Azure managed identity',
    fetch: options.fetch,
    retries: 2,
    timeoutMs: 10_000,
    backoffBaseMs: 200,
  });
  return async (resource) => {
    let data: unknown;
    try {
      const response = await transport.request<unknown>({
        url: endpoint,
        query: { 'api-version': '2018-02-01', resource, client_id: options.clientId },
        headers: { metadata: 'true' },
      });
      data = response.data;
    } catch (error) {
      const reason = MarginError.isInstance(error) ? error.message : 'no answer';
      throw MarginError.provider(
        'credentials',
        `No managed-identity token could be obtained for Azure OpenAI (${reason}). azureIdentity needs a host running in Azure with a managed identity that has access to the resource.`,
        { cause: error },
      );
    }
    const body = readObject(data);
    const token = readString(body?.access_token);
    if (!token)
      throw MarginError.provider('credentials', 'The managed-identity endpoint answered without an access token.');
    const expiresOn = Number(body?.expires_on);
    const expiresIn = Number(readNumber(body?.expires_in) ?? body?.expires_in);
    const expiresAt =
      Number.isFinite(expiresOn) && expiresOn > 0
        ? expiresOn * 1000
        : now() + (Number.isFinite(expiresIn) ? expiresIn : 300) * 1000;
    return { token, expiresAt };
  };
}
