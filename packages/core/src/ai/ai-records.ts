import type {
  AiFailureCategory,
  AiProviderKind,
  AiPurpose,
  OperationKind,
  ProtocolMode,
  ReasoningEffort,
} from '../ai-model/index.js';
import type { Page, PageRequest } from '../kernel/index.js';
import { VERIFICATION_STATUSES, type VerificationStatus } from '../kernel/index.js';

export const AUTH_MODES = ['apiKey', 'azureIdentity'] as const;
export type AiAuthMode = (typeof AUTH_MODES)[number];

export const DISCOVERY_MODES = ['providerCatalog', 'manualOnly'] as const;
export type DiscoveryMode = (typeof DISCOVERY_MODES)[number];

export const MODEL_SOURCES = ['discovered', 'manual', 'knownCatalog'] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];

export const AI_FAILURE_CATEGORIES = [
  'credentials',
  'endpointReachability',
  'authorization',
  'providerRejected',
  'capabilityMismatch',
  'policy',
  'unknown',
] as const satisfies readonly AiFailureCategory[];

/** One model a profile can serve, with the service's id (logical models point at it). */
/** What describes a model wherever it is listed: on a connection, in a catalog, built in. */
export interface ModelTraits {
  remoteModelId: string;
  displayName: string;
  /** Never empty: inferred when the caller gave none. */
  operationKinds: OperationKind[];
  tokenizerName: string | null;
  maxInputTokens: number | null;
  embeddingDimensions: number | null;
  supportsStructuredOutput: boolean;
  supportsToolUse: boolean;
  maxContextTokens: number | null;
  inputCostPer1MUsd: number | null;
  outputCostPer1MUsd: number | null;
  cachedInputCostPer1MUsd: number | null;
}

export interface ConfiguredModelRecord extends ModelTraits {
  id: string;
  /** Never empty: inferred when the caller gave none. */
  supportedProtocolModes: ProtocolMode[];
  source: ModelSource;
  lastSeenAt: string | null;
}

export interface PurposeBindingRecord {
  purpose: AiPurpose;
  configuredModelId: string;
  protocolMode: ProtocolMode;
  isEnabled: boolean;
}

export interface VerificationRecord {
  status: VerificationStatus;
  failureCategory: AiFailureCategory | null;
  summary: string;
  /** Null until the first verification. */
  checkedAt: string | null;
  warnings: string[];
}

export interface AiConnectionRecord {
  id: string;
  /** The owning client; null for a tenant-owned connection. Exactly one of the two owners is set. */
  clientId: string | null;
  /** The owning tenant of a tenant-owned connection (its catalog entries may point at it); else null. */
  ownerTenantId: string | null;
  displayName: string;
  providerKind: AiProviderKind;
  /** Empty: the kind's public endpoint (kinds that have one). */
  baseUrl: string;
  authMode: AiAuthMode;
  /** `SecretBox`-sealed API key; null for `azureIdentity` or an empty key. Never leaves core. */
  sealedApiKey: string | null;
  discoveryMode: DiscoveryMode;
  defaultHeaders: Record<string, string>;
  defaultQueryParams: Record<string, string>;
  /** In the order the caller gave them. */
  configuredModels: ConfiguredModelRecord[];
  purposeBindings: PurposeBindingRecord[];
  isActive: boolean;
  /**
   * Bumped by every change that resets verification. A verification is stored only if the profile
   * is still at the revision it verified, so an edit made during a slow verify is never blessed.
   */
  revision: number;
  verification: VerificationRecord;
  createdAt: string;
  updatedAt: string;
}

export interface AiConnectionsRepository {
  /** Throws `conflict` when the owner (client or tenant) already has a profile of that name (case-insensitive). */
  insert(connection: AiConnectionRecord): Promise<void>;
  /** With its models and bindings. */
  findById(id: string): Promise<AiConnectionRecord | undefined>;
  /** Oldest first, with models and bindings, in a fixed number of queries. */
  listByClient(clientId: string, page: PageRequest): Promise<Page<AiConnectionRecord>>;
  /** The tenant's own profiles (not its clients'), oldest first, like `listByClient`. */
  listByTenant(tenantId: string, page: PageRequest): Promise<Page<AiConnectionRecord>>;
  /** Replaces the whole profile, models and bindings included. Throws `conflict` like `insert`. */
  update(connection: AiConnectionRecord): Promise<void>;
  /** Stores a verification only while the profile is still at `revision`; false otherwise. */
  recordVerification(id: string, revision: number, verification: VerificationRecord, at: string): Promise<boolean>;
  setActive(id: string, isActive: boolean, at: string): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** The enabled binding of `purpose` on the client's own active profiles, oldest profile first. */
  findActiveBinding(
    clientId: string,
    purpose: AiPurpose,
  ): Promise<{ connectionId: string; binding: PurposeBindingRecord } | undefined>;
}

export type LogicalModelOwnerKind = 'client' | 'tenant';

/** A name pointing at one configured model: a client override or a tenant-catalog entry. */
export interface LogicalModelRecord {
  id: string;
  ownerKind: LogicalModelOwnerKind;
  /** The client id (overrides) or the tenant id (catalog entries). */
  ownerId: string;
  name: string;
  capability: OperationKind;
  connectionId: string;
  configuredModelId: string;
  reasoningEffort: ReasoningEffort;
  protocolMode: ProtocolMode;
  createdAt: string;
  updatedAt: string;
}

/** Which logical model serves a purpose for a client. */
export interface PurposeMappingRecord {
  clientId: string;
  purpose: AiPurpose;
  logicalModelName: string;
  updatedAt: string;
}

export interface AiLogicalModelsRepository {
  /** Throws `conflict` when the owner already has that name (case-insensitive). */
  insert(model: LogicalModelRecord): Promise<void>;
  /** Case-insensitive on the name. */
  find(ownerKind: LogicalModelOwnerKind, ownerId: string, name: string): Promise<LogicalModelRecord | undefined>;
  /** By name. */
  list(ownerKind: LogicalModelOwnerKind, ownerId: string): Promise<LogicalModelRecord[]>;
  /** Replaces the record with the same id. */
  update(model: LogicalModelRecord): Promise<void>;
  delete(ownerKind: LogicalModelOwnerKind, ownerId: string, name: string): Promise<boolean>;
  /** Every client override and tenant entry that points at the connection. */
  listByConnection(connectionId: string): Promise<LogicalModelRecord[]>;
  putPurpose(mapping: PurposeMappingRecord): Promise<void>;
  findPurpose(clientId: string, purpose: AiPurpose): Promise<PurposeMappingRecord | undefined>;
  /** In the order of `AI_PURPOSES`. */
  listPurposes(clientId: string): Promise<PurposeMappingRecord[]>;
  deletePurpose(clientId: string, purpose: AiPurpose): Promise<boolean>;
  /**
   * Purpose mappings of the tenant's clients to `name` (case-insensitive) that no override of the
   * same client shadows: the mappings that depend on the tenant entry of that name.
   */
  listTenantNameMappings(tenantId: string, name: string): Promise<PurposeMappingRecord[]>;
}

/** A model a tenant defined by hand in its catalog. */
export interface CatalogModelRecord extends ModelTraits {
  id: string;
  tenantId: string;
  providerKind: AiProviderKind;
  createdAt: string;
}

/** A tenant's own prices for a catalog model. Null keeps the catalog's price. */
export interface PriceOverrideRecord {
  id: string;
  tenantId: string;
  providerKind: AiProviderKind;
  remoteModelId: string;
  inputCostPer1MUsd: number | null;
  outputCostPer1MUsd: number | null;
  cachedInputCostPer1MUsd: number | null;
  updatedAt: string;
}

export interface AiModelCatalogRepository {
  /** Throws `conflict` when the tenant already defined that kind and model id (case-insensitive). */
  insertModel(model: CatalogModelRecord): Promise<void>;
  /** By provider kind, then model id. */
  listModels(tenantId: string): Promise<CatalogModelRecord[]>;
  deleteModel(tenantId: string, id: string): Promise<boolean>;
  /** Upsert by tenant, kind and model id (case-insensitive); an existing override keeps its id. */
  putPriceOverride(override: PriceOverrideRecord): Promise<{ created: boolean; override: PriceOverrideRecord }>;
  /** By provider kind, then model id. */
  listPriceOverrides(tenantId: string): Promise<PriceOverrideRecord[]>;
  deletePriceOverride(tenantId: string, id: string): Promise<boolean>;
}

export { VERIFICATION_STATUSES, type VerificationStatus };

/** A tenant's limits on where its clients' AI connections may send calls; null: no limit of that sort. */
export interface TenantAiPolicyRecord {
  tenantId: string;
  permittedProviderKinds: string[] | null;
  /** Exact hosts, or `.suffix` for any host below the suffix. */
  permittedHosts: string[] | null;
  updatedAt: string;
}

export interface TenantAiPoliciesRepository {
  find(tenantId: string): Promise<TenantAiPolicyRecord | undefined>;
  /** Inserts or replaces the tenant's policy. */
  save(policy: TenantAiPolicyRecord): Promise<void>;
}
