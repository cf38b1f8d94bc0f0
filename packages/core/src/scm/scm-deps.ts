import type { AuditRepositories, AuditTrail } from '../audit/index.js';
import type { Clock, Ids, SecretBox, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { ProviderRegistry } from '../provider-registry/index.js';
import type { Authorizer, TenancyRepositories } from '../tenancy/index.js';
import type {
  ProviderConnectionsRepository,
  ProviderScopesRepository,
  ReviewerIdentitiesRepository,
} from './connection-records.js';

/** Source control's part of the storage port: connections, their scopes and reviewer identities. */
export interface ScmRepositories {
  providerConnections: ProviderConnectionsRepository;
  providerScopes: ProviderScopesRepository;
  reviewerIdentities: ReviewerIdentitiesRepository;
}

/** What opening a provider from a stored connection needs (workers, triggers, reviews). */
export interface ScmConnectDeps {
  storage: Pick<ScmRepositories, 'providerConnections' | 'providerScopes'>;
  secrets: SecretBox;
  providers: ProviderRegistry;
}

/** What the source-control use cases need. */
export interface ScmDeps extends ScmConnectDeps {
  storage: StorageSlice<ScmRepositories & TenancyRepositories & LicensingRepositories & AuditRepositories>;
  clock: Clock;
  ids: Ids;
  authz: Authorizer;
  audit: AuditTrail;
}
