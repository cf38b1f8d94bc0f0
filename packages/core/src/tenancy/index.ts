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
export type {
  ClientAccess,
  ClientListFilter,
  ClientRecord,
  ClientsRepository,
  TenantRecord,
  TenantsRepository,
} from './tenancy-records.js';
