import { MarginError } from '@margin/core/spec';
import {
  createExpiringToken,
  createTransport,
  type ExpiringTokenSource,
  trimTrailingSlashes,
} from '../../utils/index.js';

/** The Azure DevOps resource: tokens for it carry `499b84ac-…/.default`. */
export const AZURE_DEVOPS_SCOPE = '499b84ac-1321-427f-aa17-267ca6975798/.default';
const DEFAULT_AUTHORITY = 'https://login.microsoftonline.com';

export interface EntraClientCredentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  authorityUrl?: string | undefined;
  fetch?: typeof fetch | undefined;
  now?: (() => number) | undefined;
  retries?: number | undefined;
  backoffBaseMs?: number | undefined;
  timeoutMs?: number | undefined;
}

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
}

/**
 * Entra ID client-credentials tokens for Azure DevOps, cached until five minutes before expiry.
 * Any 400 or 401 from the token endpoint (`invalid_client`, an unknown tenant, a wrong secret) is a
 * credentials failure of the connection, not a bad request of ours.
 */
export function entraTokenSource(credentials: EntraClientCredentials): ExpiringTokenSource {
  const now = credentials.now ?? Date.now;
  const transport = createTransport({
    provider: 'Microsoft Entra ID',
    fetch: credentials.fetch,
    retries: credentials.retries,
    backoffBaseMs: credentials.backoffBaseMs,
    timeoutMs: credentials.timeoutMs,
    secrets: () => [credentials.clientSecret],
    inspectError: ({ status }) => (status === 400 || status === 401 ? { failure: 'credentials' } : undefined),
  });
  const authority = trimTrailingSlashes(credentials.authorityUrl ?? DEFAULT_AUTHORITY);
  const url = `${authority}/${encodeURIComponent(credentials.tenantId)}/oauth2/v2.0/token`;

  return createExpiringToken(
    async () => {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        scope: AZURE_DEVOPS_SCOPE,
      });
      const issuedAt = now();
      const { data } = await transport.request<TokenAnswer>({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      });
      const token = data?.access_token;
      const expiresIn = Number(data?.expires_in);
      if (typeof token !== 'string' || !token || !Number.isFinite(expiresIn)) {
        throw MarginError.provider('invalidResponse', 'Microsoft Entra ID answered without an access token.');
      }
      return { token, expiresAt: issuedAt + expiresIn * 1000 };
    },
    { now },
  );
}
