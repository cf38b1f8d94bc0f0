import type { AiConnectionConfig, AiProviderKindV1 } from '../ai-model/index.js';
import { aiConnectionConfigOf } from '../ai-model/index.js';
import { changedFields } from '../audit/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError, PageQuery, SYSTEM_TENANT_ID, sealedSecretContext } from '../kernel/index.js';
import { requireMultiTenancy } from '../licensing/index.js';
import type { ClientRecord } from '../tenancy/index.js';
import type { AiDeps, AiStorageRepositories } from './ai-deps.js';
import type {
  AiConnectionRecord,
  ConfiguredModelRecord,
  PurposeBindingRecord,
  VerificationRecord,
} from './ai-records.js';
import { logicalTargetProblem } from './logical-model-rules.js';
import { clientCatalog } from './model-catalog.js';
import {
  checkProfile,
  type DraftKey,
  modesOfKind,
  type NormalizedProfile,
  type ProfileDraft,
} from './profile-rules.js';
import {
  AttachCatalogModelInput,
  type ConfiguredModelInputBody,
  CreateAiConnectionInput,
  PatchAiConnectionInput,
  type PurposeBindingInputBody,
} from './schemas.js';
import { assertPolicyPermitsProfile, policyInForce } from './tenant-ai-policy.js';

export const NEVER_VERIFIED: VerificationRecord = {
  status: 'neverVerified',
  failureCategory: null,
  summary: 'Not verified yet.',
  checkedAt: null,
  warnings: [],
};

export const verificationView = (v: VerificationRecord) => ({
  status: v.status,
  ...(v.failureCategory ? { failureCategory: v.failureCategory } : {}),
  summary: v.summary,
  checkedAt: v.checkedAt,
  warnings: [...v.warnings],
});

const modelView = (m: ConfiguredModelRecord) => ({
  ...m,
  operationKinds: [...m.operationKinds],
  supportedProtocolModes: [...m.supportedProtocolModes],
});

/** The wire shape of a profile: the key is never in it, only whether one is stored. */
export const connectionView = (c: AiConnectionRecord) => ({
  id: c.id,
  clientId: c.clientId,
  ownerTenantId: c.ownerTenantId,
  displayName: c.displayName,
  providerKind: c.providerKind,
  baseUrl: c.baseUrl,
  auth: { mode: c.authMode, hasApiKey: c.authMode === 'apiKey' && c.sealedApiKey !== null },
  discoveryMode: c.discoveryMode,
  defaultHeaders: { ...c.defaultHeaders },
  defaultQueryParams: { ...c.defaultQueryParams },
  configuredModels: c.configuredModels.map(modelView),
  purposeBindings: c.purposeBindings.map((b) => ({
    purpose: b.purpose,
    configuredModelId: b.configuredModelId,
    remoteModelId: c.configuredModels.find((m) => m.id === b.configuredModelId)?.remoteModelId ?? '',
    protocolMode: b.protocolMode,
    isEnabled: b.isEnabled,
  })),
  isActive: c.isActive,
  verification: verificationView(c.verification),
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

export function findKind(deps: Pick<AiDeps, 'providers'>, kind: string): AiProviderKindV1 | undefined {
  return deps.providers.ai.find((k) => k.kind === kind);
}

/**
 * The profile as its kind's adapter needs it: the key opened, the kind's settings parsed out of
 * `defaultQueryParams` (400 naming the setting if the kind's schema refuses the stored value).
 * Never returned or logged.
 */
export function openConnectionConfig(
  deps: Pick<AiDeps, 'secrets'>,
  kind: AiProviderKindV1,
  c: AiConnectionRecord,
): AiConnectionConfig {
  return aiConnectionConfigOf(kind, {
    providerKind: c.providerKind,
    baseUrl: c.baseUrl,
    auth:
      c.authMode === 'azureIdentity'
        ? { mode: 'azureIdentity' }
        : { mode: 'apiKey', apiKey: c.sealedApiKey ? deps.secrets.open(c.sealedApiKey, apiKeyContext(c.id)) : '' },
    defaultHeaders: c.defaultHeaders,
    defaultQueryParams: c.defaultQueryParams,
  });
}

const apiKeyContext = (connectionId: string) => sealedSecretContext('ai-connection.apiKey', connectionId);

function sealKey(deps: Pick<AiDeps, 'secrets'>, connectionId: string, key: string): string | null {
  const trimmed = key.trim();
  return trimmed === '' ? null : deps.secrets.seal(trimmed, apiKeyContext(connectionId));
}

/**
 * Whose connections a use case acts on: a client's (`/clients/{clientId}/ai-connections`) or a
 * tenant's own (`/tenants/{tenantId}/ai-connections`), which the tenant's catalog lends its clients.
 */
export type ConnectionScope = { clientId: string } | { tenantId: string };

/** The owner of the connections in scope, once the actor may manage them. */
export interface ConnectionOwner {
  /** The record's owner fields: exactly one is set. */
  clientId: string | null;
  ownerTenantId: string | null;
  /** The tenant whose AI policy and model catalog apply. */
  tenantId: string;
  /** Where the audit entries of its changes go. */
  auditPlace: { client: ClientRecord } | { tenantId: string };
}

/**
 * Client connections: the client's administrators (and tenant and platform administrators through
 * them). Tenant connections: the tenant's administrators and the platform administrator only — a
 * client administrator never reads or changes them.
 */
export async function requireOwner(deps: AiDeps, actor: Actor, scope: ConnectionScope): Promise<ConnectionOwner> {
  if ('clientId' in scope) {
    const client = await deps.authz.requireClient(actor, 'ai.connections.manage', scope.clientId);
    return { clientId: client.id, ownerTenantId: null, tenantId: client.tenantId, auditPlace: { client } };
  }
  const tenant = await deps.authz.requireTenant(actor, 'tenants.aiConnections.manage', scope.tenantId);
  return { clientId: null, ownerTenantId: tenant.id, tenantId: tenant.id, auditPlace: { tenantId: tenant.id } };
}

/**
 * A tenant-owned connection serves only the tenant catalog, so it exists where the catalog does:
 * not for the System tenant (400), and only in the Commercial edition (409 `license_required`).
 */
async function assertOwnerMayCreate(deps: AiDeps, owner: ConnectionOwner): Promise<void> {
  if (owner.ownerTenantId === null) return;
  if (owner.ownerTenantId === SYSTEM_TENANT_ID) {
    throw MarginError.validation(
      'The System tenant has no tenant catalog, so no tenant-owned AI connections: create them on its clients.',
    );
  }
  await requireMultiTenancy(deps, 'Tenant-owned AI connections');
}

/** A profile of the owner, or 404 (another owner's profile is not confirmed to exist). */
export async function loadConnection(
  repos: Pick<AiStorageRepositories, 'aiConnections'>,
  owner: Pick<ConnectionOwner, 'clientId' | 'ownerTenantId'>,
  connectionId: string,
): Promise<AiConnectionRecord> {
  const found = await repos.aiConnections.findById(connectionId);
  if (!found || found.clientId !== owner.clientId || found.ownerTenantId !== owner.ownerTenantId) {
    throw MarginError.notFound('AI connection not found.');
  }
  return found;
}

export async function createConnection(deps: AiDeps, actor: Actor, scope: ConnectionScope, input: unknown) {
  const req = CreateAiConnectionInput.parse(input);
  const apiKey: DraftKey =
    req.auth.mode === 'apiKey' && req.auth.apiKey != null
      ? { kind: 'new', value: req.auth.apiKey }
      : { kind: 'missing' };
  const draft: ProfileDraft = {
    providerKind: req.providerKind,
    baseUrl: req.baseUrl ?? '',
    authMode: req.auth.mode,
    apiKey,
    defaultQueryParams: req.defaultQueryParams ?? {},
    discoveryMode: req.discoveryMode,
    configuredModels: req.configuredModels,
    purposeBindings: req.purposeBindings,
  };
  const profile = normalizeOrThrow(deps, draft, []);
  const owner = await requireOwner(deps, actor, scope);
  await assertOwnerMayCreate(deps, owner);
  await assertTenantPermits(deps, deps.storage, owner, draft);
  const now = deps.clock.now().toISOString();
  const id = deps.ids.uuid();
  const record: AiConnectionRecord = {
    id,
    clientId: owner.clientId,
    ownerTenantId: owner.ownerTenantId,
    displayName: req.displayName,
    providerKind: req.providerKind,
    baseUrl: draft.baseUrl,
    authMode: req.auth.mode,
    sealedApiKey: apiKey.kind === 'new' && req.auth.mode === 'apiKey' ? sealKey(deps, id, apiKey.value) : null,
    discoveryMode: profile.discoveryMode,
    defaultHeaders: req.defaultHeaders ?? {},
    defaultQueryParams: draft.defaultQueryParams,
    configuredModels: profile.configuredModels,
    purposeBindings: profile.purposeBindings,
    isActive: false,
    revision: 1,
    verification: NEVER_VERIFIED,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.transaction(async (tx) => {
    await tx.aiConnections.insert(record);
    await deps.audit.record(tx, actor, {
      ...owner.auditPlace,
      resourceType: 'aiConnection',
      verb: 'created',
      resourceId: id,
      summary: `created a ${req.providerKind} connection (${req.auth.mode})`,
    });
  });
  return connectionView(record);
}

/** The tenant's AI policy must permit the profile's kind and host (400 naming the policy). */
export async function assertTenantPermits(
  deps: Pick<AiDeps, 'providers'>,
  repos: Pick<AiStorageRepositories, 'tenantAiPolicies' | 'settings'>,
  owner: { tenantId: string },
  profile: { providerKind: string; baseUrl: string },
): Promise<void> {
  const policy = await policyInForce(repos, owner.tenantId);
  assertPolicyPermitsProfile(policy, findKind(deps, profile.providerKind), profile);
}

function normalizeOrThrow(
  deps: AiDeps,
  draft: ProfileDraft,
  existingModels: readonly ConfiguredModelRecord[],
): NormalizedProfile {
  const result = checkProfile(draft, {
    registry: deps.providers,
    ids: deps.ids,
    allowPrivateEgress: deps.ai.allowPrivateEgress,
    existingModels,
  });
  if (!('profile' in result)) throw MarginError.invalid(result.issues);
  return result.profile;
}

export async function listConnections(deps: AiDeps, actor: Actor, scope: ConnectionScope, query: unknown) {
  const page = PageQuery.parse(query);
  const owner = await requireOwner(deps, actor, scope);
  const result =
    owner.clientId !== null
      ? await deps.storage.aiConnections.listByClient(owner.clientId, page)
      : await deps.storage.aiConnections.listByTenant(owner.tenantId, page);
  return { items: result.items.map(connectionView), nextCursor: result.nextCursor };
}

export async function getConnection(deps: AiDeps, actor: Actor, scope: ConnectionScope, connectionId: string) {
  const owner = await requireOwner(deps, actor, scope);
  return connectionView(await loadConnection(deps.storage, owner, connectionId));
}

const modelAsInput = (m: ConfiguredModelRecord): ConfiguredModelInputBody => ({ ...m });
const bindingAsInput = (b: PurposeBindingRecord): PurposeBindingInputBody => ({ ...b });

/**
 * Changes a profile. The result must pass every rule a new profile does; any change to the
 * endpoint, credential, headers, query parameters, models or bindings resets verification to
 * `neverVerified` and deactivates the profile. A stored key goes only where it was given: changing
 * where it would be sent needs the key again (400). Models and providers that logical models point
 * at must keep fitting them (409 otherwise).
 */
export async function patchConnection(
  deps: AiDeps,
  actor: Actor,
  scope: ConnectionScope,
  connectionId: string,
  input: unknown,
) {
  const req = PatchAiConnectionInput.parse(input);
  const owner = await requireOwner(deps, actor, scope);
  const updated = await deps.storage.transaction(async (tx) => {
    const current = await loadConnection(tx, owner, connectionId);
    const providerKind = req.providerKind ?? current.providerKind;
    const authMode = req.auth?.mode ?? current.authMode;
    const apiKey: DraftKey =
      req.auth?.apiKey != null && authMode === 'apiKey'
        ? { kind: 'new', value: req.auth.apiKey }
        : authMode === 'apiKey' && current.authMode === 'apiKey'
          ? { kind: 'stored', present: current.sealedApiKey !== null }
          : { kind: 'missing' };
    const draft: ProfileDraft = {
      providerKind,
      baseUrl: req.baseUrl ?? current.baseUrl,
      authMode,
      apiKey,
      defaultQueryParams: req.defaultQueryParams ?? current.defaultQueryParams,
      // A new kind gets its own default unless the caller names one.
      discoveryMode: req.discoveryMode ?? (providerKind === current.providerKind ? current.discoveryMode : undefined),
      configuredModels: req.configuredModels ?? current.configuredModels.map(modelAsInput),
      purposeBindings: req.purposeBindings ?? current.purposeBindings.map(bindingAsInput),
    };
    const profile = normalizeOrThrow(deps, draft, current.configuredModels);
    await assertTenantPermits(deps, tx, owner, draft);
    const defaultHeaders = req.defaultHeaders ?? current.defaultHeaders;
    const defaultQueryParams = { ...draft.defaultQueryParams };
    if (
      apiKey.kind === 'stored' &&
      apiKey.present &&
      destinationChanged(current, { providerKind, baseUrl: draft.baseUrl, defaultHeaders, defaultQueryParams })
    ) {
      throw MarginError.invalid([{ path: 'auth.apiKey', message: KEY_REQUIRED_AGAIN }]);
    }
    const next: AiConnectionRecord = {
      ...current,
      displayName: req.displayName ?? current.displayName,
      providerKind,
      baseUrl: draft.baseUrl,
      authMode,
      sealedApiKey:
        authMode === 'azureIdentity'
          ? null
          : apiKey.kind === 'new'
            ? sealKey(deps, current.id, apiKey.value)
            : current.sealedApiKey,
      discoveryMode: profile.discoveryMode,
      defaultHeaders,
      defaultQueryParams,
      configuredModels: profile.configuredModels,
      purposeBindings: profile.purposeBindings,
      updatedAt: deps.clock.now().toISOString(),
    };
    await assertReferencesHold(deps, tx, next);
    if (requiresReverification(current, next, apiKey)) {
      next.revision = current.revision + 1;
      next.verification = NEVER_VERIFIED;
      // Out of service until verified and activated again: a profile lent to other clients through
      // the tenant catalog must not start serving their reviews from wherever it was changed to.
      next.isActive = false;
    }
    await tx.aiConnections.update(next);
    await deps.audit.record(tx, actor, {
      ...owner.auditPlace,
      resourceType: 'aiConnection',
      verb: 'updated',
      resourceId: connectionId,
      // Field names only: headers, query parameters and the key may all carry credentials.
      summary: changedFields(req),
    });
    return next;
  });
  return connectionView(updated);
}

/**
 * Adds a catalog model of the connection's kind to its configured models, with the catalog's
 * metadata and prices (`source: knownCatalog`), as a PATCH of the models would: verification resets
 * and the profile leaves service until verified and activated again.
 */
export async function attachCatalogModel(
  deps: AiDeps,
  actor: Actor,
  scope: ConnectionScope,
  connectionId: string,
  input: unknown,
) {
  const { catalogModelId } = AttachCatalogModelInput.parse(input);
  const owner = await requireOwner(deps, actor, scope);
  const current = await loadConnection(deps.storage, owner, connectionId);
  const entry = (await clientCatalog(deps, owner.tenantId)).find(
    (e) => e.id === catalogModelId && e.providerKind === current.providerKind,
  );
  if (!entry) {
    throw MarginError.invalid([
      {
        path: 'catalogModelId',
        message: `names no catalog model of ${current.providerKind}, this connection’s provider kind`,
      },
    ]);
  }
  if (current.configuredModels.some((m) => m.remoteModelId.toLowerCase() === entry.remoteModelId.toLowerCase())) {
    throw MarginError.conflict(`${entry.remoteModelId} is already a configured model of this connection.`);
  }
  const { id: _catalogId, providerKind: _kind, isBuiltIn: _builtIn, priceOverridden: _overridden, ...traits } = entry;
  return patchConnection(deps, actor, scope, connectionId, {
    configuredModels: [...current.configuredModels.map(modelAsInput), { ...traits, source: 'knownCatalog' }],
  });
}

/** Logical models pointing at this connection must still fit the changed models. */
async function assertReferencesHold(deps: AiDeps, tx: AiStorageRepositories, next: AiConnectionRecord): Promise<void> {
  const references = await tx.aiLogicalModels.listByConnection(next.id);
  const kindModes = modesOfKind(findKind(deps, next.providerKind));
  const broken = references.filter((lm) => logicalTargetProblem(lm, next, kindModes) !== undefined);
  if (broken.length > 0) {
    const names = broken.map((lm) => `${lm.name} (${lm.ownerKind})`).join(', ');
    throw MarginError.conflict(
      `The change would break logical models that point at this connection: ${names}. Point them elsewhere first.`,
      { logicalModels: broken.map((lm) => ({ name: lm.name, scope: lm.ownerKind })) },
    );
  }
}

const KEY_REQUIRED_AGAIN =
  'is required again when providerKind, baseUrl, defaultHeaders or defaultQueryParams change: a stored key is only sent where it was given.';

/**
 * What decides where the key is sent: the kind (its default host), the URL, and the headers and
 * query parameters (a gateway routes by header; a Bedrock `region` or Vertex `location` is part of
 * the host name). A stored key must never follow a change of these without being given again.
 */
function destinationChanged(
  current: AiConnectionRecord,
  next: Pick<AiConnectionRecord, 'providerKind' | 'baseUrl' | 'defaultHeaders' | 'defaultQueryParams'>,
): boolean {
  return (
    current.providerKind !== next.providerKind ||
    current.baseUrl !== next.baseUrl ||
    canonical(current.defaultHeaders) !== canonical(next.defaultHeaders) ||
    canonical(current.defaultQueryParams) !== canonical(next.defaultQueryParams)
  );
}

function requiresReverification(current: AiConnectionRecord, next: AiConnectionRecord, key: DraftKey): boolean {
  return (
    key.kind === 'new' ||
    destinationChanged(current, next) ||
    current.authMode !== next.authMode ||
    canonical(current.configuredModels) !== canonical(next.configuredModels) ||
    canonical(current.purposeBindings) !== canonical(next.purposeBindings)
  );
}

/** JSON with object keys sorted, so equal values compare equal whatever order storage returned. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** Removes a profile; refused (409) while logical models point at it. */
export async function deleteConnection(deps: AiDeps, actor: Actor, scope: ConnectionScope, connectionId: string) {
  const owner = await requireOwner(deps, actor, scope);
  await deps.storage.transaction(async (tx) => {
    const current = await loadConnection(tx, owner, connectionId);
    const references = await tx.aiLogicalModels.listByConnection(connectionId);
    if (references.length > 0) {
      const names = references.map((lm) => `${lm.name} (${lm.ownerKind})`).join(', ');
      throw MarginError.conflict(`Logical models point at this connection: ${names}. Delete or repoint them first.`, {
        logicalModels: references.map((lm) => ({ name: lm.name, scope: lm.ownerKind })),
      });
    }
    await tx.aiConnections.delete(connectionId);
    await deps.audit.record(tx, actor, {
      ...owner.auditPlace,
      resourceType: 'aiConnection',
      verb: 'deleted',
      resourceId: connectionId,
      summary: `deleted a ${current.providerKind} connection`,
    });
  });
}
