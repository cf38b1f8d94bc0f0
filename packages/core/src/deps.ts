import type { EventBus } from './events.js';
import type { AccessTokens } from './identity/access-tokens.js';
import type { Authorizer } from './identity/authorization.js';
import type { Clock } from './platform/clock.js';
import type { Ids } from './platform/ids.js';
import type { SecretBox } from './platform/secret-box.js';
import type { ProviderRegistry } from './providers.js';
import type { StorageV1 } from './storage/storage-v1.js';

export interface AuthSettings {
  accessTokenTtlSeconds: number;
  /** A refresh token unused this long ends its session. */
  refreshIdleSeconds: number;
  /** No session outlives this, however active. */
  refreshAbsoluteSeconds: number;
  maxFailedLogins: number;
  lockoutBaseMinutes: number;
  lockoutMaxMinutes: number;
}

export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  accessTokenTtlSeconds: 900,
  refreshIdleSeconds: 8 * 3600,
  refreshAbsoluteSeconds: 72 * 3600,
  maxFailedLogins: 5,
  lockoutBaseMinutes: 15,
  lockoutMaxMinutes: 60,
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
  authz: Authorizer;
}
