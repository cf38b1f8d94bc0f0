export { type AccessTokens, createAccessTokens } from './access-tokens.js';
export { type AuthSettings, DEFAULT_AUTH_SETTINGS } from './auth-settings.js';
export { type BootstrapAdminInput, type BootstrapAdminResult, ensureBootstrapAdmin } from './bootstrap-admin.js';
export type { IdentityDeps, IdentityRepositories } from './identity-deps.js';
export {
  type IdentityProviderPatch,
  type IdentityProviderRecord,
  type IdentityProvidersRepository,
  SSO_DEFAULT_CLIENT_ROLES,
  type SsoDefaultClientRole,
  type UserIdentitiesRepository,
  type UserIdentityRecord,
} from './identity-provider-record.js';

export { hashPassword, verifyPassword } from './passwords.js';
export type { PersonalAccessTokenRecord, PersonalAccessTokensRepository } from './pat-record.js';
export {
  ChangePasswordInput,
  CreateIdentityProviderInput,
  CreatePatInput,
  CreateUserInput,
  IdentityProviderList,
  IdentityProviderView,
  LoginInput,
  MemberList,
  MemberView,
  MeView,
  type MeViewBody,
  PatCreated,
  PatchIdentityProviderInput,
  PatchUserInput,
  PatList,
  PatView,
  PutClientMemberInput,
  PutTenantMemberInput,
  RefreshInput,
  SsoProviderList,
  SsoProvidersQuery,
  TokenResponse,
  UserList,
  UserView,
} from './schemas.js';
export type { RefreshTokenRecord, RefreshTokensRepository } from './session-record.js';
export type { SessionTokens, SignInContext } from './sessions.js';
export type { SignInFailureRecord, SignInFailuresRepository } from './sign-in-failure-record.js';
export { SignInThrottle } from './sign-in-throttle.js';
export {
  SSO_ERROR_CODES,
  type SsoClientConfig,
  type SsoErrorCode,
  type VerifiedSsoClaims,
} from './sso-sign-in.js';
export { createIdentityUseCases, type IdentityUseCases } from './use-cases.js';
export type { UserPatch, UserRecord, UsersRepository } from './user-record.js';
export { UserStateCache } from './user-state-cache.js';
