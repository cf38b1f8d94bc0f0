import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import type { IdentityDeps } from './identity-deps.js';
import { PAT_PREFIX, sha256Hex } from './tokens.js';

const invalid = () => MarginError.unauthenticated();

// Writing last-used on every call would turn each read into a write; a minute is precise enough.
const TOUCH_INTERVAL_MS = 60_000;

/** A bearer access token → the actor, re-checking on every call that the user is still active. */
export async function authenticateAccessToken(deps: IdentityDeps, token: string): Promise<Actor> {
  const claims = await deps.accessTokens.verify(token, deps.clock.now());
  if (!claims) throw invalid();
  const user = await deps.userStates.user(claims.userId);
  if (!user) throw invalid();
  if (!user.isActive) throw MarginError.unauthenticated('User account is not active.');
  return { userId: user.id, username: user.username, globalRole: user.globalRole, via: 'accessToken' };
}

/** An `X-User-Pat` token → its owner, with exactly the owner's permissions. */
export async function authenticatePersonalAccessToken(deps: IdentityDeps, token: string): Promise<Actor> {
  if (!token.startsWith(PAT_PREFIX)) throw invalid();
  // Looked up by the SHA-256 of the token (an index lookup): the secret itself is never compared.
  const pat = await deps.storage.personalAccessTokens.findByHash(sha256Hex(token));
  const now = deps.clock.now();
  if (!pat || pat.revokedAt || (pat.expiresAt && pat.expiresAt <= now.toISOString())) throw invalid();
  const user = await deps.userStates.user(pat.userId);
  if (!user?.isActive) throw invalid();
  if (!pat.lastUsedAt || now.getTime() - Date.parse(pat.lastUsedAt) > TOUCH_INTERVAL_MS) {
    await deps.storage.personalAccessTokens.touch(pat.id, now.toISOString());
  }
  return { userId: user.id, username: user.username, globalRole: user.globalRole, via: 'personalAccessToken' };
}
