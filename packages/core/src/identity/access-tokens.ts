import { errors, jwtVerify, SignJWT } from 'jose';
import type { GlobalRole } from './user-record.js';

const ISSUER = 'margin';
const AUDIENCE = 'margin-api';

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

/** HS256 JWTs with a short life; every request still re-checks that the user is active. */
export function createAccessTokens(secret: string, ttlSeconds: number): AccessTokens {
  const key = new TextEncoder().encode(secret);
  return {
    ttlSeconds,
    issue(claims, now) {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ name: claims.username, role: claims.globalRole })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          clockTolerance: 30,
          currentDate: now,
        });
        if (typeof payload.sub !== 'string' || typeof payload.name !== 'string') return undefined;
        const role = payload.role === 'platformAdmin' ? 'platformAdmin' : 'user';
        return { userId: payload.sub, username: payload.name, globalRole: role };
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
        throw error;
      }
    },
  };
}
