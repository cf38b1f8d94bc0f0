export { AccessCache } from './access-cache.js';
export { type AccessTokens, createAccessTokens } from './access-tokens.js';
export { authenticateAccessToken, authenticatePersonalAccessToken } from './authenticate.js';
export { type Action, type Authorizer, createAuthorizer, effectiveClientRole, POLICY } from './authorization.js';
export { type BootstrapAdminInput, type BootstrapAdminResult, ensureBootstrapAdmin } from './bootstrap-admin.js';
export { getMe } from './me.js';
export { MeView } from './me-schema.js';
export type { ClientMemberRecord, MembershipsRepository, TenantMemberRecord } from './membership-record.js';
export { hashPassword, verifyPassword } from './passwords.js';
export type { PersonalAccessTokenRecord, PersonalAccessTokensRepository } from './pat-record.js';
export {
  ChangePasswordInput,
  CreatePatInput,
  CreateUserInput,
  LoginInput,
  MemberList,
  MemberView,
  PatCreated,
  PatchUserInput,
  PatList,
  PatView,
  PutClientMemberInput,
  PutTenantMemberInput,
  RefreshInput,
  TokenResponse,
  UserList,
  UserView,
} from './schemas.js';
export type { RefreshTokenRecord, RefreshTokensRepository } from './session-record.js';
export type { SessionTokens, SignInContext } from './sessions.js';
export type { SignInFailureRecord, SignInFailuresRepository } from './sign-in-failure-record.js';
export { SignInThrottle } from './sign-in-throttle.js';
export type { UserPatch, UserRecord, UsersRepository } from './user-record.js';
