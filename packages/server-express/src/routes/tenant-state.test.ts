import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  cookiePair,
  startTestHost,
  TEST_USER_PASSWORD,
  type TestApi,
  type TestHost,
} from '../testing/index.js';

/**
 * Tenants as the decisions have them: a unique slug, an active flag (platform administrator) and a
 * login policy (tenant administrator); users gain a unique email. A deactivated tenant's users cannot
 * sign in or refresh and its clients serve nothing; an ssoOnly tenant refuses local passwords.
 */
describe('tenant slug, state and login policy; user email', () => {
  let host: TestHost;
  let admin: TestApi;
  let tenants = 0;

  beforeAll(async () => {
    host = await startTestHost();
    admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
  });
  afterAll(async () => {
    await host?.close();
  });

  /** A tenant with a client, an administrator and a user who is ClientUser on the client. */
  const tenantWithPeople = async () => {
    const n = ++tenants;
    const tenant = await admin.post('/admin/tenants', { displayName: `Tenant ${n}`, slug: `tenant-${n}` });
    expect(tenant.status, JSON.stringify(tenant.body)).toBe(201);
    const tenantId = tenant.body.id as string;
    const client = (await admin.post('/clients', { displayName: `Client ${n}`, tenantId })).body.id as string;
    const ta = await host.createUser(`t${n}-admin`);
    const member = await host.createUser(`t${n}-member`);
    expect(
      (await admin.put(`/admin/tenants/${tenantId}/members/${ta.id}`, { role: 'TenantAdministrator' })).status,
    ).toBe(200);
    expect((await admin.put(`/clients/${client}/members/${member.id}`, { role: 'ClientUser' })).status).toBe(200);
    return { tenantId, client, ta, member, memberName: `t${n}-member`, adminName: `t${n}-admin` };
  };
  const signIn = (username: string, password = TEST_USER_PASSWORD) =>
    host.api.post('/auth/login', { username, password });

  it('creates a tenant with a unique slug (or one made from its name) and shows its state and policy', async () => {
    const made = await admin.post('/admin/tenants', { displayName: 'Slugged', slug: 'slugged' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(String),
      displayName: 'Slugged',
      slug: 'slugged',
      isActive: true,
      loginPolicy: 'localAndSso',
      isSystem: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const dup = await admin.post('/admin/tenants', { displayName: 'Again', slug: 'slugged' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'A tenant with this slug already exists.', code: 'conflict' });
    const bad = await admin.post('/admin/tenants', { displayName: 'Bad', slug: 'Not A Slug' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed', details: [{ path: 'slug' }] });
    expect((await admin.post('/admin/tenants', { displayName: 'Made From Name' })).body.slug).toBe('made-from-name');
  });

  it('lets only the platform administrator deactivate a tenant; other tenants’ administrators learn nothing', async () => {
    const acme = await tenantWithPeople();
    const other = await tenantWithPeople();
    const byOwnAdmin = await acme.ta.api.patch(`/admin/tenants/${acme.tenantId}`, { isActive: false });
    expect(byOwnAdmin.status).toBe(403);
    expect(byOwnAdmin.body.code).toBe('forbidden');
    expect((await other.ta.api.patch(`/admin/tenants/${acme.tenantId}`, { loginPolicy: 'ssoOnly' })).status).toBe(404);
    expect((await acme.member.api.patch(`/admin/tenants/${acme.tenantId}`, { displayName: 'Mine' })).status).toBe(404);
    const system = await admin.patch(`/admin/tenants/${SYSTEM_TENANT_ID}`, { isActive: false });
    expect(system.status).toBe(400);
    expect(system.body.details).toEqual([{ path: 'isActive', message: 'The System tenant cannot be deactivated.' }]);
    const wrongType = await admin.patch(`/admin/tenants/${acme.tenantId}`, { isActive: 'no' });
    expect(wrongType.status).toBe(400);
  });

  it('keeps a deactivated tenant’s users out (sign-in and refresh) and its clients serving nothing', async () => {
    const acme = await tenantWithPeople();
    const session = await signIn(acme.memberName);
    expect(session.status).toBe(200);
    const cookie = cookiePair(session.headers.get('set-cookie'));

    const off = await admin.patch(`/admin/tenants/${acme.tenantId}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body.isActive).toBe(false);

    for (const name of [acme.memberName, acme.adminName]) {
      const refused = await signIn(name);
      expect(refused.status, name).toBe(401);
      expect(refused.body).toMatchObject({
        error: 'Your organization’s access is deactivated.',
        code: 'unauthenticated',
        reason: 'tenantDeactivated',
      });
    }
    // A wrong password still answers like any other wrong password: nothing about the tenant.
    const wrong = (await signIn(acme.memberName, 'wrong-password')).body;
    expect(wrong).toMatchObject({ error: 'Invalid credentials.', code: 'unauthenticated' });
    expect(wrong.reason).toBeUndefined();
    const refresh = await host.api.with({ cookie }).post('/auth/refresh', {});
    expect(refresh.status).toBe(401);

    // Sessions that already hold an access token meet a client that serves nothing.
    for (const api of [acme.member.api, admin]) {
      const res = await api.get(`/clients/${acme.client}/reviewing/jobs`);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'conflict', reason: 'tenantDeactivated' });
    }
    expect((await admin.get(`/clients/${acme.client}`)).status).toBe(200);

    expect((await admin.patch(`/admin/tenants/${acme.tenantId}`, { isActive: true })).body.isActive).toBe(true);
    expect((await signIn(acme.memberName)).status).toBe(200);
    expect((await acme.member.api.get(`/clients/${acme.client}/reviewing/jobs`)).status).toBe(200);
  });

  it('lets a user who also belongs to an active tenant sign in', async () => {
    const acme = await tenantWithPeople();
    expect(
      (await admin.put(`/admin/tenants/${SYSTEM_TENANT_ID}/members/${acme.member.id}`, { role: 'TenantUser' })).status,
    ).toBe(200);
    await admin.patch(`/admin/tenants/${acme.tenantId}`, { isActive: false });
    expect((await signIn(acme.memberName)).status).toBe(200);
  });

  it('refuses local passwords to an ssoOnly tenant’s users, never to the platform administrator', async () => {
    const acme = await tenantWithPeople();
    const set = await acme.ta.api.patch(`/admin/tenants/${acme.tenantId}`, { loginPolicy: 'ssoOnly' });
    expect(set.status).toBe(200);
    expect(set.body.loginPolicy).toBe('ssoOnly');
    expect(
      (
        await admin.put(`/admin/tenants/${acme.tenantId}/members/${(await whoAmI(admin)).userId}`, {
          role: 'TenantAdministrator',
        })
      ).status,
    ).toBe(200);
    for (const name of [acme.memberName, acme.adminName]) {
      const refused = await signIn(name);
      expect(refused.status, name).toBe(401);
      expect(refused.body).toMatchObject({ code: 'unauthenticated', reason: 'ssoRequired' });
    }
    expect((await signIn(ADMIN_USERNAME, ADMIN_PASSWORD)).status).toBe(200);
    const trail = await admin.get(`/admin/tenants/${acme.tenantId}/audit`);
    expect(trail.body.items).toContainEqual(
      expect.objectContaining({
        action: 'tenant.updated',
        summary: 'changed loginPolicy (login policy ssoOnly)',
      }),
    );
    expect((await admin.patch(`/admin/tenants/${acme.tenantId}`, { loginPolicy: 'localAndSso' })).status).toBe(200);
    expect((await signIn(acme.memberName)).status).toBe(200);
  });

  it('gives users an optional email, unique in any case, set and cleared by PATCH', async () => {
    const made = await admin.post('/admin/users', {
      username: 'mailer',
      password: TEST_USER_PASSWORD,
      email: 'Mailer@Example.com',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ username: 'mailer', email: 'Mailer@Example.com' });
    const dup = await admin.post('/admin/users', {
      username: 'mailer2',
      password: TEST_USER_PASSWORD,
      email: 'mailer@example.COM',
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'A user with this email already exists.', code: 'conflict' });
    expect(
      (await admin.post('/admin/users', { username: 'x1', password: TEST_USER_PASSWORD, email: 'nope' })).status,
    ).toBe(400);
    const other = await host.createUser('mailer3');
    expect((await admin.patch(`/admin/users/${other.id}`, { email: 'MAILER@example.com' })).status).toBe(409);
    expect((await admin.patch(`/admin/users/${made.body.id}`, { email: null })).body.email).toBeNull();
    expect((await admin.patch(`/admin/users/${other.id}`, { email: 'mailer@example.com' })).body.email).toBe(
      'mailer@example.com',
    );
    const listed = (await admin.get('/admin/users?limit=100')).body.items.find(
      (u: { id: string }) => u.id === other.id,
    );
    expect(listed.email).toBe('mailer@example.com');
  });
});

async function whoAmI(api: TestApi): Promise<{ userId: string }> {
  return (await api.get('/auth/me')).body;
}
