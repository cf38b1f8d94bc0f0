import { createHmac, timingSafeEqual } from 'node:crypto';
import type { GlobalRole } from '../kernel/index.js';

const ISSUER = 'margin';
const AUDIENCE = 'margin-api';
const CLOCK_TOLERANCE_S = 30;
const VERIFIED_CACHE_SIZE = 10_000;
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export interface AccessTokenClaims {
  userId: string;
  username: string;
  globalRole: GlobalRole;
}

export interface AccessTokens {
  readonly ttlSeconds: number;
  issue(claims: AccessTokenClaims, now: Date): Promise<string>;
  /** The claims of a valid token, or undefined for anything else (bad signature, expired, malformed). */
  verify(token: string, now: Date): Promise<AccessTokenClaims | undefined>;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/**
 * HS256 JWTs with a short life, signed and checked with node:crypto: every request verifies one, and
 * this costs microseconds where a WebCrypto-based library costs a hundred. Only HS256 with our
 * issuer and audience is accepted; every request still re-checks that the user is active.
 */
export function createAccessTokens(secret: string, ttlSeconds: number): AccessTokens {
  const key = Buffer.from(secret, 'utf8');
  // Tokens already checked, so a client's every request costs a lookup, not an HMAC and two JSON
  // parses. Keyed by the whole token; what depends on the time is checked again on every use.
  const verified = new Map<string, Verified>();
  const sign = (data: string) => createHmac('sha256', key).update(data).digest();
  return {
    ttlSeconds,
    async issue(claims, now) {
      const iat = Math.floor(now.getTime() / 1000);
      const payload = base64url(
        JSON.stringify({
          sub: claims.userId,
          name: claims.username,
          role: claims.globalRole,
          iss: ISSUER,
          aud: AUDIENCE,
          iat,
          exp: iat + ttlSeconds,
        }),
      );
      return `${HEADER}.${payload}.${sign(`${HEADER}.${payload}`).toString('base64url')}`;
    },
    async verify(token, now) {
      const known = verified.get(token);
      if (known) return withinLifetime(known, now) ? known.claims : undefined;
      const checked = check(token);
      if (!checked) return undefined;
      // Oldest first out: a Map keeps insertion order.
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
      verified.set(token, checked);
      return withinLifetime(checked, now) ? checked.claims : undefined;
    },
  };

  /** Signature, algorithm, issuer, audience and claim shapes: what does not change with time. */
  function check(token: string): Verified | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    const given = strictBase64url(signature);
    if (!given || strictBase64url(header) === undefined || strictBase64url(payload) === undefined) return undefined;
    const expected = sign(`${header}.${payload}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    // The signature holds, so header and payload are ours; still insist on exactly HS256.
    const claims = parseJson(payload);
    if (parseJson(header)?.alg !== 'HS256' || !claims) return undefined;
    if (claims.iss !== ISSUER || claims.aud !== AUDIENCE) return undefined;
    if (typeof claims.exp !== 'number') return undefined;
    if (typeof claims.sub !== 'string' || typeof claims.name !== 'string') return undefined;
    return {
      // Frozen: the same object answers every request that carries this token.
      claims: Object.freeze({
        userId: claims.sub,
        username: claims.name,
        globalRole: claims.role === 'platformAdmin' ? 'platformAdmin' : 'user',
      } as const),
      exp: claims.exp,
      iat: typeof claims.iat === 'number' ? claims.iat : undefined,
    };
  }
}

interface Verified {
  claims: AccessTokenClaims;
  exp: number;
  iat: number | undefined;
}

function withinLifetime(token: Verified, now: Date): boolean {
  const seconds = now.getTime() / 1000;
  if (token.exp + CLOCK_TOLERANCE_S <= seconds) return false;
  return token.iat === undefined || token.iat - CLOCK_TOLERANCE_S <= seconds;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The bytes of a segment only if it is written exactly as base64url writes them. Node's decoder skips
 * characters it does not know and ignores unused bits, so without this one signed token would have
 * many accepted spellings (each a separate cache entry, each passing for the original).
 */
function strictBase64url(segment: string): Buffer | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : undefined;
}

function parseJson(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
