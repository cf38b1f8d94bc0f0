import { changedFields } from '../audit/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { readLicensing, requireCapability, requireMultiTenancy } from '../licensing/index.js';
import { CreateTenantInput, PatchTenantInput, TENANT_SLUG } from './schemas.js';
import type { TenancyDeps } from './tenancy-deps.js';
import type { TenantRecord, TenantsRepository } from './tenancy-records.js';

export const tenantView = (t: TenantRecord) => ({
  id: t.id,
  displayName: t.displayName,
  slug: t.slug,
  isActive: t.isActive,
  loginPolicy: t.loginPolicy,
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

/** A slug made from the display name, with a numbered suffix while it is taken; callers may name their own. */
async function slugFromName(tenants: TenantsRepository, displayName: string): Promise<string> {
  const base =
    displayName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 34) || 'tenant';
  const padded = base.length >= 2 ? base : `${base}-tenant`;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? padded : `${padded}-${n}`;
    if (TENANT_SLUG.test(candidate) && !(await tenants.findBySlug(candidate))) return candidate;
  }
}

export async function createTenant(deps: TenancyDeps, actor: Actor, input: unknown) {
  deps.authz.requirePlatform(actor, 'tenants.create');
  const req = CreateTenantInput.parse(input);
  await requireMultiTenancy(deps, 'Creating a tenant');
  const now = deps.clock.now().toISOString();
  const tenant = await deps.storage.transaction(async (tx) => {
    const slug = req.slug ?? (await slugFromName(tx.tenants, req.displayName));
    if (req.slug && (await tx.tenants.findBySlug(req.slug))) throw slugTaken();
    const record: TenantRecord = {
      id: deps.ids.uuid(),
      displayName: req.displayName,
      slug,
      isActive: true,
      loginPolicy: 'localAndSso',
      createdAt: now,
      updatedAt: now,
    };
    await tx.tenants.insert(record);
    await deps.audit.record(tx, actor, {
      tenantId: record.id,
      verb: 'created',
      resourceType: 'tenant',
      resourceId: record.id,
      summary: `created tenant '${record.displayName}' (${slug})`,
    });
    return record;
  });
  return tenantView(tenant);
}

const slugTaken = () => MarginError.conflict('A tenant with this slug already exists.');

/**
 * Renames a tenant, sets its login policy (tenant administrator) or (de)activates it (platform
 * administrator only: a tenant's own administrator must not be able to lock the tenant out or back in).
 * `ssoOnly` needs `sso-authentication`; the System tenant always stays active.
 */
export async function patchTenant(deps: TenancyDeps, actor: Actor, tenantId: string, input: unknown) {
  const req = PatchTenantInput.parse(input);
  await deps.authz.requireTenant(actor, 'tenants.update', tenantId);
  await requireMultiTenancy(deps, 'Editing a tenant');
  if (req.isActive !== undefined) deps.authz.requirePlatform(actor, 'tenants.activate');
  if (req.isActive === false && tenantId === SYSTEM_TENANT_ID) {
    throw MarginError.invalid([{ path: 'isActive', message: 'The System tenant cannot be deactivated.' }]);
  }
  if (req.loginPolicy === 'ssoOnly') await requireCapability(deps, 'sso-authentication');
  const updated = await deps.storage.transaction(async (tx) => {
    const next = await tx.tenants.update(tenantId, { ...req, updatedAt: deps.clock.now().toISOString() });
    if (!next) throw MarginError.notFound('Tenant not found.');
    await deps.audit.record(tx, actor, {
      tenantId,
      verb: req.isActive === false ? 'deactivated' : 'updated',
      resourceType: 'tenant',
      resourceId: tenantId,
      summary: tenantChangeSummary(req),
    });
    return next;
  });
  // Every cached client access carries its tenant's state; tenant changes are rare.
  deps.clientAccess.forgetAll();
  deps.events.emit('tenant.updated', { tenantId, isActive: updated.isActive });
  return tenantView(updated);
}

/** Field names, with the values that are not free text (state and policy) spelled out. */
function tenantChangeSummary(req: ReturnType<typeof PatchTenantInput.parse>): string {
  const values: string[] = [];
  if (req.isActive !== undefined) values.push(req.isActive ? 'activated' : 'deactivated');
  if (req.loginPolicy !== undefined) values.push(`login policy ${req.loginPolicy}`);
  return values.length > 0 ? `${changedFields(req)} (${values.join(', ')})` : changedFields(req);
}
