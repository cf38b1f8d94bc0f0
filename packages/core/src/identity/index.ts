export { type AccessTokens, createAccessTokens } from './access-tokens.js';
export type { Actor } from './actor.js';
export { type Action, type Authorizer, createAuthorizer, effectiveClientRole, POLICY } from './authorization.js';
export { type BootstrapAdminInput, type BootstrapAdminResult, ensureBootstrapAdmin } from './bootstrap-admin.js';
export { MeView } from './me-schema.js';
export type { ClientMemberRecord, MembershipsRepository, TenantMemberRecord } from './membership-record.js';
export { hashPassword, verifyPassword } from './passwords.js';
export type { PersonalAccessTokenRecord, PersonalAccessTokensRepository } from './pat-record.js';
export { CLIENT_ROLES, type ClientRole, clientRoleAtLeast, TENANT_ROLES, type TenantRole } from './roles.js';
export {
  ChangePasswordInput,
  CreatePatInput,
  CreateUserInput,
  LoginInput,
  MemberList,
  MemberView,
  PageQuery,
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
export { GLOBAL_ROLES, type GlobalRole, type UserPatch, type UserRecord, type UsersRepository } from './user-record.js';
