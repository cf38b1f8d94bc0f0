import { createManualClock } from '@margin/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, TEST_USER_PASSWORD, type TestHost } from '../testing/index.js';

describe('personal access tokens', () => {
  const clock = createManualClock('2026-04-01T08:00:00.000Z');
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ clock });
  });
  afterAll(async () => {
    await host.close();
  });

  it('shows the plaintext once, stores no token material in listings, and authenticates as the owner', async () => {
    const { api } = await host.createUser('pat-owner');
    const created = await api.post('/users/me/pats', { label: 'CI pipeline' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      label: 'CI pipeline',
      token: expect.stringMatching(/^mgn_[0-9a-f]{48}$/),
      expiresAt: null,
      createdAt: '2026-04-01T08:00:00.000Z',
    });
    const list = await api.get('/users/me/pats');
    expect(list.body).toEqual({
      items: [
        {
          id: created.body.id,
          label: 'CI pipeline',
          expiresAt: null,
          createdAt: '2026-04-01T08:00:00.000Z',
          lastUsedAt: null,
        },
      ],
      nextCursor: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);

    const viaPat = host.api.with({ pat: created.body.token });
    const me = await viaPat.get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      username: 'pat-owner',
      globalRole: 'user',
      authenticatedWith: 'personalAccessToken',
    });
    // Exactly the owner's permissions: not an administrator.
    expect((await viaPat.get('/admin/users')).status).toBe(403);
    expect((await api.get('/users/me/pats')).body.items[0].lastUsedAt).toBe('2026-04-01T08:00:00.000Z');
  });

  it('is unusable after revocation, and revoking twice or someone else’s token is a 404', async () => {
    const { api } = await host.createUser('pat-revoker');
    const other = await host.createUser('pat-other');
    const created = await api.post('/users/me/pats', { label: 'short-lived' });
    expect((await other.api.delete(`/users/me/pats/${created.body.id}`)).status).toBe(404);
    expect((await host.api.with({ pat: created.body.token }).get('/auth/me')).status).toBe(200);
    expect((await api.delete(`/users/me/pats/${created.body.id}`)).status).toBe(204);
    expect((await host.api.with({ pat: created.body.token }).get('/auth/me')).status).toBe(401);
    expect((await api.delete(`/users/me/pats/${created.body.id}`)).status).toBe(404);
    expect((await api.get('/users/me/pats')).body.items).toEqual([]);
  });

  it('is unusable after its expiry and drops out of the listing', async () => {
    const { api } = await host.createUser('pat-expiry');
    const created = await api.post('/users/me/pats', { label: 'one hour', expiresAt: '2026-04-01T09:00:00Z' });
    expect(created.body.expiresAt).toBe('2026-04-01T09:00:00.000Z');
    expect((await host.api.with({ pat: created.body.token }).get('/auth/me')).status).toBe(200);
    clock.advance(60 * 60_000);
    try {
      expect((await host.api.with({ pat: created.body.token }).get('/auth/me')).status).toBe(401);
      const fresh = await host.login('pat-expiry', TEST_USER_PASSWORD);
      expect((await fresh.get('/users/me/pats')).body.items).toEqual([]);
    } finally {
      clock.set('2026-04-01T08:00:00.000Z');
    }
  });

  it('cannot create, list or revoke tokens, or change a password, when the request itself came with a PAT', async () => {
    const { id, api } = await host.createUser('pat-powers');
    const created = await api.post('/users/me/pats', { label: 'stolen from CI' });
    const viaPat = host.api.with({ pat: created.body.token });
    const refused = {
      error: 'A personal access token cannot manage personal access tokens or change a password; sign in to do that.',
      code: 'forbidden',
    };
    const attempts = [
      await viaPat.post('/users/me/pats', { label: 'persistence' }),
      await viaPat.get('/users/me/pats'),
      await viaPat.delete(`/users/me/pats/${created.body.id}`),
      await viaPat.post('/users/me/password', { currentPassword: TEST_USER_PASSWORD, newPassword: 'taken-over-1234' }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject(refused);
    }
    // Nothing changed: one token, still usable, and the password still signs in.
    expect((await api.get('/users/me/pats')).body.items).toHaveLength(1);
    expect((await viaPat.get('/auth/me')).status).toBe(200);
    expect((await host.login('pat-powers', TEST_USER_PASSWORD)).credentials.bearer).toEqual(expect.any(String));

    // A platform administrator's PAT cannot set passwords through user management either.
    const adminPat = (await (await host.admin()).post('/users/me/pats', { label: 'provisioning' })).body.token;
    const reset = await host.api.with({ pat: adminPat }).patch(`/admin/users/${id}`, { password: 'taken-over-1234' });
    expect(reset.status).toBe(403);
    expect(reset.body).toMatchObject(refused);
    expect(
      (await host.api.with({ pat: adminPat }).patch(`/admin/users/${id}`, { displayName: 'Renamed' })).status,
    ).toBe(200);
  });

  it('validates the label and expiry', async () => {
    const { api } = await host.createUser('pat-validation');
    const blank = await api.post('/users/me/pats', { label: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.details).toEqual([{ path: 'label', message: 'Label is required.' }]);
    expect((await api.post('/users/me/pats', { label: 'x', expiresAt: 'tomorrow' })).status).toBe(400);
    const past = await api.post('/users/me/pats', { label: 'x', expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.error).toBe('expiresAt must be in the future.');
  });
});

describe('a disabled user', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('loses access through their still-valid JWT, their PAT and their refresh cookie, until re-enabled', async () => {
    const admin = await host.admin();
    const { id, api } = await host.createUser('soon-disabled');
    const pat = (await api.post('/users/me/pats', { label: 'script' })).body.token;
    expect((await api.get('/auth/me')).status).toBe(200);

    expect((await admin.patch(`/admin/users/${id}`, { isActive: false })).body).toMatchObject({ isActive: false });
    const jwt = await api.get('/auth/me');
    expect(jwt.status).toBe(401);
    expect(jwt.body.error).toBe('User account is not active.');
    expect((await host.api.with({ pat }).get('/auth/me')).status).toBe(401);
    expect((await api.post('/auth/refresh')).status).toBe(401);
    expect(
      (await host.api.post('/auth/login', { username: 'soon-disabled', password: TEST_USER_PASSWORD })).status,
    ).toBe(401);

    await admin.patch(`/admin/users/${id}`, { isActive: true });
    expect((await host.api.with({ pat }).get('/auth/me')).status).toBe(200);
  });
});
