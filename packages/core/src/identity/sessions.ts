import { type Actor, MarginError, requireInteractiveSession } from '../kernel/index.js';
import type { IdentityDeps } from './identity-deps.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { ChangePasswordInput, LoginInput, RefreshInput } from './schemas.js';
import { tenantSignInRefusal } from './tenant-sign-in-policy.js';
import { newRefreshToken, sha256Hex } from './tokens.js';
import type { UserRecord } from './user-record.js';

/** What a successful sign-in or refresh hands the host: the host puts the refresh token in a cookie. */
export interface SessionTokens {
  accessToken: string;
  expiresIn: number;
  tokenType: 'Bearer';
  refreshToken: string;
  refreshExpiresAt: string;
}

const invalidCredentials = () => MarginError.unauthenticated('Invalid credentials.');
const sessionEnded = () => MarginError.unauthenticated('The session has ended; sign in again.');

// A real argon2id hash to verify against when there is no usable user, so every refusal costs one
// argon2 verification and usernames cannot be probed by timing.
let dummyHash: Promise<string> | undefined;
const timingDummy = () => {
  dummyHash ??= hashPassword('margin-timing-equaliser');
  return dummyHash;
};

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000).toISOString();

/** Where a sign-in attempt came from, as the host saw it (after its trusted proxies). */
export interface SignInContext {
  sourceAddress: string | undefined;
}

/**
 * Signs in. Every refusal — wrong password, unknown or inactive user, a locked username/address
 * pair — answers the same 401 "Invalid credentials." after the same work (a throttle read, one
 * argon2 verification, a throttle write), so no answer tells whether a username exists.
 */
export async function login(deps: IdentityDeps, input: unknown, context: SignInContext): Promise<SessionTokens> {
  const { username, password } = LoginInput.parse(input);
  const throttle = deps.signInThrottle;
  const now = deps.clock.now();
  const state = await throttle.read(username, context.sourceAddress);
  await throttle.slowDown(state, now);
  const user = await deps.storage.users.findByUsername(username);
  const usable = user?.isActive && user.passwordHash ? user : undefined;
  const matches = await verifyPassword(usable?.passwordHash ?? (await timingDummy()), password);
  if (!usable || !matches || throttle.isLocked(state, now)) {
    await throttle.recordFailure(state, now);
    throw invalidCredentials();
  }
  await throttle.recordSuccess(state);
  // Told only to whoever knows the password, so it reveals nothing about which usernames exist.
  const refusal = await tenantSignInRefusal(deps, usable, 'password');
  if (refusal === 'tenantDeactivated') throw signInRefused(refusal, 'Your organization’s access is deactivated.');
  if (refusal === 'ssoRequired') {
    throw signInRefused(refusal, 'Your organization requires single sign-on: sign in through its identity provider.');
  }
  return startSession(deps, usable, now);
}

const signInRefused = (reason: string, message: string) => new MarginError('unauthenticated', message, { reason });

/** For SSO: a session for a user the identity provider vouched for. */
export async function startSession(deps: IdentityDeps, user: UserRecord, now: Date): Promise<SessionTokens> {
  const refreshToken = newRefreshToken(deps.ids);
  const refreshExpiresAt = addSeconds(now, deps.auth.refreshAbsoluteSeconds);
  await deps.storage.refreshTokens.insert({
    id: deps.ids.uuid(),
    userId: user.id,
    familyId: deps.ids.uuid(),
    tokenHash: sha256Hex(refreshToken),
    createdAt: now.toISOString(),
    expiresAt: refreshExpiresAt,
    lastUsedAt: now.toISOString(),
    replacedById: null,
    revokedAt: null,
  });
  return { ...(await accessTokenFor(deps, user, now)), refreshToken, refreshExpiresAt };
}

async function accessTokenFor(deps: IdentityDeps, user: UserRecord, now: Date) {
  const accessToken = await deps.accessTokens.issue(
    { userId: user.id, username: user.username, globalRole: user.globalRole },
    now,
  );
  return { accessToken, expiresIn: deps.accessTokens.ttlSeconds, tokenType: 'Bearer' as const };
}

/**
 * Exchanges a refresh token for a new access token and a new refresh token. The presented token is
 * retired; presenting a retired token again means it was stolen or replayed, so the whole family
 * (every token of that sign-in) is revoked.
 */
export async function refresh(deps: IdentityDeps, refreshToken: string | undefined): Promise<SessionTokens> {
  if (!refreshToken) throw MarginError.unauthenticated('A refresh token is required.');
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const stored = await deps.storage.refreshTokens.findByHash(sha256Hex(refreshToken));
  if (!stored) throw sessionEnded();
  if (stored.replacedById) {
    await deps.storage.refreshTokens.revokeFamily(stored.familyId, nowIso);
    throw MarginError.unauthenticated('This refresh token was already used; the session has been revoked.');
  }
  const idleLimit = addSeconds(new Date(stored.lastUsedAt), deps.auth.refreshIdleSeconds);
  if (stored.revokedAt || stored.expiresAt <= nowIso || idleLimit <= nowIso) throw sessionEnded();
  const user = await deps.storage.users.findById(stored.userId);
  if (!user?.isActive) throw sessionEnded();
  if ((await tenantSignInRefusal(deps, user, 'session')) === 'tenantDeactivated') throw sessionEnded();

  const next = newRefreshToken(deps.ids);
  const nextId = deps.ids.uuid();
  const rotated = await deps.storage.transaction(async (tx) => {
    if (!(await tx.refreshTokens.markReplaced(stored.id, nextId, nowIso))) return false;
    await tx.refreshTokens.insert({
      id: nextId,
      userId: stored.userId,
      familyId: stored.familyId,
      tokenHash: sha256Hex(next),
      createdAt: nowIso,
      expiresAt: stored.expiresAt, // the absolute limit is never extended
      lastUsedAt: nowIso,
      replacedById: null,
      revokedAt: null,
    });
    return true;
  });
  if (!rotated) {
    // A concurrent refresh with the same token won: this one is a reuse.
    await deps.storage.refreshTokens.revokeFamily(stored.familyId, nowIso);
    throw MarginError.unauthenticated('This refresh token was already used; the session has been revoked.');
  }
  return { ...(await accessTokenFor(deps, user, now)), refreshToken: next, refreshExpiresAt: stored.expiresAt };
}

/**
 * Ends the session of the refresh token in the cookie or, without one, in the body. The body is
 * validated either way (a malformed token is the caller's mistake, 400); a well-formed token that
 * matches nothing is already signed out, so logout stays idempotent.
 */
export async function logout(deps: IdentityDeps, input: unknown, cookieToken?: string): Promise<void> {
  const fromBody = RefreshInput.parse(input ?? {}).refreshToken;
  const refreshToken = cookieToken ?? fromBody;
  if (!refreshToken) return;
  const stored = await deps.storage.refreshTokens.findByHash(sha256Hex(refreshToken));
  if (stored) await deps.storage.refreshTokens.revokeFamily(stored.familyId, deps.clock.now().toISOString());
}

/** Changes the caller's own password and ends all of their sessions (personal access tokens stay). */
export async function changeOwnPassword(deps: IdentityDeps, actor: Actor, input: unknown): Promise<void> {
  requireInteractiveSession(actor);
  const { currentPassword, newPassword } = ChangePasswordInput.parse(input);
  const user = await deps.storage.users.findById(actor.userId);
  if (!user?.passwordHash || !(await verifyPassword(user.passwordHash, currentPassword))) {
    throw MarginError.validation('The current password is not correct.', [
      { path: 'currentPassword', message: 'Not the current password.' },
    ]);
  }
  const now = deps.clock.now().toISOString();
  const passwordHash = await hashPassword(newPassword);
  await deps.storage.transaction(async (tx) => {
    await tx.users.update(user.id, { passwordHash, updatedAt: now });
    await tx.refreshTokens.revokeAllForUser(user.id, now);
  });
}
