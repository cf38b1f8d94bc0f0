import type { AiConnectionConfig, AiModelV1, ModelPrices, ProtocolMode, ReasoningEffort } from '../ai-model/index.js';
import { type AiPurpose, capabilityForPurpose } from '../ai-model/index.js';
import { MarginError } from '../kernel/index.js';
import type { ResolveDeps } from './ai-deps.js';
import type { AiConnectionRecord, ConfiguredModelRecord } from './ai-records.js';
import { openConnectionConfig } from './connections.js';
import { connectionOfTenant } from './logical-model-rules.js';
import { catalogPrices, tenantCatalogInUse } from './model-catalog.js';
import { narrowAutoMode } from './profile-rules.js';
import { assertPolicyPermitsUse } from './tenant-ai-policy.js';

/** Everything a caller needs to call the model that serves a purpose. */
export interface ResolvedPurpose {
  /** The purpose asked for. */
  purpose: AiPurpose;
  /** The purpose that supplied the model: the one asked for, or `reviewDefault` it fell back to. */
  resolvedPurpose: AiPurpose;
  /** How it was found: the client's purpose mapping to a logical model, or a profile's purpose binding. */
  via: 'logicalModel' | 'binding';
  logicalModelName: string | null;
  connectionId: string;
  /** The profile as the adapter needs it, key opened. Never log or return it. */
  connection: AiConnectionConfig;
  configuredModel: ConfiguredModelRecord;
  protocolMode: ProtocolMode;
  reasoningEffort: ReasoningEffort;
  /** For cost: the configured model's prices, each missing one taken from the catalog. */
  prices: ModelPrices;
  model: AiModelV1;
}

/** `resolvePurpose` with its dependencies bound, as `core.ai.resolvePurpose`. */
export interface BoundResolvePurpose {
  (clientId: string, purpose: 'embeddingDefault'): Promise<ResolvedPurpose | undefined>;
  (clientId: string, purpose: Exclude<AiPurpose, 'embeddingDefault'>): Promise<ResolvedPurpose>;
  (clientId: string, purpose: AiPurpose): Promise<ResolvedPurpose | undefined>;
}

/**
 * The one way to find the model behind a purpose (decisions.md, AI connections):
 *
 * 1. The client's purpose mapping names a logical model: the client's override of that name, else
 *    the tenant-catalog entry (Commercial). It points at a connection and configured model, which
 *    must exist and be active — a broken mapping fails, it does not fall through.
 * 2. No mapping: the enabled purpose binding on the client's active connections (oldest first).
 * 3. Neither: `embeddingDefault` resolves to `undefined` (callers fall back to text similarity),
 *    `reviewDefault` fails naming the purpose, and every other purpose falls back to `reviewDefault`.
 *
 * Inactive connections never resolve. Failures are `conflict` errors naming the purpose.
 */
export async function resolvePurpose(
  deps: ResolveDeps,
  clientId: string,
  purpose: 'embeddingDefault',
): Promise<ResolvedPurpose | undefined>;
export async function resolvePurpose(
  deps: ResolveDeps,
  clientId: string,
  purpose: Exclude<AiPurpose, 'embeddingDefault'>,
): Promise<ResolvedPurpose>;
export async function resolvePurpose(
  deps: ResolveDeps,
  clientId: string,
  purpose: AiPurpose,
): Promise<ResolvedPurpose | undefined>;
export async function resolvePurpose(
  deps: ResolveDeps,
  clientId: string,
  purpose: AiPurpose,
): Promise<ResolvedPurpose | undefined> {
  const client = await deps.storage.clients.findById(clientId);
  if (!client) throw MarginError.notFound('Client not found.');
  const own = await resolveOne(deps, client.tenantId, clientId, purpose);
  if (own) return { ...own, purpose };
  if (purpose === 'embeddingDefault') return undefined;
  if (purpose !== 'reviewDefault') {
    const fallback = await resolveOne(deps, client.tenantId, clientId, 'reviewDefault');
    if (fallback) return { ...fallback, purpose };
  }
  throw MarginError.conflict(
    purpose === 'reviewDefault'
      ? 'No AI model serves the purpose reviewDefault: map it to a logical model (PUT /clients/{clientId}/logical-models/purposes/reviewDefault) or bind it on an active AI connection.'
      : `No AI model serves the purpose ${purpose}, nor reviewDefault, which it falls back to: map reviewDefault to a logical model or bind it on an active AI connection.`,
    { purpose },
  );
}

async function resolveOne(
  deps: ResolveDeps,
  tenantId: string,
  clientId: string,
  purpose: AiPurpose,
): Promise<Omit<ResolvedPurpose, 'purpose'> | undefined> {
  const mapping = await deps.storage.aiLogicalModels.findPurpose(clientId, purpose);
  if (mapping) {
    const name = mapping.logicalModelName;
    const broken = (why: string) =>
      MarginError.conflict(`The purpose ${purpose} maps to the logical model ${name}, ${why}`, {
        purpose,
        logicalModelName: name,
      });
    const logical =
      (await deps.storage.aiLogicalModels.find('client', clientId, name)) ??
      ((await tenantCatalogInUse(deps, tenantId))
        ? await deps.storage.aiLogicalModels.find('tenant', tenantId, name)
        : undefined);
    if (!logical) throw broken('which is not a logical model of this client (any more).');
    const connection = await deps.storage.aiConnections.findById(logical.connectionId);
    const reachable =
      connection &&
      (connection.clientId === clientId ||
        (logical.ownerKind === 'tenant' && (await connectionOfTenant(deps.storage, connection, tenantId))));
    if (!connection || !reachable) throw broken('whose AI connection no longer exists.');
    if (!connection.isActive) throw broken(`whose AI connection ${connection.displayName} is not active.`);
    const model = connection.configuredModels.find((m) => m.id === logical.configuredModelId);
    if (!model) throw broken(`whose model is no longer configured on ${connection.displayName}.`);
    return build(deps, tenantId, purpose, connection, model, logical.protocolMode, logical.reasoningEffort, {
      via: 'logicalModel',
      logicalModelName: logical.name,
    });
  }
  const bound = await deps.storage.aiConnections.findActiveBinding(clientId, purpose);
  if (!bound) return undefined;
  const connection = await deps.storage.aiConnections.findById(bound.connectionId);
  const model = connection?.configuredModels.find((m) => m.id === bound.binding.configuredModelId);
  if (!connection || !model) return undefined;
  return build(deps, tenantId, purpose, connection, model, bound.binding.protocolMode, 'none', {
    via: 'binding',
    logicalModelName: null,
  });
}

async function build(
  deps: ResolveDeps,
  tenantId: string,
  purpose: AiPurpose,
  connection: AiConnectionRecord,
  configuredModel: ConfiguredModelRecord,
  requestedMode: ProtocolMode,
  reasoningEffort: ReasoningEffort,
  how: { via: ResolvedPurpose['via']; logicalModelName: string | null },
): Promise<Omit<ResolvedPurpose, 'purpose'>> {
  const kind = deps.providers.ai.find((k) => k.kind === connection.providerKind);
  if (!kind) {
    throw MarginError.conflict(
      `The purpose ${purpose} resolves to an AI connection of kind ${connection.providerKind}, which this installation cannot call.`,
      { purpose },
    );
  }
  const capability = capabilityForPurpose(purpose);
  const protocolMode = narrowAutoMode(requestedMode, configuredModel, capability, kind);
  await assertPolicyPermitsUse(deps, kind, connection);
  const config = openConnectionConfig(deps, kind, connection);
  const model = kind.createModel(config, {
    remoteModelId: configuredModel.remoteModelId,
    protocolMode,
    operationKinds: configuredModel.operationKinds,
    supportsStructuredOutput: configuredModel.supportsStructuredOutput,
    supportsToolUse: configuredModel.supportsToolUse,
    embeddingDimensions: configuredModel.embeddingDimensions ?? undefined,
  });
  return {
    resolvedPurpose: purpose,
    ...how,
    connectionId: connection.id,
    connection: config,
    configuredModel,
    protocolMode,
    reasoningEffort,
    prices: await pricesOf(deps, tenantId, connection, configuredModel),
    model,
  };
}

async function pricesOf(
  deps: ResolveDeps,
  tenantId: string,
  connection: AiConnectionRecord,
  m: ConfiguredModelRecord,
): Promise<ModelPrices> {
  const own: ModelPrices = {
    inputCostPer1MUsd: m.inputCostPer1MUsd ?? undefined,
    outputCostPer1MUsd: m.outputCostPer1MUsd ?? undefined,
    cachedInputCostPer1MUsd: m.cachedInputCostPer1MUsd ?? undefined,
  };
  if (own.inputCostPer1MUsd !== undefined && own.outputCostPer1MUsd !== undefined) return own;
  const catalog = await catalogPrices(deps, tenantId, connection.providerKind, m.remoteModelId);
  return {
    inputCostPer1MUsd: own.inputCostPer1MUsd ?? catalog.inputCostPer1MUsd,
    outputCostPer1MUsd: own.outputCostPer1MUsd ?? catalog.outputCostPer1MUsd,
    cachedInputCostPer1MUsd: own.cachedInputCostPer1MUsd ?? catalog.cachedInputCostPer1MUsd,
  };
}
