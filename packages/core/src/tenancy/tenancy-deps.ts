import type { AuditRepositories, AuditTrail } from '../audit/index.js';
import type { Clock, EventBus, Ids, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { Authorizer } from './authorization.js';
import type { ClientAccessCache } from './client-access-cache.js';
import type { MembershipsRepository } from './membership-record.js';
import type { ClientsRepository, TenantsRepository } from './tenancy-records.js';

/** Tenancy's part of the storage port: tenants, clients and who holds which role on them. */
export interface TenancyRepositories {
  tenants: TenantsRepository;
  clients: ClientsRepository;
  memberships: MembershipsRepository;
}

/** What the tenancy use cases need. */
export interface TenancyDeps {
  storage: StorageSlice<TenancyRepositories & LicensingRepositories & AuditRepositories>;
  clock: Clock;
  ids: Ids;
  events: EventBus;
  authz: Authorizer;
  clientAccess: ClientAccessCache;
  audit: AuditTrail;
}
