import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

/**
 * Tenant routes in Commercial, called by everyone who might try: the tenant's user and
 * administrator, an administrator of another tenant, an administrator of a deactivated tenant
 * (holding an access token from before), the platform administrator and nobody. Another tenant's
 * administrator never learns the tenant exists; a deactivated tenant's administrator reaches
 * nothing of their own tenant.
 */
const CALLERS = [
  'anonymous',
  'tenantUser',
  'tenantAdmin',
  'otherTenantAdmin',
  'closedTenantAdmin',
  'platformAdmin',
] as const;
type Caller = (typeof CALLERS)[number];

interface Row {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  prepare?: () => Promise<void>;
  expected: Record<Caller, number>;
}

/** The tenant's administrators (and the platform); its users 403; anyone else learns nothing. */
const acmeAdmins = (ok: number): Record<Caller, number> => ({
  anonymous: 401,
  tenantUser: 403,
  tenantAdmin: ok,
  otherTenantAdmin: 404,
  closedTenantAdmin: 404,
  platformAdmin: ok,
});

describe('authorization matrix: tenants and their identity providers (Commercial)', () => {
  let host: TestHost;
  let api: Record<Caller, TestApi>;
  const ids = { acme: '', closed: '', provider: '' };
  let made = 0;

  beforeAll(async () => {
    host = await startTestHost();
    const admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    ids.acme = (await admin.post('/admin/tenants', { displayName: 'Acme', slug: 'acme' })).body.id;
    const other = (await admin.post('/admin/tenants', { displayName: 'Other', slug: 'other' })).body.id;
    ids.closed = (await admin.post('/admin/tenants', { displayName: 'Closed', slug: 'closed' })).body.id;
    const [tu, ta, ota, cta] = await Promise.all(
      ['acme-user', 'acme-admin', 'other-admin', 'closed-admin'].map((n) => host.createUser(n)),
    );
    if (!tu || !ta || !ota || !cta) throw new Error('caller setup failed');
    await admin.put(`/admin/tenants/${ids.acme}/members/${tu.id}`, { role: 'TenantUser' });
    await admin.put(`/admin/tenants/${ids.acme}/members/${ta.id}`, { role: 'TenantAdministrator' });
    await admin.put(`/admin/tenants/${other}/members/${ota.id}`, { role: 'TenantAdministrator' });
    await admin.put(`/admin/tenants/${ids.closed}/members/${cta.id}`, { role: 'TenantAdministrator' });
    ids.provider = (
      await admin.post(`/admin/tenants/${ids.acme}/identity-providers`, {
        displayName: 'Acme login',
        issuerUrl: 'https://login.acme.example',
        clientId: 'margin',
        allowedEmailDomains: ['acme.example'],
      })
    ).body.id;
    // Signed in before the tenant was deactivated: the access token still authenticates.
    expect((await admin.patch(`/admin/tenants/${ids.closed}`, { isActive: false })).status).toBe(200);
    api = {
      anonymous: host.api,
      tenantUser: tu.api,
      tenantAdmin: ta.api,
      otherTenantAdmin: ota.api,
      closedTenantAdmin: cta.api,
      platformAdmin: admin,
    };
  });
  afterAll(async () => {
    await host?.close();
  });

  const provider = () => ({
    displayName: `Provider ${++made}`,
    issuerUrl: 'https://login.acme.example',
    clientId: 'margin',
    allowedEmailDomains: ['acme.example'],
  });
  const rows: Row[] = [
    {
      name: 'rename the tenant or set its login policy',
      method: 'PATCH',
      path: () => `/admin/tenants/${ids.acme}`,
      body: () => ({ displayName: 'Acme', loginPolicy: 'localAndSso' }),
      expected: acmeAdmins(200),
    },
    {
      name: 'activate the tenant',
      method: 'PATCH',
      path: () => `/admin/tenants/${ids.acme}`,
      body: () => ({ isActive: true }),
      expected: { ...acmeAdmins(403), platformAdmin: 200 },
    },
    {
      name: 'list its members',
      method: 'GET',
      path: () => `/admin/tenants/${ids.acme}/members`,
      expected: acmeAdmins(200),
    },
    {
      name: 'read its audit trail',
      method: 'GET',
      path: () => `/admin/tenants/${ids.acme}/audit`,
      expected: acmeAdmins(200),
    },
    {
      name: 'list its identity providers',
      method: 'GET',
      path: () => `/admin/tenants/${ids.acme}/identity-providers`,
      expected: acmeAdmins(200),
    },
    {
      name: 'add an identity provider',
      method: 'POST',
      path: () => `/admin/tenants/${ids.acme}/identity-providers`,
      body: provider,
      expected: acmeAdmins(201),
    },
    {
      name: 'change an identity provider',
      method: 'PATCH',
      path: () => `/admin/tenants/${ids.acme}/identity-providers/${ids.provider}`,
      body: () => ({ isEnabled: true }),
      expected: acmeAdmins(200),
    },
    {
      name: 'remove an identity provider',
      method: 'DELETE',
      path: () => `/admin/tenants/${ids.acme}/identity-providers/${ids.provider}`,
      prepare: async () => {
        const res = await api.platformAdmin.post(`/admin/tenants/${ids.acme}/identity-providers`, provider());
        ids.provider = res.body.id;
      },
      expected: acmeAdmins(204),
    },
    {
      name: 'a deactivated tenant’s own routes',
      method: 'GET',
      path: () => `/admin/tenants/${ids.closed}/members`,
      expected: {
        anonymous: 401,
        tenantUser: 404,
        tenantAdmin: 404,
        otherTenantAdmin: 404,
        closedTenantAdmin: 409,
        platformAdmin: 200,
      },
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const got: Record<string, number> = {};
    for (const caller of CALLERS) {
      await row.prepare?.();
      const res = await api[caller].request(row.method, row.path(), row.body?.());
      got[caller] = res.status;
      if (res.status >= 400)
        expect(res.body, caller).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expect(got).toEqual(row.expected);
  });
});
