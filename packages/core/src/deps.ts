import type { AccessCache, AccessTokens, Authorizer, SignInThrottle } from './identity/index.js';
import type { Clock, EventBus, Ids, SecretBox } from './kernel/index.js';
import type { ProviderRegistry } from './provider-registry/index.js';
import type { JobStatusCache } from './reviewing/index.js';
import type { StorageV1 } from './storage/index.js';

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

/** What every use case may use. Built once by `createMarginCore`. */
export interface CoreDeps {
  storage: StorageV1;
  secrets: SecretBox;
  clock: Clock;
  ids: Ids;
  events: EventBus;
  providers: ProviderRegistry;
  auth: AuthSettings;
  accessTokens: AccessTokens;
  /** Who is active and who may do what, briefly cached; use cases that change it forget entries. */
  accessCache: AccessCache;
  authz: Authorizer;
  /** Job records for status reads; every job change made through core forgets the job. */
  jobStatusCache: JobStatusCache;
  /** Sign-in lockout per username and address, slow-down per username. */
  signInThrottle: SignInThrottle;
}
