import { z } from 'zod';
import { AI_PURPOSES, type AiPurpose, capabilityForPurpose } from '../ai-model/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import type { ClientRecord } from '../tenancy/index.js';
import type { AiDeps, AiStorageRepositories } from './ai-deps.js';
import type { LogicalModelOwnerKind, LogicalModelRecord, PurposeMappingRecord } from './ai-records.js';
import { findKind } from './connections.js';
import { connectionOfTenant, type LogicalTarget, logicalTargetProblem } from './logical-model-rules.js';
import { assertTenantCatalogWritable, auditTenantAi, tenantCatalogInUse } from './model-catalog.js';
import { modesOfKind } from './profile-rules.js';
import { LogicalModelInput, PurposeParam, PutLogicalModelInput, PutPurposeInput } from './schemas.js';

const PurposePath = z.object({ purpose: PurposeParam });

const article = (capability: string) => (capability === 'embedding' ? 'an embedding' : 'a chat');

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const logicalModelView = (m: LogicalModelRecord) => ({
  name: m.name,
  capability: m.capability,
  connectionId: m.connectionId,
  configuredModelId: m.configuredModelId,
  reasoningEffort: m.reasoningEffort,
  protocolMode: m.protocolMode,
  scope: m.ownerKind,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

interface Owner {
  kind: LogicalModelOwnerKind;
  id: string;
  /** The tenant whose clients' connections the owner may point at. */
  tenantId: string;
}

const clientOwner = (client: ClientRecord): Owner => ({ kind: 'client', id: client.id, tenantId: client.tenantId });

/**
 * A logical model may point at a model of one of the client's own connections (client override),
 * or of the tenant's own connections or those of any client of the tenant (tenant entry) — never
 * at another tenant's. 400 naming the field otherwise.
 */
async function assertTarget(
  deps: AiDeps,
  tx: AiStorageRepositories,
  owner: Owner,
  target: LogicalTarget & { connectionId: string },
) {
  const connection = await tx.aiConnections.findById(target.connectionId);
  let reachable = false;
  if (connection) {
    reachable =
      owner.kind === 'client'
        ? connection.clientId === owner.id
        : await connectionOfTenant(tx, connection, owner.tenantId);
  }
  if (!connection || !reachable) {
    throw MarginError.invalid([
      {
        path: 'connectionId',
        message:
          owner.kind === 'client'
            ? 'connectionId does not name an AI connection of this client.'
            : 'connectionId does not name an AI connection of this tenant or of one of its clients.',
      },
    ]);
  }
  const problem = logicalTargetProblem(target, connection, modesOfKind(findKind(deps, connection.providerKind)));
  if (problem) throw MarginError.invalid([problem]);
}

/** Purposes of the given mappings that a logical model of `capability` (or none at all) would break. */
function breaks(mappings: readonly PurposeMappingRecord[], capability: 'chat' | 'embedding' | undefined): AiPurpose[] {
  return mappings
    .filter((m) => capability === undefined || capabilityForPurpose(m.purpose) !== capability)
    .map((m) => m.purpose);
}

function mappedConflict(name: string, purposes: readonly string[], what: string): MarginError {
  return MarginError.conflict(
    `${what}: purposes map to ${name} (${[...new Set(purposes)].join(', ')}). Point them at another logical model first.`,
    { purposes: [...new Set(purposes)] },
  );
}

function newRecord(deps: AiDeps, owner: Owner, req: ReturnType<typeof LogicalModelInput.parse>): LogicalModelRecord {
  const now = deps.clock.now().toISOString();
  return {
    id: deps.ids.uuid(),
    ownerKind: owner.kind,
    ownerId: owner.id,
    name: req.name,
    ...targetOf(req),
    createdAt: now,
    updatedAt: now,
  };
}

/** The record a PUT leaves: the target and settings replaced, identity and name kept. */
function replaced(deps: AiDeps, current: LogicalModelRecord, req: ReturnType<typeof parsePut>): LogicalModelRecord {
  return {
    ...current,
    ...targetOf(req),
    name: req.name ?? current.name,
    updatedAt: deps.clock.now().toISOString(),
  };
}

function targetOf(req: ReturnType<typeof parsePut> | ReturnType<typeof LogicalModelInput.parse>) {
  return {
    capability: req.capability,
    connectionId: req.connectionId,
    configuredModelId: req.configuredModelId,
    reasoningEffort: req.reasoningEffort ?? 'none',
    protocolMode: req.protocolMode ?? 'auto',
  } as const;
}

function parsePut(name: string, input: unknown) {
  const req = PutLogicalModelInput.parse(input);
  if (req.name !== undefined && !sameName(req.name, name)) {
    throw MarginError.invalid([
      { path: 'name', message: 'name must match the name in the path; logical models are not renamed.' },
    ]);
  }
  return req;
}

// ── Client overrides and purposes ─────────────────────────────────────────────────────────────

/**
 * The client's effective logical models: its overrides, then the tenant-catalog entries they do
 * not shadow (names compare ignoring case), and what each purpose is mapped to.
 */
export async function listClientLogicalModels(deps: AiDeps, actor: Actor, clientId: string) {
  const client = await deps.authz.requireClient(actor, 'ai.logicalModels.read', clientId);
  const useTenant = await tenantCatalogInUse(deps, client.tenantId);
  const [overrides, tenantEntries, mappings] = await Promise.all([
    deps.storage.aiLogicalModels.list('client', clientId),
    useTenant ? deps.storage.aiLogicalModels.list('tenant', client.tenantId) : Promise.resolve([]),
    deps.storage.aiLogicalModels.listPurposes(clientId),
  ]);
  const shadowed = (name: string) => overrides.some((o) => sameName(o.name, name));
  const items = [
    ...overrides.map((o) => ({
      ...logicalModelView(o),
      shadowsTenantEntry: tenantEntries.some((t) => sameName(t.name, o.name)),
    })),
    ...tenantEntries
      .filter((t) => !shadowed(t.name))
      .map((t) => ({ ...logicalModelView(t), shadowsTenantEntry: false })),
  ].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
  return {
    items,
    purposes: AI_PURPOSES.map((purpose) => ({
      purpose,
      requiredCapability: capabilityForPurpose(purpose),
      logicalModelName: mappings.find((m) => m.purpose === purpose)?.logicalModelName ?? null,
    })),
  };
}

export async function createClientOverride(deps: AiDeps, actor: Actor, clientId: string, input: unknown) {
  const req = LogicalModelInput.parse(input);
  const client = await deps.authz.requireClient(actor, 'ai.logicalModels.manage', clientId);
  const record = await deps.storage.transaction(async (tx) => {
    const made = newRecord(deps, clientOwner(client), req);
    if (await tx.aiLogicalModels.find('client', clientId, req.name)) throw duplicate(req.name, 'client');
    await assertTarget(deps, tx, clientOwner(client), made);
    await tx.aiLogicalModels.insert(made);
    return made;
  });
  return logicalModelView(record);
}

const duplicate = (name: string, where: 'client' | 'tenant') =>
  MarginError.conflict(`This ${where} already has a logical model named ${name}.`);

export async function getClientOverride(deps: AiDeps, actor: Actor, clientId: string, name: string) {
  await deps.authz.requireClient(actor, 'ai.logicalModels.read', clientId);
  const found = await deps.storage.aiLogicalModels.find('client', clientId, name);
  if (!found) throw MarginError.notFound('Logical model not found.');
  return logicalModelView(found);
}

/** Repoints an override; refused (409) if a purpose mapped to it needs the other capability. */
export async function putClientOverride(deps: AiDeps, actor: Actor, clientId: string, name: string, input: unknown) {
  const req = parsePut(name, input);
  const client = await deps.authz.requireClient(actor, 'ai.logicalModels.manage', clientId);
  await deps.storage.transaction(async (tx) => {
    const current = await tx.aiLogicalModels.find('client', clientId, name);
    if (!current) throw MarginError.notFound('Logical model not found.');
    const next = replaced(deps, current, req);
    await assertTarget(deps, tx, clientOwner(client), next);
    const mapped = (await tx.aiLogicalModels.listPurposes(clientId)).filter((m) => sameName(m.logicalModelName, name));
    const broken = breaks(mapped, next.capability);
    if (broken.length > 0)
      throw mappedConflict(current.name, broken, `The capability cannot change to ${next.capability}`);
    await tx.aiLogicalModels.update(next);
  });
}

/** Removes an override; refused (409) while a purpose maps to the name and no tenant entry would take over. */
export async function deleteClientOverride(deps: AiDeps, actor: Actor, clientId: string, name: string) {
  const client = await deps.authz.requireClient(actor, 'ai.logicalModels.manage', clientId);
  const useTenant = await tenantCatalogInUse(deps, client.tenantId);
  await deps.storage.transaction(async (tx) => {
    const current = await tx.aiLogicalModels.find('client', clientId, name);
    if (!current) throw MarginError.notFound('Logical model not found.');
    const mapped = (await tx.aiLogicalModels.listPurposes(clientId)).filter((m) => sameName(m.logicalModelName, name));
    if (mapped.length > 0) {
      const fallback = useTenant ? await tx.aiLogicalModels.find('tenant', client.tenantId, name) : undefined;
      const broken = breaks(mapped, fallback?.capability);
      if (broken.length > 0) throw mappedConflict(current.name, broken, 'The logical model cannot be deleted');
    }
    await tx.aiLogicalModels.delete('client', clientId, name);
  });
}

/** Points a purpose at a logical model that is effective for the client and has the capability it needs. */
export async function putPurpose(deps: AiDeps, actor: Actor, clientId: string, purpose: string, input: unknown) {
  const { purpose: parsedPurpose } = PurposePath.parse({ purpose });
  const { logicalModelName } = PutPurposeInput.parse(input);
  const client = await deps.authz.requireClient(actor, 'ai.logicalModels.manage', clientId);
  const useTenant = await tenantCatalogInUse(deps, client.tenantId);
  const mapping = await deps.storage.transaction(async (tx) => {
    const model =
      (await tx.aiLogicalModels.find('client', clientId, logicalModelName)) ??
      (useTenant ? await tx.aiLogicalModels.find('tenant', client.tenantId, logicalModelName) : undefined);
    if (!model) {
      throw MarginError.invalid([
        {
          path: 'logicalModelName',
          message: `${logicalModelName} is not a logical model of this client (an override or a tenant-catalog entry).`,
        },
      ]);
    }
    const needs = capabilityForPurpose(parsedPurpose);
    if (model.capability !== needs) {
      throw MarginError.invalid([
        {
          path: 'logicalModelName',
          message: `${parsedPurpose} needs ${article(needs)} model; ${model.name} is ${article(model.capability)} model.`,
        },
      ]);
    }
    const record: PurposeMappingRecord = {
      clientId,
      purpose: parsedPurpose,
      logicalModelName: model.name,
      updatedAt: deps.clock.now().toISOString(),
    };
    await tx.aiLogicalModels.putPurpose(record);
    return record;
  });
  return { purpose: mapping.purpose, logicalModelName: mapping.logicalModelName };
}

/** Unmaps a purpose: it then resolves through the profiles' purpose bindings again. */
export async function deletePurpose(deps: AiDeps, actor: Actor, clientId: string, purpose: string) {
  const { purpose: parsedPurpose } = PurposePath.parse({ purpose });
  await deps.authz.requireClient(actor, 'ai.logicalModels.manage', clientId);
  if (!(await deps.storage.aiLogicalModels.deletePurpose(clientId, parsedPurpose))) {
    throw MarginError.notFound('This purpose is not mapped.');
  }
}

// ── Tenant catalog entries ───────────────────────────────────────────────────────────────────

export async function listTenantLogicalModels(deps: AiDeps, actor: Actor, tenantId: string) {
  await deps.authz.requireTenant(actor, 'tenants.catalog.read', tenantId);
  return { items: (await deps.storage.aiLogicalModels.list('tenant', tenantId)).map(logicalModelView) };
}

/** A tenant-catalog entry, pointing at a connection of one of the tenant's clients. */
export async function createTenantLogicalModel(deps: AiDeps, actor: Actor, tenantId: string, input: unknown) {
  const req = LogicalModelInput.parse(input);
  const tenant = await deps.authz.requireTenant(actor, 'tenants.catalog.manage', tenantId);
  await assertTenantCatalogWritable(deps, tenant);
  const owner: Owner = { kind: 'tenant', id: tenantId, tenantId };
  const record = await deps.storage.transaction(async (tx) => {
    const made = newRecord(deps, owner, req);
    if (await tx.aiLogicalModels.find('tenant', tenantId, req.name)) throw duplicate(req.name, 'tenant');
    await assertTarget(deps, tx, owner, made);
    await tx.aiLogicalModels.insert(made);
    await auditTenantAi(deps, tx, actor, tenantId, {
      resourceType: 'tenantLogicalModel',
      verb: 'created',
      resourceId: made.name,
      summary: `created logical model '${made.name}' (${made.capability})`,
    });
    return made;
  });
  return logicalModelView(record);
}

export async function putTenantLogicalModel(
  deps: AiDeps,
  actor: Actor,
  tenantId: string,
  name: string,
  input: unknown,
) {
  const req = parsePut(name, input);
  const tenant = await deps.authz.requireTenant(actor, 'tenants.catalog.manage', tenantId);
  await assertTenantCatalogWritable(deps, tenant);
  const owner: Owner = { kind: 'tenant', id: tenantId, tenantId };
  await deps.storage.transaction(async (tx) => {
    const current = await tx.aiLogicalModels.find('tenant', tenantId, name);
    if (!current) throw MarginError.notFound('Logical model not found.');
    const next = replaced(deps, current, req);
    await assertTarget(deps, tx, owner, next);
    const broken = breaks(await tx.aiLogicalModels.listTenantNameMappings(tenantId, name), next.capability);
    if (broken.length > 0)
      throw mappedConflict(current.name, broken, `The capability cannot change to ${next.capability}`);
    await tx.aiLogicalModels.update(next);
    await auditTenantAi(deps, tx, actor, tenantId, {
      resourceType: 'tenantLogicalModel',
      verb: 'updated',
      resourceId: current.name,
      summary: `replaced logical model '${current.name}' (${next.capability})`,
    });
  });
}

/** Removes a tenant entry; refused (409) while a client's purpose depends on it. */
export async function deleteTenantLogicalModel(deps: AiDeps, actor: Actor, tenantId: string, name: string) {
  const tenant = await deps.authz.requireTenant(actor, 'tenants.catalog.manage', tenantId);
  await assertTenantCatalogWritable(deps, tenant);
  await deps.storage.transaction(async (tx) => {
    const current = await tx.aiLogicalModels.find('tenant', tenantId, name);
    if (!current) throw MarginError.notFound('Logical model not found.');
    const broken = breaks(await tx.aiLogicalModels.listTenantNameMappings(tenantId, name), undefined);
    if (broken.length > 0) throw mappedConflict(current.name, broken, 'The logical model cannot be deleted');
    await tx.aiLogicalModels.delete('tenant', tenantId, name);
    await auditTenantAi(deps, tx, actor, tenantId, {
      resourceType: 'tenantLogicalModel',
      verb: 'deleted',
      resourceId: current.name,
      summary: `deleted logical model '${current.name}'`,
    });
  });
}
