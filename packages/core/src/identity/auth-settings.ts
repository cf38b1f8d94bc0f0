/** Session lifetimes, sign-in lockout and how long access checks may be served from memory. */
export interface AuthSettings {
  accessTokenTtlSeconds: number;
  /** A refresh token unused this long ends its session. */
  refreshIdleSeconds: number;
  /** No session outlives this, however active. */
  refreshAbsoluteSeconds: number;
  /** Consecutive failures of one username from one address that lock that pair. */
  maxFailedLogins: number;
  lockoutBaseMinutes: number;
  lockoutMaxMinutes: number;
  /** How long another host's change to a user or role may take to reach this one. 0 disables the cache. */
  accessCacheMs: number;
}

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  accessTokenTtlSeconds: 900,
  refreshIdleSeconds: 8 * 3600,
  refreshAbsoluteSeconds: 72 * 3600,
  maxFailedLogins: 5,
  lockoutBaseMinutes: 15,
  lockoutMaxMinutes: 60,
  accessCacheMs: 2000,
};
