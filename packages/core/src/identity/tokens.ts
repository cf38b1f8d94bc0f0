import { createHash } from 'node:crypto';
import type { Ids } from '../kernel/index.js';

export const PAT_PREFIX = 'mgn_';

/** Tokens are stored only as their SHA-256; lookups go by this hash. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `mgn_` + 48 hex characters (24 random bytes). */
export function newPersonalAccessToken(ids: Ids): string {
  return PAT_PREFIX + ids.randomHex(24);
}

/** An opaque 256-bit refresh token. */
export function newRefreshToken(ids: Ids): string {
  return ids.randomHex(32);
}
