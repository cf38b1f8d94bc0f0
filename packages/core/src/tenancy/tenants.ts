import { changedFields } from '../audit/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { readLicensing, requireMultiTenancy } from '../licensing/index.js';
import { CreateTenantInput, PatchTenantInput } from './schemas.js';
import type { TenancyDeps } from './tenancy-deps.js';
import type { TenantRecord } from './tenancy-records.js';

export const tenantView = (t: TenantRecord) => ({
  id: t.id,
  displayName: t.displayName,
  isSystem: t.id === SYSTEM_TENANT_ID,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

/** Tenants in which the caller may create a client. */
export async function listCreatableTenants(deps: TenancyDeps, actor: Actor) {
  const [tenants, licensing] = await Promise.all([deps.storage.tenants.list(), readLicensing(deps)]);
  const reachable = licensing.edition === 'Commercial' ? tenants : tenants.filter((t) => t.id === SYSTEM_TENANT_ID);
  if (actor.globalRole === 'platformAdmin') return { items: reachable.map(tenantView) };
  const administered = new Set(
    (await deps.storage.memberships.forUser(actor.userId)).tenants
      .filter((m) => m.role === 'TenantAdministrator')
      .map((m) => m.tenantId),
  );
  // Creating a client in the System tenant is the platform administrator's alone.
  return { items: reachable.filter((t) => t.id !== SYSTEM_TENANT_ID && administered.has(t.id)).map(tenantView) };
}

export async function createTenant(deps: TenancyDeps, actor: Actor, input: unknown) {
  deps.authz.requirePlatform(actor, 'tenants.create');
  const { displayName } = CreateTenantInput.parse(input);
  await requireMultiTenancy(deps, 'Creating a tenant');
  const now = deps.clock.now().toISOString();
  const tenant: TenantRecord = { id: deps.ids.uuid(), displayName, createdAt: now, updatedAt: now };
  await deps.storage.transaction(async (tx) => {
    await tx.tenants.insert(tenant);
    await deps.audit.record(tx, actor, {
      tenantId: tenant.id,
      verb: 'created',
      resourceType: 'tenant',
      resourceId: tenant.id,
      summary: `created tenant '${displayName}'`,
    });
  });
  return tenantView(tenant);
}

export async function patchTenant(deps: TenancyDeps, actor: Actor, tenantId: string, input: unknown) {
  const req = PatchTenantInput.parse(input);
  await deps.authz.requireTenant(actor, 'tenants.update', tenantId);
  await requireMultiTenancy(deps, 'Editing a tenant');
  const updated = await deps.storage.transaction(async (tx) => {
    const next = await tx.tenants.update(tenantId, { ...req, updatedAt: deps.clock.now().toISOString() });
    if (!next) throw MarginError.notFound('Tenant not found.');
    await deps.audit.record(tx, actor, {
      tenantId,
      verb: 'updated',
      resourceType: 'tenant',
      resourceId: tenantId,
      summary: changedFields(req),
    });
    return next;
  });
  return tenantView(updated);
}
