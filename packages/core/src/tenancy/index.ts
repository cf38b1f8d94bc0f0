export {
  ClientList,
  ClientView,
  CreateClientInput,
  CreateTenantInput,
  PatchClientInput,
  PatchTenantInput,
  TenantList,
  TenantView,
} from './schemas.js';
export {
  type ClientAccess,
  type ClientListFilter,
  type ClientRecord,
  type ClientsRepository,
  SYSTEM_TENANT_ID,
  type TenantRecord,
  type TenantsRepository,
} from './tenancy-records.js';
