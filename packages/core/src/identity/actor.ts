import type { GlobalRole } from './user-record.js';

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
