import type { AiProviderKind, AiProviderKindV1, ModelPrices } from '../ai-model/index.js';
import type { AuditRepositories } from '../audit/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { readLicensing, requireMultiTenancy } from '../licensing/index.js';
import { requestedAiKind } from '../provider-registry/index.js';
import type { TenantRecord } from '../tenancy/index.js';
import type { AiDeps, ResolveDeps } from './ai-deps.js';
import type { CatalogModelRecord, ModelTraits, PriceOverrideRecord } from './ai-records.js';
import { inferOperationKinds, modesOf } from './profile-rules.js';
import { CatalogModelInput, CatalogModelQuery, PriceOverrideInput } from './schemas.js';

export interface CatalogEntry extends ModelTraits {
  id: string;
  providerKind: AiProviderKind;
  isBuiltIn: boolean;
  priceOverridden: boolean;
}

const catalogKey = (kind: string, remoteModelId: string) => `${kind}\u0000${remoteModelId.toLowerCase()}`;

/** The models each registered kind lists out of the box; a plugin's kind brings its own. */
function builtInCatalog(kinds: readonly AiProviderKindV1[]): CatalogEntry[] {
  return kinds.flatMap((kind) =>
    (kind.knownModels ?? []).map((m) => ({
      id: `builtin:${kind.kind}:${m.remoteModelId}`,
      providerKind: kind.kind,
      remoteModelId: m.remoteModelId,
      displayName: m.displayName,
      operationKinds: [...m.operationKinds],
      tokenizerName: m.tokenizerName ?? null,
      maxInputTokens: m.maxInputTokens ?? null,
      embeddingDimensions: m.embeddingDimensions ?? null,
      supportsStructuredOutput: m.supportsStructuredOutput,
      supportsToolUse: m.supportsToolUse,
      maxContextTokens: m.maxContextTokens ?? null,
      inputCostPer1MUsd: m.inputCostPer1MUsd ?? null,
      outputCostPer1MUsd: m.outputCostPer1MUsd ?? null,
      cachedInputCostPer1MUsd: m.cachedInputCostPer1MUsd ?? null,
      isBuiltIn: true,
      priceOverridden: false,
    })),
  );
}

const fromRecord = (r: CatalogModelRecord): CatalogEntry => ({
  id: r.id,
  providerKind: r.providerKind,
  remoteModelId: r.remoteModelId,
  displayName: r.displayName,
  operationKinds: [...r.operationKinds],
  tokenizerName: r.tokenizerName,
  maxInputTokens: r.maxInputTokens,
  embeddingDimensions: r.embeddingDimensions,
  supportsStructuredOutput: r.supportsStructuredOutput,
  supportsToolUse: r.supportsToolUse,
  maxContextTokens: r.maxContextTokens,
  inputCostPer1MUsd: r.inputCostPer1MUsd,
  outputCostPer1MUsd: r.outputCostPer1MUsd,
  cachedInputCostPer1MUsd: r.cachedInputCostPer1MUsd,
  isBuiltIn: false,
  priceOverridden: false,
});

function withOverride(entry: CatalogEntry, override: PriceOverrideRecord | undefined): CatalogEntry {
  if (!override) return entry;
  return {
    ...entry,
    inputCostPer1MUsd: override.inputCostPer1MUsd ?? entry.inputCostPer1MUsd,
    outputCostPer1MUsd: override.outputCostPer1MUsd ?? entry.outputCostPer1MUsd,
    cachedInputCostPer1MUsd: override.cachedInputCostPer1MUsd ?? entry.cachedInputCostPer1MUsd,
    priceOverridden: true,
  };
}

/**
 * The catalog a tenant sees: the built-in models, its hand-defined ones, and its price overrides.
 * `withTenantParts: false` gives the built-in catalog alone (tenant parts are a Commercial feature
 * and stop being exercised in Community).
 */
export async function effectiveCatalog(
  deps: Pick<ResolveDeps, 'storage' | 'providers'>,
  tenantId: string,
  withTenantParts = true,
): Promise<CatalogEntry[]> {
  const builtIn = builtInCatalog(deps.providers.ai);
  if (!withTenantParts) return builtIn;
  const [own, overrides] = await Promise.all([
    deps.storage.aiModelCatalog.listModels(tenantId),
    deps.storage.aiModelCatalog.listPriceOverrides(tenantId),
  ]);
  const byKey = new Map(overrides.map((o) => [catalogKey(o.providerKind, o.remoteModelId), o]));
  return [...builtIn, ...own.map(fromRecord)].map((e) =>
    withOverride(e, byKey.get(catalogKey(e.providerKind, e.remoteModelId))),
  );
}

/** The catalog entry of a model, when there is one. */
export function findCatalogEntry(
  catalog: readonly CatalogEntry[],
  providerKind: AiProviderKind,
  remoteModelId: string,
): CatalogEntry | undefined {
  const key = catalogKey(providerKind, remoteModelId);
  return catalog.find((e) => catalogKey(e.providerKind, e.remoteModelId) === key);
}

/** Whether the tenant's catalog parts take part (Commercial only; the System tenant never has any). */
export async function tenantCatalogInUse(deps: Pick<ResolveDeps, 'storage'>, tenantId: string): Promise<boolean> {
  return tenantId !== SYSTEM_TENANT_ID && (await readLicensing(deps)).edition === 'Commercial';
}

/** Prices for cost: the configured model's own, else the tenant catalog's, else the built-in list. */
export async function catalogPrices(
  deps: Pick<ResolveDeps, 'storage' | 'providers'>,
  tenantId: string,
  providerKind: AiProviderKind,
  remoteModelId: string,
): Promise<ModelPrices> {
  const catalog = await effectiveCatalog(deps, tenantId, await tenantCatalogInUse(deps, tenantId));
  const entry = findCatalogEntry(catalog, providerKind, remoteModelId);
  return {
    inputCostPer1MUsd: entry?.inputCostPer1MUsd ?? undefined,
    outputCostPer1MUsd: entry?.outputCostPer1MUsd ?? undefined,
    cachedInputCostPer1MUsd: entry?.cachedInputCostPer1MUsd ?? undefined,
  };
}

/**
 * Tenant-catalog writes (decisions.md): refused with 400 for the System tenant, whose clients use
 * client overrides, and with 409 `license_required` in Community, which has no tenant catalog.
 */
export async function assertTenantCatalogWritable(deps: Pick<ResolveDeps, 'storage'>, tenant: TenantRecord) {
  if (tenant.id === SYSTEM_TENANT_ID) {
    throw MarginError.validation(
      'The System tenant has no tenant catalog: define logical models as client overrides, and prices on the configured models.',
    );
  }
  await requireMultiTenancy(deps, 'The tenant model catalog');
}

function catalogListing(catalog: CatalogEntry[], providerKind: AiProviderKind | undefined) {
  const items = catalog
    .filter((e) => !providerKind || e.providerKind === providerKind)
    .sort((a, b) => a.providerKind.localeCompare(b.providerKind) || a.remoteModelId.localeCompare(b.remoteModelId));
  return { items };
}

export async function listCatalogModels(deps: AiDeps, actor: Actor, tenantId: string, query: unknown) {
  const { providerKind } = CatalogModelQuery.parse(query);
  if (providerKind) requestedAiKind(deps.providers, providerKind, 'providerKind');
  await deps.authz.requireTenant(actor, 'tenants.catalog.read', tenantId);
  return catalogListing(await effectiveCatalog(deps, tenantId), providerKind);
}

/** The catalog a client's connections draw on: its tenant's, with the tenant parts only where in use. */
export async function clientCatalog(
  deps: Pick<ResolveDeps, 'storage' | 'providers'>,
  tenantId: string,
): Promise<CatalogEntry[]> {
  return effectiveCatalog(deps, tenantId, await tenantCatalogInUse(deps, tenantId));
}

/**
 * Catalog browsing for a client's administrators, in both editions (spec §8): they hold no tenant
 * role, so the tenant's own path is not theirs.
 */
export async function listClientCatalogModels(deps: AiDeps, actor: Actor, clientId: string, query: unknown) {
  const { providerKind } = CatalogModelQuery.parse(query);
  if (providerKind) requestedAiKind(deps.providers, providerKind, 'providerKind');
  const client = await deps.authz.requireClient(actor, 'ai.connections.manage', clientId);
  return catalogListing(await clientCatalog(deps, client.tenantId), providerKind);
}

/** Records a change to a tenant's AI catalog (logical models, catalog models, prices) in the audit trail. */
export function auditTenantAi(
  deps: AiDeps,
  tx: AuditRepositories,
  actor: Actor,
  tenantId: string,
  change: {
    resourceType: 'tenantLogicalModel' | 'tenantModelCatalog';
    verb: string;
    resourceId: string;
    summary: string;
  },
): Promise<void> {
  return deps.audit.record(tx, actor, { ...change, tenantId });
}

/** Hand-defines a model in the tenant's catalog (Commercial, not the System tenant). */
export async function createCatalogModel(deps: AiDeps, actor: Actor, tenantId: string, input: unknown) {
  const req = CatalogModelInput.parse(input);
  requestedAiKind(deps.providers, req.providerKind, 'providerKind');
  const operationKinds = req.operationKinds ? [...new Set(req.operationKinds)] : inferOperationKinds(req);
  if (operationKinds.includes('embedding')) {
    const missing = (['tokenizerName', 'maxInputTokens', 'embeddingDimensions'] as const).filter((f) => req[f] == null);
    if (missing.length > 0) {
      throw MarginError.validation(
        `An embedding model needs ${missing.join(', ')}.`,
        missing.map((path) => ({ path, message: `${path} is required for an embedding model.` })),
      );
    }
  }
  const tenant = await deps.authz.requireTenant(actor, 'tenants.catalog.manage', tenantId);
  await assertTenantCatalogWritable(deps, tenant);
  if (findCatalogEntry(builtInCatalog(deps.providers.ai), req.providerKind, req.remoteModelId)) {
    throw MarginError.conflict(
      `${req.remoteModelId} is already in the built-in catalog for ${req.providerKind}; override its prices instead.`,
    );
  }
  const record: CatalogModelRecord = {
    id: deps.ids.uuid(),
    tenantId,
    providerKind: req.providerKind,
    remoteModelId: req.remoteModelId,
    displayName: req.displayName ?? req.remoteModelId,
    operationKinds,
    tokenizerName: req.tokenizerName ?? null,
    maxInputTokens: req.maxInputTokens ?? null,
    embeddingDimensions: req.embeddingDimensions ?? null,
    supportsStructuredOutput: req.supportsStructuredOutput ?? false,
    supportsToolUse: req.supportsToolUse ?? false,
    maxContextTokens: req.maxContextTokens ?? null,
    inputCostPer1MUsd: req.inputCostPer1MUsd ?? null,
    outputCostPer1MUsd: req.outputCostPer1MUsd ?? null,
    cachedInputCostPer1MUsd: req.cachedInputCostPer1MUsd ?? null,
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.storage.transaction(async (tx) => {
    await tx.aiModelCatalog.insertModel(record);
    await auditTenantAi(deps, tx, actor, tenantId, {
      resourceType: 'tenantModelCatalog',
      verb: 'modelCreated',
      resourceId: record.id,
      summary: `added ${record.providerKind} model '${record.remoteModelId}' to the catalog`,
    });
  });
  return fromRecord(record);
}

export async function deleteCatalogModel(deps: AiDeps, actor: Actor, tenantId: string, modelId: string) {
  const tenant = await deps.authz.requireTenant(actor, 'tenants.catalog.manage', tenantId);
  await assertTenantCatalogWritable(deps, tenant);
  await deps.storage.transaction(async (tx) => {
    if (!(await tx.aiModelCatalog.deleteModel(tenantId, modelId))) {
      throw MarginError.notFound(
        modelId.startsWith('builtin:') ? 'Built-in catalog models cannot be deleted.' : 'Catalog model not found.',
      );
    }
    await auditTenantAi(deps, tx, actor, tenantId, {
      resourceType: 'tenantModelCatalog',
      verb: 'modelDeleted',
      resourceId: modelId,
      summary: 'removed a model from the catalog',
    });
  });
}

/** The provider kinds this build can call, with how many catalog models each has. */
export async function listCatalogProviders(deps: AiDeps, actor: Actor, tenantId: string) {
  await deps.authz.requireTenant(actor, 'tenants.catalog.read', tenantId);
  const catalog = await effectiveCatalog(deps, tenantId);
  return {
    items: deps.providers.ai.map((k) => ({
      providerKind: k.kind,
      protocolModes: modesOf(k),
      supportsDiscovery: k.supportsDiscovery,
      catalogModelCount: catalog.filter((e) => e.providerKind === k.kind).length,
    })),
  };
}

const overrideView = (o: PriceOverrideRecord) => ({
  id: o.id,
  providerKind: o.providerKind,
  remoteModelId: o.remoteModelId,
  inputCostPer1MUsd: o.inputCostPer1MUsd,
  outputCostPer1MUsd: o.outputCostPer1MUsd,
  cachedInputCostPer1MUsd: o.cachedInputCostPer1MUsd,
  updatedAt: o.updatedAt,
});

export async function listPriceOverrides(deps: AiDeps, actor: Actor, tenantId: string) {
  await deps.authz.requireTenant(actor, 'tenants.catalog.read', tenantId);
  return { items: (await deps.storage.aiModelCatalog.listPriceOverrides(tenantId)).map(overrideView) };
}

/** Sets the tenant's prices for a catalog model; 201 when new, 200 when it replaced one. */
export async function putPriceOverride(deps: AiDeps, actor: Actor, tenantId: string, input: unknown) {
  const req = PriceOverrideInput.parse(input);
  requestedAiKind(deps.providers, req.providerKind, 'providerKind');
  const tenant = await deps.authz.requireTenant(actor, 'tenants.catalog.manage', tenantId);
  await assertTenantCatalogWritable(deps, tenant);
  const entry = findCatalogEntry(await effectiveCatalog(deps, tenantId), req.providerKind, req.remoteModelId);
  if (!entry) {
    throw MarginError.validation(
      `${req.remoteModelId} is not in the catalog for ${req.providerKind}; define it first (POST model-catalog/models).`,
      [{ path: 'remoteModelId', message: 'Not a catalog model of this provider kind.' }],
    );
  }
  const { created, override } = await deps.storage.transaction(async (tx) => {
    const put = await tx.aiModelCatalog.putPriceOverride({
      id: deps.ids.uuid(),
      tenantId,
      providerKind: req.providerKind,
      remoteModelId: entry.remoteModelId,
      inputCostPer1MUsd: req.inputCostPer1MUsd ?? null,
      outputCostPer1MUsd: req.outputCostPer1MUsd ?? null,
      cachedInputCostPer1MUsd: req.cachedInputCostPer1MUsd ?? null,
      updatedAt: deps.clock.now().toISOString(),
    });
    await auditTenantAi(deps, tx, actor, tenantId, {
      resourceType: 'tenantModelCatalog',
      verb: 'priceSet',
      resourceId: put.override.id,
      summary: `set prices of ${req.providerKind} model '${entry.remoteModelId}'`,
    });
    return put;
  });
  return { created, override: overrideView(override) };
}

export async function deletePriceOverride(deps: AiDeps, actor: Actor, tenantId: string, overrideId: string) {
  const tenant = await deps.authz.requireTenant(actor, 'tenants.catalog.manage', tenantId);
  await assertTenantCatalogWritable(deps, tenant);
  await deps.storage.transaction(async (tx) => {
    if (!(await tx.aiModelCatalog.deletePriceOverride(tenantId, overrideId))) {
      throw MarginError.notFound('Price override not found.');
    }
    await auditTenantAi(deps, tx, actor, tenantId, {
      resourceType: 'tenantModelCatalog',
      verb: 'priceRemoved',
      resourceId: overrideId,
      summary: 'removed a price override',
    });
  });
}
