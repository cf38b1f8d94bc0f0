import type {
  AiConnectionConfig,
  AiModelSpec,
  AiProviderKindV1,
  DiscoveredModel,
  ProtocolMode,
} from '../ai-model/index.js';
import {
  aiConnectionConfigOf,
  capabilityForPurpose,
  failureCategoryOf,
  failureSummaryOf,
  type OperationKind,
} from '../ai-model/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import type { AiDeps } from './ai-deps.js';
import type { AiConnectionRecord, ConfiguredModelRecord, VerificationRecord } from './ai-records.js';
import {
  assertTenantPermits,
  type ConnectionScope,
  connectionView,
  findKind,
  loadConnection,
  openConnectionConfig,
  requireOwner,
  verificationView,
} from './connections.js';
import { effectiveCatalog, findCatalogEntry, tenantCatalogInUse } from './model-catalog.js';
import {
  endpointIssues,
  inferOperationKinds,
  inferProtocolModes,
  modesOf,
  narrowAutoMode,
  operationOf,
} from './profile-rules.js';
import { AiProbeInput } from './schemas.js';
import { assertPolicyPermitsUse, policyInForce } from './tenant-ai-policy.js';

/** One live call per model must not hang verification on a stuck endpoint. */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * The kinds this build can call, and which of them the tenant's AI policy permits. A host rule
 * does not refuse a kind (its profiles may name a permitted host), but it restricts the tenant.
 */
export async function permittedProviders(deps: AiDeps, actor: Actor, scope: ConnectionScope) {
  const owner = await requireOwner(deps, actor, scope);
  const policy = await policyInForce(deps.storage, owner.tenantId);
  const kinds = policy?.permittedProviderKinds ?? null;
  return {
    providers: deps.providers.ai.map((k) => ({
      providerKind: k.kind,
      isPermitted: kinds === null || kinds.includes(k.kind),
      protocolModes: modesOf(k),
    })),
    isRestricted: kinds !== null || (policy?.permittedHosts ?? null) !== null,
  };
}

/** An unsaved connection from a probe/discover body, checked like a profile's endpoint. */
function unsavedConnection(deps: AiDeps, input: unknown): { kind: AiProviderKindV1; config: AiConnectionConfig } {
  const req = AiProbeInput.parse(input);
  const kind = findKind(deps, req.providerKind);
  const baseUrl = req.baseUrl ?? '';
  const key = req.auth.apiKey;
  const defaultQueryParams = req.defaultQueryParams ?? {};
  const issues = endpointIssues(
    {
      providerKind: req.providerKind,
      baseUrl,
      authMode: req.auth.mode,
      apiKey: key != null ? { kind: 'new', value: key } : { kind: 'missing' },
      defaultQueryParams,
    },
    deps.providers,
    deps.ai.allowPrivateEgress,
  );
  if (issues.length > 0 || !kind) throw MarginError.invalid(issues);
  return {
    kind,
    config: aiConnectionConfigOf(kind, {
      providerKind: req.providerKind,
      baseUrl,
      auth:
        req.auth.mode === 'azureIdentity' ? { mode: 'azureIdentity' } : { mode: 'apiKey', apiKey: (key ?? '').trim() },
      defaultHeaders: req.defaultHeaders ?? {},
      defaultQueryParams,
    }),
  };
}

/**
 * One cheap authenticated call against an unsaved connection. A provider failure is a `failed`
 * result (200); a configuration the kind cannot use (a missing region) is a 400.
 */
export async function probeConnection(deps: AiDeps, actor: Actor, scope: ConnectionScope, input: unknown) {
  const { kind, config } = unsavedConnection(deps, input);
  const owner = await requireOwner(deps, actor, scope);
  await assertTenantPermits(deps, deps.storage, owner, config);
  const result = await kind.probe(config);
  return {
    status: result.status,
    ...(result.status === 'failed' ? { failureCategory: result.failureCategory ?? 'unknown' } : {}),
    summary: result.summary,
    checkedAt: deps.clock.now().toISOString(),
    warnings: result.warnings,
  };
}

/**
 * Lists the models the provider offers, shaped as configured models (inferred capabilities and
 * modes, catalog metadata and prices filled in) so they can be sent back in `configuredModels`.
 */
export async function discoverModels(deps: AiDeps, actor: Actor, scope: ConnectionScope, input: unknown) {
  const { kind, config } = unsavedConnection(deps, input);
  const owner = await requireOwner(deps, actor, scope);
  await assertTenantPermits(deps, deps.storage, owner, config);
  const result = await kind.discoverModels(config);
  const catalog = await effectiveCatalog(deps, owner.tenantId, await tenantCatalogInUse(deps, owner.tenantId));
  const lastSeenAt = deps.clock.now().toISOString();
  return {
    discoveryStatus: result.discoveryStatus,
    manualEntryAllowed: result.manualEntryAllowed,
    warnings: result.warnings,
    models: result.models.map((d) =>
      discoveredView(d, kind, findCatalogEntry(catalog, kind.kind, d.remoteModelId), lastSeenAt),
    ),
  };
}

function discoveredView(
  d: DiscoveredModel,
  kind: AiProviderKindV1,
  entry: ReturnType<typeof findCatalogEntry>,
  lastSeenAt: string,
) {
  const tokenizerName = entry?.tokenizerName ?? null;
  const embeddingDimensions = d.embeddingDimensions ?? entry?.embeddingDimensions ?? null;
  const operationKinds: OperationKind[] =
    d.operationKinds ??
    entry?.operationKinds ??
    inferOperationKinds({ remoteModelId: d.remoteModelId, tokenizerName, embeddingDimensions });
  return {
    remoteModelId: d.remoteModelId,
    displayName: d.displayName ?? entry?.displayName ?? d.remoteModelId,
    operationKinds,
    supportedProtocolModes: inferProtocolModes(operationKinds, kind),
    tokenizerName,
    maxInputTokens: d.maxInputTokens ?? entry?.maxInputTokens ?? null,
    embeddingDimensions,
    supportsStructuredOutput: d.supportsStructuredOutput ?? entry?.supportsStructuredOutput ?? false,
    supportsToolUse: d.supportsToolUse ?? entry?.supportsToolUse ?? false,
    maxContextTokens: d.maxContextTokens ?? entry?.maxContextTokens ?? null,
    inputCostPer1MUsd: d.inputCostPer1MUsd ?? entry?.inputCostPer1MUsd ?? null,
    outputCostPer1MUsd: d.outputCostPer1MUsd ?? entry?.outputCostPer1MUsd ?? null,
    cachedInputCostPer1MUsd: d.cachedInputCostPer1MUsd ?? entry?.cachedInputCostPer1MUsd ?? null,
    source: 'discovered' as const,
    lastSeenAt,
  };
}

/**
 * Probes the stored profile, then checks that the kind can serve every configured model: each
 * declared protocol mode must be one the kind creates a model for, and each model answers one tiny
 * live call per capability (a 16-token chat, a one-text embedding whose length must equal
 * `embeddingDimensions`), in the mode its binding uses, else `auto`. The snapshot is stored only
 * if the profile did not change meanwhile (409 otherwise).
 */
export async function verifyConnection(deps: AiDeps, actor: Actor, scope: ConnectionScope, connectionId: string) {
  const owner = await requireOwner(deps, actor, scope);
  const current = await loadConnection(deps.storage, owner, connectionId);
  const kind = findKind(deps, current.providerKind);
  const outcome = kind
    ? await runVerification(
        kind,
        async () => {
          await assertPolicyPermitsUse(deps, kind, current);
          return openConnectionConfig(deps, kind, current);
        },
        current,
      )
    : failed('capabilityMismatch', `AI provider kind ${current.providerKind} is not available in this installation.`);
  const now = deps.clock.now().toISOString();
  const verification: VerificationRecord = { ...outcome, checkedAt: now };
  const stored = await deps.storage.aiConnections.recordVerification(current.id, current.revision, verification, now);
  if (!stored) {
    throw MarginError.conflict('The AI connection changed while it was being verified; verify it again.');
  }
  return verificationView(verification);
}

type Outcome = Omit<VerificationRecord, 'checkedAt'>;

const failed = (
  category: VerificationRecord['failureCategory'],
  summary: string,
  warnings: string[] = [],
): Outcome => ({
  status: 'failed',
  failureCategory: category ?? 'unknown',
  summary,
  warnings,
});

/** `openConfig` runs inside: stored settings the kind now refuses fail the verification, as an adapter's refusal would. */
async function runVerification(
  kind: AiProviderKindV1,
  openConfig: () => Promise<AiConnectionConfig>,
  profile: AiConnectionRecord,
): Promise<Outcome> {
  let config: AiConnectionConfig;
  let probe: Awaited<ReturnType<AiProviderKindV1['probe']>>;
  try {
    config = await openConfig();
    probe = await kind.probe(config);
  } catch (error) {
    return failed(failureCategoryOf(error), failureSummaryOf(error));
  }
  const warnings = [...probe.warnings];
  if (probe.status === 'failed') return failed(probe.failureCategory ?? 'unknown', probe.summary, warnings);
  for (const model of profile.configuredModels) {
    const problem = await checkModel(kind, config, model, profile);
    if (problem) return { ...problem, warnings };
  }
  const count = profile.configuredModels.length;
  return {
    status: 'verified',
    failureCategory: null,
    summary: `${probe.summary} ${count === 1 ? 'The configured model' : `All ${count} configured models`} answered.`,
    warnings,
  };
}

const specOf = (model: ConfiguredModelRecord, protocolMode: ProtocolMode): AiModelSpec => ({
  remoteModelId: model.remoteModelId,
  protocolMode,
  operationKinds: model.operationKinds,
  supportsStructuredOutput: model.supportsStructuredOutput,
  supportsToolUse: model.supportsToolUse,
  embeddingDimensions: model.embeddingDimensions ?? undefined,
});

/** The mode a live check uses: the one a binding of this capability uses, else auto, else the first fitting. */
function checkMode(
  kind: AiProviderKindV1,
  model: ConfiguredModelRecord,
  capability: OperationKind,
  profile: AiConnectionRecord,
): ProtocolMode {
  const bound = profile.purposeBindings.find(
    (b) => b.configuredModelId === model.id && capabilityForPurpose(b.purpose) === capability,
  );
  const fits = (m: ProtocolMode) => m === 'auto' || operationOf(kind, m) === capability;
  const mode =
    bound?.protocolMode ??
    model.supportedProtocolModes.find((m) => m === 'auto') ??
    model.supportedProtocolModes.find(fits) ??
    'auto';
  // The same narrowing resolvePurpose applies, so verify calls what reviews will call.
  return narrowAutoMode(mode, model, capability, kind);
}

async function checkModel(
  kind: AiProviderKindV1,
  config: AiConnectionConfig,
  model: ConfiguredModelRecord,
  profile: AiConnectionRecord,
): Promise<Outcome | undefined> {
  const label = (what: string, mode: ProtocolMode) => `Model ${model.remoteModelId} (${what}, ${mode})`;
  for (const mode of model.supportedProtocolModes) {
    try {
      kind.createModel(config, specOf(model, mode));
    } catch (error) {
      return failed('capabilityMismatch', `${label('setup', mode)}: ${failureSummaryOf(error)}`);
    }
  }
  if (model.operationKinds.includes('chat')) {
    const mode = checkMode(kind, model, 'chat', profile);
    try {
      await kind.createModel(config, specOf(model, mode)).chat({
        messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
        maxOutputTokens: 16,
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      return failed(failureCategoryOf(error), `${label('chat', mode)}: ${failureSummaryOf(error)}`);
    }
  }
  if (model.operationKinds.includes('embedding')) {
    const mode = checkMode(kind, model, 'embedding', profile);
    try {
      const result = await kind
        .createModel(config, specOf(model, mode))
        .embed(['Margin connection check.'], { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      const length = result.vectors[0]?.length ?? 0;
      if (model.embeddingDimensions !== null && length !== model.embeddingDimensions) {
        return failed(
          'capabilityMismatch',
          `${label('embedding', mode)} answered vectors of ${length} dimensions; the profile says ${model.embeddingDimensions}.`,
        );
      }
    } catch (error) {
      return failed(failureCategoryOf(error), `${label('embedding', mode)}: ${failureSummaryOf(error)}`);
    }
  }
  return undefined;
}

/** Active only after a successful verification of the profile as it is now (400 otherwise). */
export async function activateConnection(deps: AiDeps, actor: Actor, scope: ConnectionScope, connectionId: string) {
  const owner = await requireOwner(deps, actor, scope);
  const updated = await deps.storage.transaction(async (tx) => {
    const current = await loadConnection(tx, owner, connectionId);
    if (current.verification.status !== 'verified') {
      throw MarginError.validation(
        current.verification.status === 'failed'
          ? 'The AI connection cannot be activated: its last verification failed. Fix it and verify again.'
          : 'The AI connection cannot be activated: it has not been verified since its last change. Verify it first.',
      );
    }
    const now = deps.clock.now().toISOString();
    if (!current.isActive) {
      await tx.aiConnections.setActive(current.id, true, now);
      await deps.audit.record(tx, actor, {
        ...owner.auditPlace,
        resourceType: 'aiConnection',
        verb: 'activated',
        resourceId: connectionId,
        summary: 'activated',
      });
    }
    return { ...current, isActive: true, updatedAt: current.isActive ? current.updatedAt : now };
  });
  return connectionView(updated);
}

export async function deactivateConnection(deps: AiDeps, actor: Actor, scope: ConnectionScope, connectionId: string) {
  const owner = await requireOwner(deps, actor, scope);
  const updated = await deps.storage.transaction(async (tx) => {
    const current = await loadConnection(tx, owner, connectionId);
    const now = deps.clock.now().toISOString();
    if (current.isActive) {
      await tx.aiConnections.setActive(current.id, false, now);
      await deps.audit.record(tx, actor, {
        ...owner.auditPlace,
        resourceType: 'aiConnection',
        verb: 'deactivated',
        resourceId: connectionId,
        summary: 'deactivated',
      });
    }
    return { ...current, isActive: false, updatedAt: current.isActive ? now : current.updatedAt };
  });
  return connectionView(updated);
}
