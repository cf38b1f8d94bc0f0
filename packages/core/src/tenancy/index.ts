export {
  type Action,
  type Authorizer,
  type AuthorizerDeps,
  type ClientAction,
  clientDeactivated,
  createAuthorizer,
  effectiveClientRole,
  type PlatformAction,
  POLICY,
  type TenantAction,
  tenantDeactivated,
} from './authorization.js';
export { ClientAccessCache } from './client-access-cache.js';
export type { ClientMemberRecord, MembershipsRepository, TenantMemberRecord } from './membership-record.js';
export {
  ClientList,
  type ClientListBody,
  ClientView,
  type ClientViewBody,
  CreateClientInput,
  CreateTenantInput,
  PatchClientInput,
  PatchTenantInput,
  TENANT_SLUG,
  TenantList,
  type TenantListBody,
  TenantView,
  type TenantViewBody,
} from './schemas.js';
export type { TenancyDeps, TenancyRepositories } from './tenancy-deps.js';
export {
  type ClientAccess,
  type ClientListFilter,
  type ClientRecord,
  type ClientsRepository,
  LOGIN_POLICIES,
  type LoginPolicy,
  type TenantRecord,
  type TenantsRepository,
} from './tenancy-records.js';
export { createTenancyUseCases, type TenancyUseCases } from './use-cases.js';
