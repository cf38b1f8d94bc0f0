import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { createManualClock } from '@margin/core/testing';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarginClient } from './client.js';
import { AuthenticationError, ConflictError, LicenseRequiredError, NotFoundError, PermissionError } from './errors.js';

describe('the SDK against a real host', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  const admin = () =>
    createMarginClient({
      baseUrl: `${host.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });

  it('signs in with a password, and manages clients and members with typed answers', async () => {
    const client = admin();
    expect((await client.identity.getMe()).globalRole).toBe('platformAdmin');
    const created = await client.tenancy.createClient({ displayName: 'SDK client', tenantId: SYSTEM_TENANT_ID });
    expect(created.displayName).toBe('SDK client');
    expect((await client.tenancy.getClient(created.id)).id).toBe(created.id);
    const user = await client.identity.createUser({ username: 'sdk-user', password: 'sdk-user-password' });
    expect((await client.identity.putClientMember(created.id, user.id, { role: 'ClientUser' })).role).toBe(
      'ClientUser',
    );
    expect((await client.identity.listClientMembers(created.id)).items.map((m) => m.username)).toEqual(['sdk-user']);
    await expect(
      client.tenancy.createClient({ displayName: 'sdk CLIENT', tenantId: SYSTEM_TENANT_ID }),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(client.tenancy.createTenant({ displayName: 'Nope' })).rejects.toBeInstanceOf(LicenseRequiredError);
  });

  it('creates a PAT and works with it; a revoked PAT raises AuthenticationError', async () => {
    const client = admin();
    const pat = await client.identity.createPersonalAccessToken({ label: 'sdk' });
    const viaPat = createMarginClient({ baseUrl: `${host.url}/api`, credentials: { personalAccessToken: pat.token } });
    expect((await viaPat.identity.getMe()).authenticatedWith).toBe('personalAccessToken');
    await client.identity.revokePersonalAccessToken(pat.id);
    await expect(viaPat.identity.getMe()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.identity.revokePersonalAccessToken(pat.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('raises PermissionError for a role too low', async () => {
    const client = admin();
    await client.identity.createUser({ username: 'sdk-plain', password: 'sdk-plain-password' });
    const plain = createMarginClient({
      baseUrl: `${host.url}/api`,
      credentials: { username: 'sdk-plain', password: 'sdk-plain-password' },
    });
    await expect(plain.identity.listUsers()).rejects.toBeInstanceOf(PermissionError);
  });
});

describe('the SDK’s password session', () => {
  const clock = createManualClock('2026-05-01T10:00:00.000Z');
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ clock });
  });
  afterAll(async () => {
    await host.close();
  });

  it('refreshes when the server rejects the access token, and signs in again when the session has ended', async () => {
    const client = createMarginClient({
      baseUrl: `${host.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    expect((await client.identity.getMe()).username).toBe(ADMIN_USERNAME);
    const logins = () => host.logs().filter((l) => l.route === '/auth/login').length;
    const refreshes = () => host.logs().filter((l) => l.route === '/auth/refresh').length;
    expect([logins(), refreshes()]).toEqual([1, 0]);

    clock.advance(16 * 60_000); // the server now refuses the access token the client still trusts
    expect((await client.identity.getMe()).username).toBe(ADMIN_USERNAME);
    expect([logins(), refreshes()]).toEqual([1, 1]);

    clock.advance(73 * 3600_000); // past the session's absolute limit: refresh fails, sign in again
    expect((await client.identity.getMe()).username).toBe(ADMIN_USERNAME);
    expect([logins(), refreshes()]).toEqual([2, 2]);
  });

  it('signs in without credentials given, keeps no password, and says when the session has ended', async () => {
    const client = createMarginClient({ baseUrl: `${host.url}/api` });
    const logins = () => host.logs().filter((l) => l.route === '/auth/login').length;
    const refreshes = () => host.logs().filter((l) => l.route === '/auth/refresh').length;
    let ended = 0;
    client.session.onEnded(() => ended++);

    // No session to take up (Node has no cookie jar) and none to send: the API refuses the call.
    expect(await client.session.resume()).toBe(false);
    await expect(client.identity.getMe()).rejects.toBeInstanceOf(AuthenticationError);
    expect(ended).toBe(0);

    await client.session.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    expect(client.session.signedIn).toBe(true);
    expect((await client.identity.getMe()).username).toBe(ADMIN_USERNAME);
    const [loginsBefore, refreshesBefore] = [logins(), refreshes()];

    clock.advance(16 * 60_000); // the access token is refused: refreshed once, the call repeated
    expect((await client.identity.getMe()).username).toBe(ADMIN_USERNAME);
    expect([logins(), refreshes()]).toEqual([loginsBefore, refreshesBefore + 1]);

    clock.advance(73 * 3600_000); // past the session's absolute limit: the session ends, no new sign-in
    await expect(client.identity.getMe()).rejects.toBeInstanceOf(AuthenticationError);
    expect([logins(), refreshes()]).toEqual([loginsBefore, refreshesBefore + 2]);
    expect([client.session.signedIn, ended]).toEqual([false, 1]);

    await client.session.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    await client.session.signOut();
    expect([client.session.signedIn, ended]).toEqual([false, 2]);
    await expect(client.identity.getMe()).rejects.toBeInstanceOf(AuthenticationError);
  });
});
