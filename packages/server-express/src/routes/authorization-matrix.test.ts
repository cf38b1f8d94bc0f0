import { SYSTEM_TENANT_ID } from '@margin/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

type Persona = 'anonymous' | 'clientUser' | 'clientAdmin' | 'otherClientAdmin' | 'tenantAdmin' | 'platformAdmin';
const PERSONAS: Persona[] = [
  'anonymous',
  'clientUser',
  'clientAdmin',
  'otherClientAdmin',
  'tenantAdmin',
  'platformAdmin',
];

interface Row {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  /** Runs as the platform admin before each persona's call, so every call meets the same state. */
  prepare?: () => Promise<void>;
  expected: Record<Persona, number>;
}

describe('authorization matrix (Community edition)', () => {
  let host: TestHost;
  const api = {} as Record<Persona, TestApi>;
  const ids = { clientA: '', clientB: '', target: '', clientUser: '' };
  let created = 0;

  beforeAll(async () => {
    host = await startTestHost();
    const admin = await host.admin();
    api.anonymous = host.api;
    api.platformAdmin = admin;
    ids.clientA = (await admin.post('/clients', { displayName: 'Client A', tenantId: SYSTEM_TENANT_ID })).body.id;
    ids.clientB = (await admin.post('/clients', { displayName: 'Client B', tenantId: SYSTEM_TENANT_ID })).body.id;
    const cu = await host.createUser('client-user');
    const ca = await host.createUser('client-admin');
    const oca = await host.createUser('other-client-admin');
    const ta = await host.createUser('tenant-admin');
    ids.target = (await host.createUser('target')).id;
    ids.clientUser = cu.id;
    await admin.put(`/clients/${ids.clientA}/members/${cu.id}`, { role: 'ClientUser' });
    await admin.put(`/clients/${ids.clientA}/members/${ca.id}`, { role: 'ClientAdministrator' });
    await admin.put(`/clients/${ids.clientB}/members/${oca.id}`, { role: 'ClientAdministrator' });
    await admin.put(`/admin/tenants/${SYSTEM_TENANT_ID}/members/${ta.id}`, { role: 'TenantAdministrator' });
    Object.assign(api, { clientUser: cu.api, clientAdmin: ca.api, otherClientAdmin: oca.api, tenantAdmin: ta.api });
  });
  afterAll(async () => {
    await host.close();
  });

  const all = (status: number, anonymous = 401): Record<Persona, number> => ({
    anonymous,
    clientUser: status,
    clientAdmin: status,
    otherClientAdmin: status,
    tenantAdmin: status,
    platformAdmin: status,
  });
  const platformOnly = (ok: number): Record<Persona, number> => ({ ...all(403), platformAdmin: ok });
  const asAdmin = () => host.admin();

  const rows: Row[] = [
    { name: 'who am I', method: 'GET', path: () => '/auth/me', expected: all(200) },
    { name: 'list my PATs', method: 'GET', path: () => '/users/me/pats', expected: all(200) },
    {
      name: 'create a PAT',
      method: 'POST',
      path: () => '/users/me/pats',
      body: () => ({ label: 'm' }),
      expected: all(201),
    },
    {
      name: 'revoke a PAT',
      method: 'DELETE',
      path: () => '/users/me/pats/00000000-0000-4000-8000-00000000dead',
      expected: all(404),
    },
    { name: 'list users', method: 'GET', path: () => '/admin/users', expected: platformOnly(200) },
    {
      name: 'create a user',
      method: 'POST',
      path: () => '/admin/users',
      body: () => ({ username: `made-${++created}`, password: 'long-enough-pw' }),
      expected: platformOnly(201),
    },
    {
      name: 'change a user',
      method: 'PATCH',
      path: () => `/admin/users/${ids.target}`,
      body: () => ({ displayName: 'T' }),
      expected: platformOnly(200),
    },
    { name: 'read licensing', method: 'GET', path: () => '/admin/licensing', expected: platformOnly(200) },
    {
      name: 'change licensing',
      method: 'PATCH',
      path: () => '/admin/licensing',
      body: () => ({ edition: 'Community' }),
      expected: platformOnly(200),
    },
    { name: 'list creatable tenants', method: 'GET', path: () => '/admin/tenants', expected: all(200) },
    {
      name: 'create a tenant (Community)',
      method: 'POST',
      path: () => '/admin/tenants',
      body: () => ({ displayName: 'New' }),
      expected: platformOnly(409),
    },
    {
      name: 'edit the System tenant (Community)',
      method: 'PATCH',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}`,
      body: () => ({ displayName: 'Renamed' }),
      expected: { ...all(404), tenantAdmin: 409, platformAdmin: 409 },
    },
    {
      name: 'list tenant members',
      method: 'GET',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}/members`,
      expected: { ...all(404), tenantAdmin: 200, platformAdmin: 200 },
    },
    {
      name: 'assign a tenant role',
      method: 'PUT',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}/members/${ids.target}`,
      body: () => ({ role: 'TenantUser' }),
      expected: { ...all(404), tenantAdmin: 200, platformAdmin: 200 },
    },
    {
      name: 'remove a tenant role',
      method: 'DELETE',
      path: () => `/admin/tenants/${SYSTEM_TENANT_ID}/members/${ids.target}`,
      prepare: async () => {
        await (await asAdmin()).put(`/admin/tenants/${SYSTEM_TENANT_ID}/members/${ids.target}`, { role: 'TenantUser' });
      },
      expected: { ...all(404), tenantAdmin: 204, platformAdmin: 204 },
    },
    { name: 'list clients', method: 'GET', path: () => '/clients', expected: all(200) },
    {
      name: 'create a System-tenant client',
      method: 'POST',
      path: () => '/clients',
      body: () => ({ displayName: `Made ${++created}`, tenantId: SYSTEM_TENANT_ID }),
      expected: platformOnly(201),
    },
    {
      name: 'read a client',
      method: 'GET',
      path: () => `/clients/${ids.clientA}`,
      expected: { ...all(200), otherClientAdmin: 404 },
    },
    {
      name: 'change a client',
      method: 'PATCH',
      path: () => `/clients/${ids.clientA}`,
      body: () => ({ displayName: 'Client A' }),
      expected: { ...all(200), clientUser: 403, otherClientAdmin: 404 },
    },
    {
      name: 'list client members',
      method: 'GET',
      path: () => `/clients/${ids.clientA}/members`,
      expected: { ...all(200), clientUser: 403, otherClientAdmin: 404 },
    },
    {
      name: 'assign a client role',
      method: 'PUT',
      path: () => `/clients/${ids.clientA}/members/${ids.target}`,
      body: () => ({ role: 'ClientUser' }),
      expected: { ...all(200), clientUser: 403, otherClientAdmin: 404 },
    },
    {
      name: 'remove a client role',
      method: 'DELETE',
      path: () => `/clients/${ids.clientA}/members/${ids.target}`,
      prepare: async () => {
        await (await asAdmin()).put(`/clients/${ids.clientA}/members/${ids.target}`, { role: 'ClientUser' });
      },
      expected: { ...all(204), clientUser: 403, otherClientAdmin: 404 },
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const got: Record<string, number> = {};
    for (const persona of PERSONAS) {
      await row.prepare?.();
      const res = await api[persona].request(row.method, row.path(), row.body?.());
      got[persona] = res.status;
      if (res.status >= 400)
        expect(res.body, `${persona}: error shape`).toMatchObject({
          error: expect.any(String),
          code: expect.any(String),
        });
    }
    expect(got).toEqual(row.expected);
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
