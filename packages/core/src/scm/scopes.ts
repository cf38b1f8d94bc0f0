import { changedFields } from '../audit/index.js';
import type { Actor } from '../kernel/index.js';
import { PageQuery } from '../kernel/index.js';
import type { ProviderScopePatch, ProviderScopeRecord } from './connection-records.js';
import { requireConnection } from './connections.js';
import { scopeNotFound } from './open-scm-provider.js';
import { CreateProviderScopeInput, PatchProviderScopeInput } from './schemas.js';
import type { ScmDeps } from './scm-deps.js';
import { canonicalUrl, urlKey } from './support-matrix.js';

export const providerScopeView = (s: ProviderScopeRecord) => ({
  id: s.id,
  clientId: s.clientId,
  connectionId: s.connectionId,
  scopeType: s.scopeType,
  externalScopeId: s.externalScopeId,
  scopePath: s.scopePath,
  displayName: s.displayName,
  isEnabled: s.isEnabled,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

async function requireScope(deps: ScmDeps, clientId: string, connectionId: string, scopeId: string) {
  await requireConnection(deps, clientId, connectionId);
  const scope = await deps.storage.providerScopes.findById(scopeId);
  if (!scope || scope.connectionId !== connectionId) throw scopeNotFound();
  return scope;
}

/** A scope path appears once per connection, whatever its case or trailing slash (409 otherwise). */
export async function createProviderScope(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  connectionId: string,
  input: unknown,
) {
  const req = CreateProviderScopeInput.parse(input);
  const client = await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  await requireConnection(deps, clientId, connectionId);
  const now = deps.clock.now().toISOString();
  const scopePath = canonicalUrl(req.scopePath);
  const scope: ProviderScopeRecord = {
    id: deps.ids.uuid(),
    connectionId,
    clientId,
    scopeType: req.scopeType,
    externalScopeId: req.externalScopeId || null,
    scopePath,
    scopePathKey: urlKey(scopePath),
    displayName: req.displayName ?? scopePath,
    isEnabled: req.isEnabled ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.transaction(async (tx) => {
    await tx.providerScopes.insert(scope);
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'scmConnection',
      verb: 'scopeCreated',
      resourceId: connectionId,
      summary: `added ${scope.scopeType} scope ${scope.id}`,
    });
  });
  return providerScopeView(scope);
}

/** Readable by ClientUser: discovery starts from a scope id. */
export async function listProviderScopes(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  connectionId: string,
  query: unknown,
) {
  const page = PageQuery.parse(query);
  await deps.authz.requireClient(actor, 'scm.discovery', clientId);
  await requireConnection(deps, clientId, connectionId);
  const result = await deps.storage.providerScopes.listForConnection(connectionId, page);
  return { items: result.items.map(providerScopeView), nextCursor: result.nextCursor };
}

export async function patchProviderScope(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  connectionId: string,
  scopeId: string,
  input: unknown,
) {
  const req = PatchProviderScopeInput.parse(input);
  const client = await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  await requireScope(deps, clientId, connectionId, scopeId);
  const patch: ProviderScopePatch = { updatedAt: deps.clock.now().toISOString() };
  if (req.scopeType !== undefined) patch.scopeType = req.scopeType;
  if (req.externalScopeId !== undefined) patch.externalScopeId = req.externalScopeId || null;
  if (req.scopePath !== undefined) {
    patch.scopePath = canonicalUrl(req.scopePath);
    patch.scopePathKey = urlKey(patch.scopePath);
  }
  if (req.displayName !== undefined) patch.displayName = req.displayName;
  if (req.isEnabled !== undefined) patch.isEnabled = req.isEnabled;
  const updated = await deps.storage.transaction(async (tx) => {
    const next = await tx.providerScopes.update(scopeId, patch);
    if (!next) throw scopeNotFound();
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'scmConnection',
      verb: 'scopeUpdated',
      resourceId: connectionId,
      summary: `${changedFields(req)} of scope ${scopeId}`,
    });
    return next;
  });
  return providerScopeView(updated);
}

export async function deleteProviderScope(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  connectionId: string,
  scopeId: string,
): Promise<void> {
  const client = await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  await requireScope(deps, clientId, connectionId, scopeId);
  await deps.storage.transaction(async (tx) => {
    if (!(await tx.providerScopes.delete(scopeId))) throw scopeNotFound();
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'scmConnection',
      verb: 'scopeDeleted',
      resourceId: connectionId,
      summary: `removed scope ${scopeId}`,
    });
  });
}
