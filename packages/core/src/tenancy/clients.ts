import { changedFields } from '../audit/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError, PageQuery, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { readLicensing, requireMultiTenancy } from '../licensing/index.js';
import { CreateClientInput, PatchClientInput } from './schemas.js';
import type { TenancyDeps } from './tenancy-deps.js';
import type { ClientListFilter, ClientRecord } from './tenancy-records.js';

export const clientView = (c: ClientRecord) => ({
  id: c.id,
  tenantId: c.tenantId,
  displayName: c.displayName,
  isActive: c.isActive,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/** The clients the caller has any role on; Community installations only reach the System tenant. */
export async function listClients(deps: TenancyDeps, actor: Actor, query: unknown) {
  const page = PageQuery.parse(query);
  const filter: ClientListFilter = {};
  if ((await readLicensing(deps)).edition === 'Community') filter.withinTenants = [SYSTEM_TENANT_ID];
  if (actor.globalRole !== 'platformAdmin') {
    const memberships = await deps.storage.memberships.forUser(actor.userId);
    filter.visibility = {
      clientIds: memberships.clients.map((m) => m.clientId),
      tenantIds: memberships.tenants.filter((m) => m.role === 'TenantAdministrator').map((m) => m.tenantId),
    };
  }
  const result = await deps.storage.clients.list(filter, page);
  return { items: result.items.map(clientView), nextCursor: result.nextCursor };
}

/**
 * A client in the System tenant needs the platform administrator; in any other tenant, that
 * tenant's administrator.
 */
export async function createClient(deps: TenancyDeps, actor: Actor, input: unknown) {
  const { displayName, tenantId } = CreateClientInput.parse(input);
  if (tenantId === SYSTEM_TENANT_ID) {
    if (actor.globalRole !== 'platformAdmin') {
      throw MarginError.forbidden('Creating a client in the System tenant needs the platform administrator.');
    }
  } else {
    await deps.authz.requireTenant(actor, 'clients.create', tenantId);
    await requireMultiTenancy(deps, 'A client outside the System tenant');
  }
  const now = deps.clock.now().toISOString();
  const client: ClientRecord = {
    id: deps.ids.uuid(),
    tenantId,
    displayName,
    isActive: true,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.transaction(async (tx) => {
    await tx.clients.insert(client);
    await deps.audit.record(tx, actor, {
      tenantId,
      clientId: client.id,
      verb: 'created',
      resourceType: 'client',
      resourceId: client.id,
      summary: `created client '${displayName}'`,
    });
  });
  return clientView(client);
}

export async function getClient(deps: TenancyDeps, actor: Actor, clientId: string) {
  return clientView(await deps.authz.requireClient(actor, 'clients.read', clientId));
}

export async function patchClient(deps: TenancyDeps, actor: Actor, clientId: string, input: unknown) {
  const req = PatchClientInput.parse(input);
  const current = await deps.authz.requireClient(actor, 'clients.update', clientId);
  const updated = await deps.storage.transaction(async (tx) => {
    const next = await tx.clients.update(clientId, { ...req, updatedAt: deps.clock.now().toISOString() });
    if (!next) throw MarginError.notFound('Client not found.');
    await deps.audit.record(tx, actor, {
      tenantId: current.tenantId,
      clientId,
      verb: 'updated',
      resourceType: 'client',
      resourceId: clientId,
      summary: changedFields(req),
    });
    return next;
  });
  deps.clientAccess.forgetClient(clientId);
  deps.events.emit('client.updated', { clientId, isActive: updated.isActive });
  return clientView(updated);
}
