import { MarginError } from './errors.js';
import type { GlobalRole } from './roles.js';

/**
 * Who is calling a use case. Built by the host from a verified credential; per-client and
 * per-tenant roles are looked up by the authorization policy when a rule needs them.
 */
export interface Actor {
  userId: string;
  username: string;
  globalRole: GlobalRole;
  /** How the caller proved who they are. */
  via: 'accessToken' | 'personalAccessToken';
}

/**
 * Credential management needs a signed-in session: a leaked PAT must not mint more tokens, revoke
 * the owner's others, or set a password and so turn into a permanent account takeover.
 */
export function requireInteractiveSession(actor: Actor): void {
  if (actor.via === 'personalAccessToken') {
    throw MarginError.forbidden(
      'A personal access token cannot manage personal access tokens or change a password; sign in to do that.',
    );
  }
}

/** Installation-wide actions (users, licensing, new tenants) are the platform administrator's alone. */
export function requirePlatformAdmin(actor: Actor): void {
  if (actor.globalRole !== 'platformAdmin') throw MarginError.forbidden('Platform administrator role required.');
}
