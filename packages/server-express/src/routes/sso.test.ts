import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  startTestHost,
  TEST_USER_PASSWORD,
  type TestApi,
  type TestHost,
} from '../testing/index.js';
import {
  type OidcTestIssuer,
  startOidcTestIssuer,
  type TestAccount,
  TestBrowser,
} from '../testing/oidc-test-issuer.js';

/**
 * Single sign-on end to end: a real OpenID Connect provider on loopback, the stock host, and a
 * browser that follows the redirects with its own cookies. Loopback issuers need
 * MARGIN_ALLOW_PRIVATE_EGRESS, as the AI and SCM tests' fakes do.
 */
describe.each(['sqlite', 'postgres'] as const)('single sign-on (%s)', (dialect) => {
  let host: TestHost;
  let issuer: OidcTestIssuer;
  let admin: TestApi;
  let tenantId: string;
  let clientId: string;
  let providerId: string;
  let callbackUrl: string;

  beforeAll(async () => {
    host = await startTestHost({ dialect, env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' } });
    callbackUrl = `${host.url}/api/auth/sso/callback`;
    issuer = await startOidcTestIssuer({ redirectUris: [callbackUrl] });
    admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    tenantId = (await admin.post('/admin/tenants', { displayName: 'Acme', slug: 'acme' })).body.id;
    clientId = (await admin.post('/clients', { displayName: 'Acme Web', tenantId })).body.id;
    const created = await admin.post(`/admin/tenants/${tenantId}/identity-providers`, {
      displayName: 'Acme login',
      issuerUrl: issuer.issuer,
      clientId: issuer.clientId,
      clientSecret: issuer.clientSecret,
      allowedEmailDomains: ['acme.test'],
      autoCreateUsers: true,
      defaultClientRole: 'ClientUser',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    providerId = created.body.id;
  });
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  const hostOrigin = () => new URL(host.url).host;
  /** From the start URL through the provider back to the host's callback; the callback's answer. */
  const signInThroughProvider = async (browser: TestBrowser, account: TestAccount, returnTo = '/reviews') => {
    issuer.nextLogin = account;
    const start = `${host.url}/api/auth/sso/${providerId}/start?returnTo=${encodeURIComponent(returnTo)}`;
    return browser.follow(start, (a) => a.url.host === hostOrigin() && a.url.pathname === '/api/auth/sso/callback');
  };
  /** Signs in with the refresh cookie the browser holds, as the console does on load. */
  const sessionOf = async (browser: TestBrowser) => {
    const cookie = browser.cookie(hostOrigin(), 'margin_refresh');
    expect(cookie, 'refresh cookie').toBeDefined();
    const refreshed = await host.api.with({ cookie: `margin_refresh=${cookie}` }).post('/auth/refresh', {});
    expect(refreshed.status).toBe(200);
    return host.api.with({ bearer: refreshed.body.accessToken });
  };

  it('signs a new user in through the provider, creating them with the default role, and links them by subject', async () => {
    const browser = new TestBrowser();
    const ada = { sub: 'ada-1', email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace' };
    const answer = await signInThroughProvider(browser, ada, '/clients?x=1');
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${host.url}/clients?x=1`);
    const me = (await (await sessionOf(browser)).get('/auth/me')).body;
    expect(me).toMatchObject({
      username: 'ada@acme.test',
      displayName: 'Ada Lovelace',
      globalRole: 'user',
      clientRoles: { [clientId]: 'ClientUser' },
      tenantRoles: { [tenantId]: 'TenantUser' },
    });

    const again = new TestBrowser();
    expect((await signInThroughProvider(again, ada)).location).toBe(`${host.url}/reviews`);
    expect((await (await sessionOf(again)).get('/auth/me')).body.userId).toBe(me.userId);

    const trail = (await admin.get(`/admin/tenants/${tenantId}/audit`)).body.items;
    expect(trail).toContainEqual(
      expect.objectContaining({ action: 'user.created', resourceId: me.userId, actorUserId: me.userId }),
    );
  });

  it('redirects only to a path on this site', async () => {
    const browser = new TestBrowser();
    const bob = { sub: 'bob-1', email: 'bob@acme.test', email_verified: true };
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      expect((await signInThroughProvider(browser, bob, evil)).location).toBe(`${host.url}/`);
    }
  });

  it('refuses a callback whose state does not match the attempt', async () => {
    const browser = new TestBrowser();
    issuer.nextLogin = { sub: 'carol-1', email: 'carol@acme.test', email_verified: true };
    const toCallback = await browser.follow(`${host.url}/api/auth/sso/${providerId}/start`, (a) =>
      Boolean(a.location?.startsWith(callbackUrl)),
    );
    const tampered = new URL(toCallback.location as string);
    expect(tampered.searchParams.get('code')).toBeTruthy();
    tampered.searchParams.set('state', 'not-the-state');
    const answer = await browser.get(tampered.href);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${host.url}/sign-in?error=sso_failed`);
    expect(browser.cookie(hostOrigin(), 'margin_refresh')).toBeUndefined();
    // A callback without the attempt's cookie is refused the same way.
    const bare = await new TestBrowser().get(`${callbackUrl}?code=x&state=y`);
    expect(bare.location).toBe(`${host.url}/sign-in?error=sso_failed`);
  });

  it('refuses an ID token whose nonce is not the attempt’s', async () => {
    const browser = new TestBrowser();
    issuer.tamperNonce = true;
    try {
      const answer = await signInThroughProvider(browser, {
        sub: 'dan-1',
        email: 'dan@acme.test',
        email_verified: true,
      });
      expect(answer.location).toBe(`${host.url}/sign-in?error=sso_failed`);
      expect(browser.cookie(hostOrigin(), 'margin_refresh')).toBeUndefined();
      // Refused for the nonce itself (the library's claim comparison), not for anything earlier.
      expect(host.logs()).toContainEqual(
        expect.objectContaining({ msg: 'single sign-on failed', reason: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' }),
      );
    } finally {
      issuer.tamperNonce = false;
    }
  });

  it('refuses an email outside the allowed domains, or one the provider has not verified', async () => {
    const eve = await signInThroughProvider(new TestBrowser(), {
      sub: 'eve-1',
      email: 'eve@evil.test',
      email_verified: true,
    });
    expect(eve.location).toBe(`${host.url}/sign-in?error=domain_not_allowed`);
    const unverified = await signInThroughProvider(new TestBrowser(), {
      sub: 'fay-1',
      email: 'fay@acme.test',
      email_verified: false,
    });
    expect(unverified.location).toBe(`${host.url}/sign-in?error=email_not_verified`);
  });

  it('never takes over a local account with the same email', async () => {
    const local = await admin.post('/admin/users', {
      username: 'grace',
      password: TEST_USER_PASSWORD,
      email: 'grace@acme.test',
    });
    expect(local.status).toBe(201);
    const browser = new TestBrowser();
    const answer = await signInThroughProvider(browser, {
      sub: 'grace-idp',
      email: 'GRACE@acme.test',
      email_verified: true,
    });
    expect(answer.location).toBe(`${host.url}/sign-in?error=account_exists`);
    expect(browser.cookie(hostOrigin(), 'margin_refresh')).toBeUndefined();
    expect((await host.api.post('/auth/login', { username: 'grace', password: TEST_USER_PASSWORD })).status).toBe(200);
  });

  it('with ssoOnly, refuses the tenant’s users their local passwords while the platform administrator signs in', async () => {
    const member = await host.createUser('acme-local');
    expect((await admin.put(`/admin/tenants/${tenantId}/members/${member.id}`, { role: 'TenantUser' })).status).toBe(
      200,
    );
    expect((await admin.patch(`/admin/tenants/${tenantId}`, { loginPolicy: 'ssoOnly' })).status).toBe(200);
    try {
      const refused = await host.api.post('/auth/login', { username: 'acme-local', password: TEST_USER_PASSWORD });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'unauthenticated', reason: 'ssoRequired' });
      expect((await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD })).status).toBe(
        200,
      );
      const sso = await signInThroughProvider(new TestBrowser(), {
        sub: 'hal-1',
        email: 'hal@acme.test',
        email_verified: true,
      });
      expect(sso.location).toBe(`${host.url}/reviews`);
    } finally {
      await admin.patch(`/admin/tenants/${tenantId}`, { loginPolicy: 'localAndSso' });
    }
  });

  it('keeps the client secret write-only and out of the audit trail; lists enabled providers by slug', async () => {
    const listed = await admin.get(`/admin/tenants/${tenantId}/identity-providers`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      {
        id: providerId,
        tenantId,
        displayName: 'Acme login',
        issuerUrl: issuer.issuer,
        clientId: issuer.clientId,
        hasClientSecret: true,
        allowedEmailDomains: ['acme.test'],
        autoCreateUsers: true,
        defaultClientRole: 'ClientUser',
        isEnabled: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const patched = await admin.patch(`/admin/tenants/${tenantId}/identity-providers/${providerId}`, {
      clientSecret: issuer.clientSecret,
      displayName: 'Acme SSO',
    });
    expect(patched.status).toBe(200);
    expect(JSON.stringify(patched.body)).not.toContain(issuer.clientSecret);
    const trail = JSON.stringify((await admin.get(`/admin/tenants/${tenantId}/audit?limit=200`)).body);
    expect(trail).toContain('identityProvider.updated');
    expect(trail).toContain('changed clientSecret, displayName');
    expect(trail).not.toContain(issuer.clientSecret);
    expect(host.rawLogs()).not.toContain(issuer.clientSecret);
    expect(await storedSecretOf(host, providerId)).not.toContain(issuer.clientSecret);

    const publicList = await host.api.get('/auth/sso/providers?tenant=acme');
    expect(publicList.status).toBe(200);
    expect(publicList.body).toEqual({
      providers: [{ id: providerId, displayName: 'Acme SSO', startUrl: `/api/auth/sso/${providerId}/start` }],
    });
    expect((await host.api.get('/auth/sso/providers?tenant=nobody')).body).toEqual({ providers: [] });
    expect((await host.api.get('/auth/sso/providers')).status).toBe(400);
  });

  it('discovers the issuer once for several sign-ins, and again after the provider is changed', async () => {
    const patch = (body: object) => admin.patch(`/admin/tenants/${tenantId}/identity-providers/${providerId}`, body);
    const ivy = { sub: 'ivy-1', email: 'ivy@acme.test', email_verified: true };
    // A change drops what was discovered with the provider's earlier settings.
    expect((await patch({ displayName: 'Acme SSO (1)' })).status).toBe(200);
    const before = issuer.discoveries;
    expect((await signInThroughProvider(new TestBrowser(), ivy)).location).toBe(`${host.url}/reviews`);
    expect((await signInThroughProvider(new TestBrowser(), ivy)).location).toBe(`${host.url}/reviews`);
    expect(issuer.discoveries - before).toBe(1);

    expect((await patch({ displayName: 'Acme SSO' })).status).toBe(200);
    expect((await signInThroughProvider(new TestBrowser(), ivy)).location).toBe(`${host.url}/reviews`);
    expect(issuer.discoveries - before).toBe(2);
  });

  it('after the issuer rotates its keys, fails the sign-in signed with the unknown key and discovers again for the next', async () => {
    const jo = { sub: 'jo-1', email: 'jo@acme.test', email_verified: true };
    // Discovered, with the issuer's keys fetched on the callback.
    expect((await signInThroughProvider(new TestBrowser(), jo)).location).toBe(`${host.url}/reviews`);
    const before = issuer.discoveries;
    issuer.rotateKeys();
    const refused = await signInThroughProvider(new TestBrowser(), jo);
    expect(refused.location).toBe(`${host.url}/sign-in?error=sso_failed`);
    expect(host.logs()).toContainEqual(
      expect.objectContaining({ msg: 'single sign-on failed', reason: 'OAUTH_KEY_SELECTION_FAILED' }),
    );
    expect(issuer.discoveries).toBe(before);
    expect((await signInThroughProvider(new TestBrowser(), jo)).location).toBe(`${host.url}/reviews`);
    expect(issuer.discoveries - before).toBe(1);
  });

  it('validates providers: domains, issuer URL, and answers 404 for another tenant’s provider', async () => {
    const base = `/admin/tenants/${tenantId}/identity-providers`;
    const bad = await admin.post(base, {
      displayName: 'X',
      issuerUrl: 'not a url',
      clientId: 'c',
      allowedEmailDomains: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['allowedEmailDomains', 'issuerUrl']);
    const metadata = await admin.post(base, {
      displayName: 'X',
      issuerUrl: 'http://169.254.169.254/',
      clientId: 'c',
      allowedEmailDomains: ['acme.test'],
    });
    expect(metadata.status).toBe(400);
    expect(metadata.body.details[0].path).toBe('issuerUrl');
    const other = (await admin.post('/admin/tenants', { displayName: 'Other', slug: `other-${dialect}` })).body.id;
    expect(
      (await admin.patch(`/admin/tenants/${other}/identity-providers/${providerId}`, { isEnabled: false })).status,
    ).toBe(404);
    expect((await admin.delete(`/admin/tenants/${other}/identity-providers/${providerId}`)).status).toBe(404);
  });

  it('lets only the tenant’s administrators manage its providers; a deactivated tenant’s administrator reaches nothing', async () => {
    const ta = await host.createUser(`acme-admin-${dialect}`);
    const tu = await host.createUser(`acme-user-${dialect}`);
    const otherTenant = (await admin.post('/admin/tenants', { displayName: 'Third', slug: `third-${dialect}` })).body
      .id;
    const ota = await host.createUser(`third-admin-${dialect}`);
    await admin.put(`/admin/tenants/${tenantId}/members/${ta.id}`, { role: 'TenantAdministrator' });
    await admin.put(`/admin/tenants/${tenantId}/members/${tu.id}`, { role: 'TenantUser' });
    await admin.put(`/admin/tenants/${otherTenant}/members/${ota.id}`, { role: 'TenantAdministrator' });
    const path = `/admin/tenants/${tenantId}/identity-providers`;
    const statuses = async () => ({
      anonymous: (await host.api.get(path)).status,
      tenantUser: (await tu.api.get(path)).status,
      otherTenantAdmin: (await ota.api.get(path)).status,
      tenantAdmin: (await ta.api.get(path)).status,
      platformAdmin: (await admin.get(path)).status,
    });
    expect(await statuses()).toEqual({
      anonymous: 401,
      tenantUser: 403,
      otherTenantAdmin: 404,
      tenantAdmin: 200,
      platformAdmin: 200,
    });
    const made = await ta.api.post(path, {
      displayName: 'By the tenant admin',
      issuerUrl: issuer.issuer,
      clientId: 'another',
      allowedEmailDomains: ['acme.test'],
      isEnabled: false,
    });
    expect(made.status).toBe(201);
    expect((await ota.api.delete(`${path}/${made.body.id}`)).status).toBe(404);
    expect((await ta.api.delete(`${path}/${made.body.id}`)).status).toBe(204);

    // The third tenant is deactivated: its administrator's access token reaches none of its routes.
    expect((await admin.patch(`/admin/tenants/${otherTenant}`, { isActive: false })).status).toBe(200);
    const refused = await ota.api.get(`/admin/tenants/${otherTenant}/identity-providers`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', reason: 'tenantDeactivated' });
    expect((await ota.api.get(`/admin/tenants/${otherTenant}/members`)).status).toBe(409);
  });

  it('without sso-authentication: management answers 409 license_required and sign-in is unavailable', async () => {
    const off = await admin.patch('/admin/licensing', {
      edition: 'Commercial',
      capabilityOverrides: [{ capability: 'sso-authentication', overrideState: 'disabled' }],
    });
    expect(off.status).toBe(200);
    try {
      const refused = await admin.get(`/admin/tenants/${tenantId}/identity-providers`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'license_required', capability: 'sso-authentication' });
      expect((await host.api.get('/auth/sso/providers?tenant=acme')).body.code).toBe('license_required');
      const start = await new TestBrowser().get(`${host.url}/api/auth/sso/${providerId}/start`);
      expect(start.location).toBe(`${host.url}/sign-in?error=sso_unavailable`);
    } finally {
      await admin.patch('/admin/licensing', {
        edition: 'Commercial',
        capabilityOverrides: [{ capability: 'sso-authentication', overrideState: 'default' }],
      });
    }
  });
});

describe('single sign-on in Community', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host?.close();
  });

  it('refuses identity providers with 409 license_required naming sso-authentication', async () => {
    const admin = await host.admin();
    const refused = await admin.post(`/admin/tenants/${SYSTEM_TENANT_ID}/identity-providers`, {
      displayName: 'Nope',
      issuerUrl: 'https://login.example.com',
      clientId: 'c',
      allowedEmailDomains: ['example.com'],
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'license_required', capability: 'sso-authentication' });
    expect(refused.body.error).toContain('license');
  });
});

async function storedSecretOf(host: TestHost, providerId: string): Promise<string> {
  const row = await host.storage.knex('identity_providers').where({ id: providerId }).first();
  return String(row?.sealed_client_secret);
}
