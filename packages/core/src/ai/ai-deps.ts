import type { AuditRepositories, AuditTrail } from '../audit/index.js';
import type { Clock, Ids, SecretBox, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { ProviderRegistry } from '../provider-registry/index.js';
import type { Authorizer, TenancyRepositories } from '../tenancy/index.js';
import type {
  AiConnectionsRepository,
  AiLogicalModelsRepository,
  AiModelCatalogRepository,
  TenantAiPoliciesRepository,
} from './ai-records.js';

/** The AI capability's part of the storage port: connections, logical models and the model catalog. */
export interface AiRepositories {
  aiConnections: AiConnectionsRepository;
  aiLogicalModels: AiLogicalModelsRepository;
  aiModelCatalog: AiModelCatalogRepository;
  tenantAiPolicies: TenantAiPoliciesRepository;
}

export interface AiSettings {
  /** `MARGIN_ALLOW_PRIVATE_EGRESS`: profiles may name loopback/private hosts and plain http. */
  allowPrivateEgress: boolean;
}

/** Every repository the AI use cases reach, inside a transaction too. */
export type AiStorageRepositories = AiRepositories & TenancyRepositories & LicensingRepositories & AuditRepositories;

/** What resolving a purpose to a model needs (workers and reviews act for a client without an actor). */
export interface ResolveDeps {
  storage: AiRepositories & Pick<TenancyRepositories, 'clients'> & LicensingRepositories;
  secrets: SecretBox;
  providers: ProviderRegistry;
}

/** What the AI use cases need. */
export interface AiDeps extends ResolveDeps {
  storage: StorageSlice<AiStorageRepositories>;
  clock: Clock;
  ids: Ids;
  authz: Authorizer;
  ai: AiSettings;
  audit: AuditTrail;
}
