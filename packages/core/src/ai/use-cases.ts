import type { AiPurpose } from '../ai-model/index.js';
import type { Actor } from '../kernel/index.js';
import type { AiDeps } from './ai-deps.js';
import * as checks from './connection-checks.js';
import * as connections from './connections.js';
import * as logicalModels from './logical-models.js';
import * as catalog from './model-catalog.js';
import { type BoundResolvePurpose, resolvePurpose } from './resolve-purpose.js';
import type {
  AiConnectionListBody,
  AiConnectionViewBody,
  AiDiscoveryResultViewBody,
  AiProbeResultViewBody,
  AiVerificationViewBody,
  CatalogModelListBody,
  CatalogModelViewBody,
  CatalogProviderListBody,
  ClientLogicalModelsViewBody,
  LogicalModelViewBody,
  PermittedProvidersViewBody,
  PriceOverrideListBody,
  PriceOverrideViewBody,
  PurposeMappingViewBody,
  TenantAiPolicyViewBody,
  TenantLogicalModelListBody,
} from './schemas.js';
import * as aiPolicy from './tenant-ai-policy.js';

/** AI connections, logical models and purposes, and the tenant's model catalog. */
export interface AiUseCases {
  listPermittedAiProviders(actor: Actor, clientId: string): Promise<PermittedProvidersViewBody>;
  createAiConnection(actor: Actor, clientId: string, input: unknown): Promise<AiConnectionViewBody>;
  listAiConnections(actor: Actor, clientId: string, query: unknown): Promise<AiConnectionListBody>;
  getAiConnection(actor: Actor, clientId: string, connectionId: string): Promise<AiConnectionViewBody>;
  patchAiConnection(
    actor: Actor,
    clientId: string,
    connectionId: string,
    input: unknown,
  ): Promise<AiConnectionViewBody>;
  deleteAiConnection(actor: Actor, clientId: string, connectionId: string): Promise<void>;
  attachCatalogModel(
    actor: Actor,
    clientId: string,
    connectionId: string,
    input: unknown,
  ): Promise<AiConnectionViewBody>;
  listClientCatalogModels(actor: Actor, clientId: string, query: unknown): Promise<CatalogModelListBody>;
  probeAiConnection(actor: Actor, clientId: string, input: unknown): Promise<AiProbeResultViewBody>;
  discoverAiModels(actor: Actor, clientId: string, input: unknown): Promise<AiDiscoveryResultViewBody>;
  verifyAiConnection(actor: Actor, clientId: string, connectionId: string): Promise<AiVerificationViewBody>;
  activateAiConnection(actor: Actor, clientId: string, connectionId: string): Promise<AiConnectionViewBody>;
  deactivateAiConnection(actor: Actor, clientId: string, connectionId: string): Promise<AiConnectionViewBody>;
  /** The tenant's own connections: the client routes' shapes, for tenant and platform administrators. */
  listTenantPermittedAiProviders(actor: Actor, tenantId: string): Promise<PermittedProvidersViewBody>;
  createTenantAiConnection(actor: Actor, tenantId: string, input: unknown): Promise<AiConnectionViewBody>;
  listTenantAiConnections(actor: Actor, tenantId: string, query: unknown): Promise<AiConnectionListBody>;
  getTenantAiConnection(actor: Actor, tenantId: string, connectionId: string): Promise<AiConnectionViewBody>;
  patchTenantAiConnection(
    actor: Actor,
    tenantId: string,
    connectionId: string,
    input: unknown,
  ): Promise<AiConnectionViewBody>;
  deleteTenantAiConnection(actor: Actor, tenantId: string, connectionId: string): Promise<void>;
  attachTenantCatalogModel(
    actor: Actor,
    tenantId: string,
    connectionId: string,
    input: unknown,
  ): Promise<AiConnectionViewBody>;
  probeTenantAiConnection(actor: Actor, tenantId: string, input: unknown): Promise<AiProbeResultViewBody>;
  discoverTenantAiModels(actor: Actor, tenantId: string, input: unknown): Promise<AiDiscoveryResultViewBody>;
  verifyTenantAiConnection(actor: Actor, tenantId: string, connectionId: string): Promise<AiVerificationViewBody>;
  activateTenantAiConnection(actor: Actor, tenantId: string, connectionId: string): Promise<AiConnectionViewBody>;
  deactivateTenantAiConnection(actor: Actor, tenantId: string, connectionId: string): Promise<AiConnectionViewBody>;
  listClientLogicalModels(actor: Actor, clientId: string): Promise<ClientLogicalModelsViewBody>;
  createClientLogicalModel(actor: Actor, clientId: string, input: unknown): Promise<LogicalModelViewBody>;
  getClientLogicalModel(actor: Actor, clientId: string, name: string): Promise<LogicalModelViewBody>;
  putClientLogicalModel(actor: Actor, clientId: string, name: string, input: unknown): Promise<void>;
  deleteClientLogicalModel(actor: Actor, clientId: string, name: string): Promise<void>;
  putClientPurpose(actor: Actor, clientId: string, purpose: string, input: unknown): Promise<PurposeMappingViewBody>;
  deleteClientPurpose(actor: Actor, clientId: string, purpose: string): Promise<void>;
  listTenantLogicalModels(actor: Actor, tenantId: string): Promise<TenantLogicalModelListBody>;
  createTenantLogicalModel(actor: Actor, tenantId: string, input: unknown): Promise<LogicalModelViewBody>;
  putTenantLogicalModel(actor: Actor, tenantId: string, name: string, input: unknown): Promise<void>;
  deleteTenantLogicalModel(actor: Actor, tenantId: string, name: string): Promise<void>;
  listCatalogModels(actor: Actor, tenantId: string, query: unknown): Promise<CatalogModelListBody>;
  createCatalogModel(actor: Actor, tenantId: string, input: unknown): Promise<CatalogModelViewBody>;
  deleteCatalogModel(actor: Actor, tenantId: string, modelId: string): Promise<void>;
  listCatalogProviders(actor: Actor, tenantId: string): Promise<CatalogProviderListBody>;
  listPriceOverrides(actor: Actor, tenantId: string): Promise<PriceOverrideListBody>;
  /** `created` tells a new override (201) from a replaced one (200). */
  putPriceOverride(
    actor: Actor,
    tenantId: string,
    input: unknown,
  ): Promise<{ created: boolean; override: PriceOverrideViewBody }>;
  deletePriceOverride(actor: Actor, tenantId: string, overrideId: string): Promise<void>;
  getTenantAiPolicy(actor: Actor, tenantId: string): Promise<TenantAiPolicyViewBody>;
  putTenantAiPolicy(actor: Actor, tenantId: string, input: unknown): Promise<TenantAiPolicyViewBody>;
  /** The model behind a purpose, for work that calls it (no actor: the worker acts for the client). */
  resolvePurpose: BoundResolvePurpose;
}

export function createAiUseCases(deps: AiDeps): AiUseCases {
  return {
    listPermittedAiProviders: (actor, clientId) => checks.permittedProviders(deps, actor, { clientId }),
    createAiConnection: (actor, clientId, input) => connections.createConnection(deps, actor, { clientId }, input),
    listAiConnections: (actor, clientId, query) => connections.listConnections(deps, actor, { clientId }, query),
    getAiConnection: (actor, clientId, connectionId) =>
      connections.getConnection(deps, actor, { clientId }, connectionId),
    patchAiConnection: (actor, clientId, connectionId, input) =>
      connections.patchConnection(deps, actor, { clientId }, connectionId, input),
    deleteAiConnection: (actor, clientId, connectionId) =>
      connections.deleteConnection(deps, actor, { clientId }, connectionId),
    attachCatalogModel: (actor, clientId, connectionId, input) =>
      connections.attachCatalogModel(deps, actor, { clientId }, connectionId, input),
    listClientCatalogModels: (actor, clientId, query) => catalog.listClientCatalogModels(deps, actor, clientId, query),
    probeAiConnection: (actor, clientId, input) => checks.probeConnection(deps, actor, { clientId }, input),
    discoverAiModels: (actor, clientId, input) => checks.discoverModels(deps, actor, { clientId }, input),
    verifyAiConnection: (actor, clientId, connectionId) =>
      checks.verifyConnection(deps, actor, { clientId }, connectionId),
    activateAiConnection: (actor, clientId, connectionId) =>
      checks.activateConnection(deps, actor, { clientId }, connectionId),
    deactivateAiConnection: (actor, clientId, connectionId) =>
      checks.deactivateConnection(deps, actor, { clientId }, connectionId),
    listTenantPermittedAiProviders: (actor, tenantId) => checks.permittedProviders(deps, actor, { tenantId }),
    createTenantAiConnection: (actor, tenantId, input) =>
      connections.createConnection(deps, actor, { tenantId }, input),
    listTenantAiConnections: (actor, tenantId, query) => connections.listConnections(deps, actor, { tenantId }, query),
    getTenantAiConnection: (actor, tenantId, connectionId) =>
      connections.getConnection(deps, actor, { tenantId }, connectionId),
    patchTenantAiConnection: (actor, tenantId, connectionId, input) =>
      connections.patchConnection(deps, actor, { tenantId }, connectionId, input),
    deleteTenantAiConnection: (actor, tenantId, connectionId) =>
      connections.deleteConnection(deps, actor, { tenantId }, connectionId),
    attachTenantCatalogModel: (actor, tenantId, connectionId, input) =>
      connections.attachCatalogModel(deps, actor, { tenantId }, connectionId, input),
    probeTenantAiConnection: (actor, tenantId, input) => checks.probeConnection(deps, actor, { tenantId }, input),
    discoverTenantAiModels: (actor, tenantId, input) => checks.discoverModels(deps, actor, { tenantId }, input),
    verifyTenantAiConnection: (actor, tenantId, connectionId) =>
      checks.verifyConnection(deps, actor, { tenantId }, connectionId),
    activateTenantAiConnection: (actor, tenantId, connectionId) =>
      checks.activateConnection(deps, actor, { tenantId }, connectionId),
    deactivateTenantAiConnection: (actor, tenantId, connectionId) =>
      checks.deactivateConnection(deps, actor, { tenantId }, connectionId),
    listClientLogicalModels: (actor, clientId) => logicalModels.listClientLogicalModels(deps, actor, clientId),
    createClientLogicalModel: (actor, clientId, input) =>
      logicalModels.createClientOverride(deps, actor, clientId, input),
    getClientLogicalModel: (actor, clientId, name) => logicalModels.getClientOverride(deps, actor, clientId, name),
    putClientLogicalModel: (actor, clientId, name, input) =>
      logicalModels.putClientOverride(deps, actor, clientId, name, input),
    deleteClientLogicalModel: (actor, clientId, name) =>
      logicalModels.deleteClientOverride(deps, actor, clientId, name),
    putClientPurpose: (actor, clientId, purpose, input) =>
      logicalModels.putPurpose(deps, actor, clientId, purpose, input),
    deleteClientPurpose: (actor, clientId, purpose) => logicalModels.deletePurpose(deps, actor, clientId, purpose),
    listTenantLogicalModels: (actor, tenantId) => logicalModels.listTenantLogicalModels(deps, actor, tenantId),
    createTenantLogicalModel: (actor, tenantId, input) =>
      logicalModels.createTenantLogicalModel(deps, actor, tenantId, input),
    putTenantLogicalModel: (actor, tenantId, name, input) =>
      logicalModels.putTenantLogicalModel(deps, actor, tenantId, name, input),
    deleteTenantLogicalModel: (actor, tenantId, name) =>
      logicalModels.deleteTenantLogicalModel(deps, actor, tenantId, name),
    listCatalogModels: (actor, tenantId, query) => catalog.listCatalogModels(deps, actor, tenantId, query),
    createCatalogModel: (actor, tenantId, input) => catalog.createCatalogModel(deps, actor, tenantId, input),
    deleteCatalogModel: (actor, tenantId, modelId) => catalog.deleteCatalogModel(deps, actor, tenantId, modelId),
    listCatalogProviders: (actor, tenantId) => catalog.listCatalogProviders(deps, actor, tenantId),
    getTenantAiPolicy: (actor, tenantId) => aiPolicy.getTenantAiPolicy(deps, actor, tenantId),
    putTenantAiPolicy: (actor, tenantId, input) => aiPolicy.putTenantAiPolicy(deps, actor, tenantId, input),
    listPriceOverrides: (actor, tenantId) => catalog.listPriceOverrides(deps, actor, tenantId),
    putPriceOverride: (actor, tenantId, input) => catalog.putPriceOverride(deps, actor, tenantId, input),
    deletePriceOverride: (actor, tenantId, overrideId) =>
      catalog.deletePriceOverride(deps, actor, tenantId, overrideId),
    resolvePurpose: ((clientId: string, purpose: AiPurpose) =>
      resolvePurpose(deps, clientId, purpose)) as BoundResolvePurpose,
  };
}
