import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/index.js';

describe('clients and tenants', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('creates a System-tenant client and refuses a duplicate name in any case', async () => {
    const admin = await host.admin();
    const created = await admin.post('/clients', { displayName: 'Payments', tenantId: SYSTEM_TENANT_ID });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      tenantId: SYSTEM_TENANT_ID,
      displayName: 'Payments',
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const dup = await admin.post('/clients', { displayName: 'PAYMENTS', tenantId: SYSTEM_TENANT_ID });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('This tenant already has a client with that name.');
  });

  it('validates the client body and answers 404 for an unknown tenant', async () => {
    const admin = await host.admin();
    const missing = await admin.post('/clients', { tenantId: SYSTEM_TENANT_ID });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: 'displayName', message: expect.any(String) }]);
    expect((await admin.post('/clients', { displayName: 'X', tenantId: 'not-a-uuid' })).status).toBe(400);
    expect(
      (await admin.post('/clients', { displayName: 'X', tenantId: '22222222-2222-4222-8222-222222222222' })).status,
    ).toBe(404);
  });

  it('refuses a second tenant and edits of the System tenant in Community with a license error', async () => {
    const admin = await host.admin();
    const create = await admin.post('/admin/tenants', { displayName: 'Acme' });
    expect(create.status).toBe(409);
    expect(create.body).toMatchObject({ code: 'license_required', capability: 'multi-tenancy' });
    expect(create.body.error).toContain('Commercial license');
    const edit = await admin.patch(`/admin/tenants/${SYSTEM_TENANT_ID}`, { displayName: 'Main' });
    expect(edit.status).toBe(409);
    expect(edit.body.code).toBe('license_required');
  });

  it('in Commercial: tenant administrators create clients in their tenant only; dropping to Community hides but keeps them', async () => {
    const admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    const acme = (await admin.post('/admin/tenants', { displayName: 'Acme' })).body;
    expect(acme).toMatchObject({ displayName: 'Acme', isSystem: false });
    const other = (await admin.post('/admin/tenants', { displayName: 'Other' })).body;

    const ta = await host.createUser('acme-admin');
    const tu = await host.createUser('acme-user');
    await admin.put(`/admin/tenants/${acme.id}/members/${ta.id}`, { role: 'TenantAdministrator' });
    await admin.put(`/admin/tenants/${acme.id}/members/${tu.id}`, { role: 'TenantUser' });

    expect((await ta.api.get('/admin/tenants')).body.items.map((t: { id: string }) => t.id)).toEqual([acme.id]);
    const made = await ta.api.post('/clients', { displayName: 'Acme Web', tenantId: acme.id });
    expect(made.status).toBe(201);
    expect((await tu.api.post('/clients', { displayName: 'Nope', tenantId: acme.id })).status).toBe(403);
    expect((await ta.api.post('/clients', { displayName: 'Nope', tenantId: other.id })).status).toBe(404);
    expect((await ta.api.post('/clients', { displayName: 'Nope', tenantId: SYSTEM_TENANT_ID })).status).toBe(403);
    // A tenant administrator administers every client of the tenant without an explicit role.
    expect((await ta.api.patch(`/clients/${made.body.id}`, { isActive: false })).body.isActive).toBe(false);
    expect((await ta.api.patch(`/admin/tenants/${acme.id}`, { displayName: 'Acme Corp' })).body.displayName).toBe(
      'Acme Corp',
    );

    expect((await admin.patch('/admin/licensing', { edition: 'Community' })).status).toBe(200);
    expect((await ta.api.get(`/clients/${made.body.id}`)).status).toBe(404);
    expect((await admin.get(`/clients/${made.body.id}`)).status).toBe(404);
    expect((await admin.get('/clients')).body.items.map((c: { tenantId: string }) => c.tenantId)).not.toContain(
      acme.id,
    );
    expect(await host.storage.clients.findById(made.body.id)).toBeDefined();
    const refused = await admin.post('/clients', { displayName: 'Acme Mobile', tenantId: acme.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error:
        'A client outside the System tenant needs a Commercial license (multi-tenancy): Community has only the System tenant.',
      code: 'license_required',
      capability: 'multi-tenancy',
    });

    await admin.patch('/admin/licensing', { edition: 'Commercial' });
    expect((await ta.api.get(`/clients/${made.body.id}`)).status).toBe(200);
  });
});
