import type { AuditRepositories, AuditTrail } from '../audit/index.js';
import type { Clock, EventBus, Ids, SecretBox, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { Authorizer, ClientAccessCache, TenancyRepositories } from '../tenancy/index.js';
import type { AccessTokens } from './access-tokens.js';
import type { AuthSettings } from './auth-settings.js';
import type { IdentityProvidersRepository, UserIdentitiesRepository } from './identity-provider-record.js';
import type { PersonalAccessTokensRepository } from './pat-record.js';
import type { RefreshTokensRepository } from './session-record.js';
import type { SignInFailuresRepository } from './sign-in-failure-record.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { UsersRepository } from './user-record.js';
import type { UserStateCache } from './user-state-cache.js';

/** Identity's part of the storage port: users and their credentials. */
export interface IdentityRepositories {
  users: UsersRepository;
  refreshTokens: RefreshTokensRepository;
  personalAccessTokens: PersonalAccessTokensRepository;
  signInFailures: SignInFailuresRepository;
  identityProviders: IdentityProvidersRepository;
  userIdentities: UserIdentitiesRepository;
}

/** What the identity use cases need. */
export interface IdentityDeps {
  storage: StorageSlice<IdentityRepositories & TenancyRepositories & LicensingRepositories & AuditRepositories>;
  clock: Clock;
  ids: Ids;
  events: EventBus;
  /** Seals identity providers' client secrets. */
  secrets: SecretBox;
  /** `MARGIN_ALLOW_PRIVATE_EGRESS`: an issuer may be plain http or on a loopback/private address. */
  allowPrivateEgress: boolean;
  auth: AuthSettings;
  accessTokens: AccessTokens;
  userStates: UserStateCache;
  clientAccess: ClientAccessCache;
  authz: Authorizer;
  signInThrottle: SignInThrottle;
  audit: AuditTrail;
}
