import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkMatrixRow,
  clientAdmins,
  clientUsers,
  everyone,
  type MatrixRow,
  type Persona,
  platformAdminOnly,
  setUpPersonas,
  startTestHost,
  type TestApi,
  type TestHost,
  tenantAdmins,
} from '../testing/index.js';

describe('authorization matrix (Community edition)', () => {
  let host: TestHost;
  let api: Record<Persona, TestApi>;
  const ids = { clientA: '', clientB: '', target: '' };
  let created = 0;

  beforeAll(async () => {
    host = await startTestHost();
    const personas = await setUpPersonas(host);
    api = personas.api;
    Object.assign(ids, {
      clientA: personas.clientA,
      clientB: personas.clientB,
      target: (await host.createUser('target')).id,
    });
  });
  afterAll(async () => {
    await host.close();
  });

  const asAdmin = () => host.admin();

  const rows: MatrixRow[] = [
    { name: 'who am I', method: 'GET', path: () => '/auth/me', expected: everyone(200) },
    { name: 'list my PATs', method: 'GET', path: () => '/users/me/pats', expected: everyone(200) },
    {
      name: 'create a PAT',
      method: 'POST',
      path: () => '/users/me/pats',
      body: () => ({ label: 'm' }),
      expected: everyone(201),
    },
    {
      name: 'revoke a PAT',
      method: 'DELETE',
      path: () => '/users/me/pats/00000000-0000-4000-8000-00000000dead',
      expected: everyone(404),
    },
    { name: 'list users', method: 'GET', path: () => '/admin/users', expected: platformAdminOnly(200) },
    {
      name: 'create a user',
      method: 'POST',
      path: () => '/admin/users',
      body: () => ({ username: `made-${++created}`, password: 'long-enough-pw' }),
      expected: platformAdminOnly(201),
    },
    {
      name: 'change a user',
      method: 'PATCH',
      path: () => `/admin/users/${ids.target}`,
      body: () => ({ displayName: 'T' }),
      expected: platformAdminOnly(200),
    },
    { name: 'read licensing', method: 'GET', path: () => '/admin/licensing', expected: platformAdminOnly(200) },
    {
      name: 'change licensing',
      method: 'PATCH',
      path: () => '/admin/licensing',
      body: () => ({ edition: 'Community' }),
      expected: platformAdminOnly(200),
    },
    {
      name: 'read a tenant’s audit trail',
      method: 'GET',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}/audit`,
      expected: tenantAdmins(200),
    },
    {
      name: 'read the installation’s audit trail',
      method: 'GET',
      path: () => '/admin/audit',
      expected: platformAdminOnly(200),
    },
    { name: 'list creatable tenants', method: 'GET', path: () => '/admin/tenants', expected: everyone(200) },
    {
      name: 'create a tenant (Community)',
      method: 'POST',
      path: () => '/admin/tenants',
      body: () => ({ displayName: 'New' }),
      expected: platformAdminOnly(409),
    },
    {
      name: 'edit the System tenant (Community)',
      method: 'PATCH',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}`,
      body: () => ({ displayName: 'Renamed' }),
      expected: tenantAdmins(409),
    },
    {
      name: 'list tenant members',
      method: 'GET',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}/members`,
      expected: tenantAdmins(200),
    },
    {
      name: 'assign a tenant role',
      method: 'PUT',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}/members/${ids.target}`,
      body: () => ({ role: 'TenantUser' }),
      expected: tenantAdmins(200),
    },
    {
      name: 'remove a tenant role',
      method: 'DELETE',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}/members/${ids.target}`,
      prepare: async () => {
        await (await asAdmin()).put(`/admin/tenants/${SYSTEM_TENANT_ID}/members/${ids.target}`, { role: 'TenantUser' });
      },
      expected: tenantAdmins(204),
    },
    { name: 'list clients', method: 'GET', path: () => '/clients', expected: everyone(200) },
    {
      name: 'create a System-tenant client',
      method: 'POST',
      path: () => '/clients',
      body: () => ({ displayName: `Made ${++created}`, tenantId: SYSTEM_TENANT_ID }),
      expected: platformAdminOnly(201),
    },
    {
      name: 'read a client',
      method: 'GET',
      path: () => `/clients/${ids.clientA}`,
      expected: clientUsers(200),
    },
    {
      name: 'change a client',
      method: 'PATCH',
      path: () => `/clients/${ids.clientA}`,
      body: () => ({ displayName: 'Client A' }),
      expected: clientAdmins(200),
    },
    {
      name: 'list client members',
      method: 'GET',
      path: () => `/clients/${ids.clientA}/members`,
      expected: clientAdmins(200),
    },
    {
      name: 'assign a client role',
      method: 'PUT',
      path: () => `/clients/${ids.clientA}/members/${ids.target}`,
      body: () => ({ role: 'ClientUser' }),
      expected: clientAdmins(200),
    },
    {
      name: 'remove a client role',
      method: 'DELETE',
      path: () => `/clients/${ids.clientA}/members/${ids.target}`,
      prepare: async () => {
        await (await asAdmin()).put(`/clients/${ids.clientA}/members/${ids.target}`, { role: 'ClientUser' });
      },
      expected: clientAdmins(204),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await checkMatrixRow(api, row);
  });

  it('shows each caller only the clients they have a role on', async () => {
    const names = async (p: Persona) => (await api[p].get('/clients')).body.items.map((c: { id: string }) => c.id);
    expect(await names('clientUser')).toEqual([ids.clientA]);
    expect(await names('clientAdmin')).toEqual([ids.clientA]);
    expect(await names('otherClientAdmin')).toEqual([ids.clientB]);
    expect(await names('tenantAdmin')).toEqual(expect.arrayContaining([ids.clientA, ids.clientB]));
    expect(await names('platformAdmin')).toEqual(expect.arrayContaining([ids.clientA, ids.clientB]));
  });

  it('lists the System tenant as creatable only for the platform administrator', async () => {
    expect((await api.platformAdmin.get('/admin/tenants')).body.items).toEqual([
      expect.objectContaining({ id: SYSTEM_TENANT_ID, isSystem: true }),
    ]);
    expect((await api.tenantAdmin.get('/admin/tenants')).body.items).toEqual([]);
    expect((await api.clientUser.get('/admin/tenants')).body.items).toEqual([]);
  });

  it('reports explicit client and tenant roles in /auth/me', async () => {
    expect((await api.clientUser.get('/auth/me')).body.clientRoles).toEqual({ [ids.clientA]: 'ClientUser' });
    expect((await api.tenantAdmin.get('/auth/me')).body.tenantRoles).toEqual({
      [SYSTEM_TENANT_ID]: 'TenantAdministrator',
    });
  });
});
