import { createSign } from 'node:crypto';
import { MarginError } from '@margin/core/spec';
import { type HttpTransport, type IssuedToken, readObject, readString } from '../../utils/index.js';
import { count } from '../shared/wire-values.js';

/** The fields of a Google service-account key file that the JWT-bearer grant needs. */
export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string | undefined;
  tokenUri: string;
  projectId?: string | undefined;
}

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** A key that is a service-account JSON (has `client_email` and `private_key`), else undefined. */
export function parseServiceAccountKey(key: string): ServiceAccountKey | undefined {
  if (!key.trimStart().startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    return undefined;
  }
  const json = readObject(parsed);
  const clientEmail = readString(json?.client_email);
  const privateKey = readString(json?.private_key);
  if (!clientEmail || !privateKey) return undefined;
  return {
    clientEmail,
    privateKey,
    privateKeyId: readString(json?.private_key_id),
    tokenUri: readString(json?.token_uri) ?? DEFAULT_TOKEN_URI,
    projectId: readString(json?.project_id),
  };
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** An RS256-signed JWT assertion for the token endpoint, valid for one hour from `nowMs`. */
export function signJwtAssertion(account: ServiceAccountKey, nowMs: number, scope = CLOUD_PLATFORM_SCOPE): string {
  const iat = Math.floor(nowMs / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) };
  const claims = { iss: account.clientEmail, scope, aud: account.tokenUri, iat, exp: iat + 3600 };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  let signature: Buffer;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(account.privateKey);
  } catch {
    throw MarginError.provider(
      'credentials',
      'The service-account private_key could not sign a token request; check the key file.',
    );
  }
  return `${unsigned}.${base64url(signature)}`;
}

/**
 * The JWT-bearer grant (RFC 7523) at the key's `token_uri` → `{access_token, expires_in}`. The
 * token URI comes from the key file, so the call goes through the egress-guarded transport.
 */
export async function exchangeServiceAccountToken(
  transport: HttpTransport,
  account: ServiceAccountKey,
  nowMs: number,
): Promise<IssuedToken> {
  const form = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: signJwtAssertion(account, nowMs),
  });
  const response = await transport.request<unknown>({
    method: 'POST',
    url: account.tokenUri,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const body = readObject(response.data);
  const token = readString(body?.access_token);
  if (!token)
    throw MarginError.provider('invalidResponse', 'The Google token endpoint answered without an access token.');
  return { token, expiresAt: nowMs + (count(body?.expires_in) || 3600) * 1000 };
}
