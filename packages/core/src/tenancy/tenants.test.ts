import { beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM_TENANT_ID } from '../kernel/index.js';
import { issuesOf, PLATFORM_ADMIN, refusalOf, startUseCases, type UseCaseHarness } from '../use-case-harness.js';

let h: UseCaseHarness;
const creatable = async (actor = PLATFORM_ADMIN) =>
  (await h.core.tenancy.listCreatableTenants(actor)).items.map((t) => t.id);
const createTenant = (displayName: string, actor = PLATFORM_ADMIN) =>
  h.core.tenancy.createTenant(actor, { displayName });
const patchTenant = (tenantId: string, body: Record<string, unknown>, actor = PLATFORM_ADMIN) =>
  h.core.tenancy.patchTenant(actor, tenantId, body);

beforeEach(async () => {
  h = await startUseCases();
});

describe('tenants in Community', () => {
  it('has the built-in System tenant, in which only the platform administrator creates clients', async () => {
    expect((await h.core.tenancy.listCreatableTenants(PLATFORM_ADMIN)).items).toEqual([
      {
        id: SYSTEM_TENANT_ID,
        displayName: 'System',
        slug: 'system',
        isActive: true,
        loginPolicy: 'localAndSso',
        isSystem: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const systemAdmin = await h.tenantMember(SYSTEM_TENANT_ID, 'TenantAdministrator');
    expect(await creatable(systemAdmin)).toEqual([]);
    expect(await creatable(await h.newUser())).toEqual([]);
  });

  it('refuses a further tenant with 409 license_required naming multi-tenancy; non-administrators are refused first', async () => {
    const refused = await refusalOf(createTenant('Acme'));
    expect(refused.code).toBe('license_required');
    expect(refused.message).toBe(
      'Creating a tenant needs a Commercial license (multi-tenancy): Community has only the System tenant.',
    );
    expect(refused.details).toEqual({ capability: 'multi-tenancy' });
    expect((await refusalOf(createTenant('Acme', await h.newUser()))).code).toBe('forbidden');
  });

  it('refuses edits of the System tenant with 409 license_required, to its administrators; others learn nothing', async () => {
    for (const actor of [PLATFORM_ADMIN, await h.tenantMember(SYSTEM_TENANT_ID, 'TenantAdministrator')]) {
      const refused = await refusalOf(patchTenant(SYSTEM_TENANT_ID, { displayName: 'Main' }, actor));
      expect(refused.code).toBe('license_required');
      expect(refused.details).toEqual({ capability: 'multi-tenancy' });
    }
    const tenantUser = await h.tenantMember(SYSTEM_TENANT_ID, 'TenantUser');
    expect((await refusalOf(patchTenant(SYSTEM_TENANT_ID, { displayName: 'Main' }, tenantUser))).code).toBe(
      'forbidden',
    );
    expect((await refusalOf(patchTenant(SYSTEM_TENANT_ID, { displayName: 'Main' }, await h.newUser()))).code).toBe(
      'not_found',
    );
  });
});

describe('tenants in Commercial', () => {
  beforeEach(async () => {
    await h.setEdition('Commercial');
    // Tenants are made after the installation seeded its System tenant (they list oldest first).
    h.clock.advance(60_000);
  });

  it('creates further tenants, by the platform administrator only', async () => {
    const acme = await createTenant('Acme');
    expect(acme).toEqual({
      id: expect.any(String),
      displayName: 'Acme',
      slug: 'acme',
      isActive: true,
      loginPolicy: 'localAndSso',
      isSystem: false,
      createdAt: h.clock.now().toISOString(),
      updatedAt: h.clock.now().toISOString(),
    });
    expect(await creatable()).toEqual([SYSTEM_TENANT_ID, acme.id]);
    const acmeAdmin = await h.tenantMember(acme.id, 'TenantAdministrator');
    expect((await refusalOf(createTenant('Mine', acmeAdmin))).code).toBe('forbidden');
    expect(issuesOf(await refusalOf(createTenant('  ')))).toEqual([
      { path: 'displayName', message: 'displayName is required' },
    ]);
  });

  it('lists to a tenant administrator the tenants it administers, never the System tenant', async () => {
    const acme = await createTenant('Acme');
    const other = await createTenant('Other');
    const acmeAdmin = await h.tenantMember(acme.id, 'TenantAdministrator');
    await h.core.identity.putTenantMember(PLATFORM_ADMIN, SYSTEM_TENANT_ID, acmeAdmin.userId, {
      role: 'TenantAdministrator',
    });
    await h.core.identity.putTenantMember(PLATFORM_ADMIN, other.id, acmeAdmin.userId, { role: 'TenantUser' });
    expect(await creatable(acmeAdmin)).toEqual([acme.id]);
  });

  it('lets the tenant’s administrator edit it; its users may not, and other callers learn nothing', async () => {
    const acme = await createTenant('Acme');
    const admin = await h.tenantMember(acme.id, 'TenantAdministrator');
    h.clock.advance(1000);
    expect(await patchTenant(acme.id, { displayName: 'Acme Corp' }, admin)).toMatchObject({
      id: acme.id,
      displayName: 'Acme Corp',
      updatedAt: h.clock.now().toISOString(),
    });
    const user = await h.tenantMember(acme.id, 'TenantUser');
    expect((await refusalOf(patchTenant(acme.id, { displayName: 'Mine' }, user))).code).toBe('forbidden');
    const otherAdmin = await h.tenantMember((await createTenant('Other')).id, 'TenantAdministrator');
    expect((await refusalOf(patchTenant(acme.id, { displayName: 'Mine' }, otherAdmin))).code).toBe('not_found');
    expect((await refusalOf(patchTenant('00000000-0000-4000-8000-00000000beef', { displayName: 'X' }))).code).toBe(
      'not_found',
    );
    expect((await patchTenant(SYSTEM_TENANT_ID, { displayName: 'Main' })).displayName).toBe('Main');
  });

  it('keeps further tenants when the installation drops to Community, out of reach until it is Commercial again', async () => {
    const acme = await createTenant('Acme');
    await h.setEdition('Community');
    expect(await creatable()).toEqual([SYSTEM_TENANT_ID]);
    expect((await refusalOf(patchTenant(acme.id, { displayName: 'Acme Corp' }))).code).toBe('license_required');
    expect(await h.storage.tenants.findById(acme.id)).toBeDefined();
    await h.setEdition('Commercial');
    expect(await creatable()).toEqual([SYSTEM_TENANT_ID, acme.id]);
  });

  it('takes a unique slug, or makes one from the name, and validates it', async () => {
    expect((await h.core.tenancy.createTenant(PLATFORM_ADMIN, { displayName: 'Acme', slug: 'acme-eu' })).slug).toBe(
      'acme-eu',
    );
    const taken = await refusalOf(
      h.core.tenancy.createTenant(PLATFORM_ADMIN, { displayName: 'Other', slug: 'acme-eu' }),
    );
    expect(taken).toMatchObject({ code: 'conflict', message: 'A tenant with this slug already exists.' });
    expect((await createTenant('Acme Corp.')).slug).toBe('acme-corp');
    expect((await createTenant('Acme Corp!')).slug).toBe('acme-corp-2');
    for (const slug of ['A', 'UPPER', 'with space', 'x'.repeat(41)]) {
      const refused = await refusalOf(h.core.tenancy.createTenant(PLATFORM_ADMIN, { displayName: 'X', slug }));
      expect(issuesOf(refused)).toEqual([{ path: 'slug', message: expect.any(String) }]);
    }
  });

  it('lets only the platform administrator (de)activate a tenant, never the System tenant, and audits it', async () => {
    const acme = await createTenant('Acme');
    const admin = await h.tenantMember(acme.id, 'TenantAdministrator');
    expect((await refusalOf(patchTenant(acme.id, { isActive: false }, admin))).code).toBe('forbidden');
    expect(await patchTenant(acme.id, { isActive: false })).toMatchObject({ isActive: false });
    expect(issuesOf(await refusalOf(patchTenant(SYSTEM_TENANT_ID, { isActive: false })))).toEqual([
      { path: 'isActive', message: 'The System tenant cannot be deactivated.' },
    ]);
    const trail = await h.core.audit.listTenantAudit(PLATFORM_ADMIN, acme.id, {});
    expect(trail.items[0]).toMatchObject({
      action: 'tenant.deactivated',
      resourceId: acme.id,
      summary: 'changed isActive (deactivated)',
    });
  });

  it('sets the login policy as the tenant administrator; ssoOnly needs sso-authentication', async () => {
    const acme = await createTenant('Acme');
    const admin = await h.tenantMember(acme.id, 'TenantAdministrator');
    expect(await patchTenant(acme.id, { loginPolicy: 'ssoOnly' }, admin)).toMatchObject({ loginPolicy: 'ssoOnly' });
    expect(issuesOf(await refusalOf(patchTenant(acme.id, { loginPolicy: 'everyone' }, admin)))).toEqual([
      { path: 'loginPolicy', message: expect.any(String) },
    ]);
    await h.core.licensing.patchLicensing(PLATFORM_ADMIN, {
      edition: 'Commercial',
      capabilityOverrides: [{ capability: 'sso-authentication', overrideState: 'disabled' }],
    });
    const refused = await refusalOf(patchTenant(acme.id, { loginPolicy: 'ssoOnly' }, admin));
    expect(refused).toMatchObject({ code: 'license_required', details: { capability: 'sso-authentication' } });
    expect((await patchTenant(acme.id, { loginPolicy: 'localAndSso' }, admin)).loginPolicy).toBe('localAndSso');
  });
});
