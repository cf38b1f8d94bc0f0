import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { MarginError } from '@margin/core/spec';
import { createExpiringToken, type ExpiringTokenSource, type HttpTransport } from '../../utils/index.js';

/** Reads the App's PEM private key once; a key that does not parse is a credentials problem. */
export function appPrivateKey(pem: string): KeyObject {
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    // The key itself never goes into the message.
    throw MarginError.provider('credentials', 'The GitHub App private key is not a readable PEM private key.');
  }
}

/**
 * The App's own JWT (RS256), valid for nine minutes from a minute ago: GitHub allows at most ten and
 * clocks drift. `iss` is the App id.
 */
export function createAppJwt(appId: number | string, key: KeyObject, nowMs: number): string {
  const now = Math.floor(nowMs / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  const signingInput = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: now - 60, exp: now + 540, iss: String(appId) })}`;
  const signature = sign('RSA-SHA256', Buffer.from(signingInput, 'utf8'), key).toString('base64url');
  return `${signingInput}.${signature}`;
}

export interface InstallationTokenInput {
  transport: HttpTransport;
  restBaseUrl: string;
  appId: number;
  installationId: number;
  key: KeyObject;
  headers: Record<string, string>;
  now: () => number;
}

/**
 * Installation access tokens, exchanged for an App JWT and cached until five minutes before their
 * `expires_at`. Tokens are opaque: since 2026 they are `ghs_<appid>_<jwt>` of varying length.
 */
export function installationTokenSource(input: InstallationTokenInput): ExpiringTokenSource {
  return createExpiringToken(
    async () => {
      const jwt = createAppJwt(input.appId, input.key, input.now());
      const { data } = await input.transport
        .request<{ token?: unknown; expires_at?: unknown }>({
          method: 'POST',
          url: `${input.restBaseUrl}/app/installations/${input.installationId}/access_tokens`,
          headers: { ...input.headers, authorization: `Bearer ${jwt}` },
        })
        .catch((error: unknown) => {
          // An unknown installation is a wrong connection setting, not a missing pull request.
          if (MarginError.isInstance(error) && error.code === 'not_found') {
            throw MarginError.provider(
              'credentials',
              `GitHub has no installation ${input.installationId} of App ${input.appId}.`,
              { providerStatus: 404 },
            );
          }
          throw error;
        });
      const expiresAt = typeof data?.expires_at === 'string' ? Date.parse(data.expires_at) : Number.NaN;
      if (typeof data?.token !== 'string' || !data.token || Number.isNaN(expiresAt)) {
        throw MarginError.provider('invalidResponse', 'GitHub answered the token exchange without a token.');
      }
      return { token: data.token, expiresAt };
    },
    { now: input.now },
  );
}
