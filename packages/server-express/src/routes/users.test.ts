import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, TEST_USER_PASSWORD, type TestHost } from '../testing/index.js';

describe('user management', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('creates users with argon2id passwords and lists them in pages', async () => {
    const admin = await host.admin();
    const created = await admin.post('/admin/users', {
      username: 'grace',
      password: 'hopper-1906',
      displayName: 'Grace Hopper',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      username: 'grace',
      displayName: 'Grace Hopper',
      email: null,
      globalRole: 'user',
      isActive: true,
      createdAt: expect.any(String),
    });
    const stored = await host.storage.users.findById(created.body.id);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    await admin.post('/admin/users', { username: 'linus', password: 'penguin-1991' });
    const first = await admin.get('/admin/users?limit=2');
    expect(first.body.items.map((u: { username: string }) => u.username)).toEqual([ADMIN_USERNAME, 'grace']);
    const second = await admin.get(`/admin/users?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ items: [{ username: 'linus' }], nextCursor: null });
    expect((await admin.get('/admin/users?cursor=garbage')).status).toBe(400);
  });

  it('refuses duplicates (any case), weak passwords and bad usernames', async () => {
    const admin = await host.admin();
    const dup = await admin.post('/admin/users', { username: 'GRACE', password: 'another-password' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'conflict', error: 'A user with this username already exists.' });
    const weak = await admin.post('/admin/users', { username: 'weak', password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.details).toEqual([{ path: 'password', message: 'must be at least 8 characters' }]);
    expect((await admin.post('/admin/users', { username: 'has space', password: 'long-enough' })).status).toBe(400);
  });

  it('changes a password, which ends the user’s sessions, and role and display name', async () => {
    const admin = await host.admin();
    const { id, api } = await host.createUser('changeling');
    const patched = await admin.patch(`/admin/users/${id}`, {
      password: 'brand-new-password',
      displayName: 'Changed',
      globalRole: 'platformAdmin',
    });
    expect(patched.body).toMatchObject({ displayName: 'Changed', globalRole: 'platformAdmin' });
    expect((await api.post('/auth/refresh')).status).toBe(401);
    expect((await host.api.post('/auth/login', { username: 'changeling', password: TEST_USER_PASSWORD })).status).toBe(
      401,
    );
    expect(
      (await host.api.post('/auth/login', { username: 'changeling', password: 'brand-new-password' })).status,
    ).toBe(200);
    expect((await admin.patch('/admin/users/00000000-0000-4000-8000-000000000000', { displayName: 'x' })).status).toBe(
      404,
    );
  });

  it('never deactivates or demotes the last active platform administrator', async () => {
    const fresh = await startTestHost();
    try {
      const admin = await fresh.admin();
      const self = (await admin.get('/auth/me')).body.userId;
      const refused = await admin.patch(`/admin/users/${self}`, { isActive: false });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('The last active platform administrator cannot be deactivated or demoted.');
      expect((await admin.patch(`/admin/users/${self}`, { globalRole: 'user' })).status).toBe(409);
      await fresh.createUser('second-admin', { globalRole: 'platformAdmin' });
      expect((await admin.patch(`/admin/users/${self}`, { globalRole: 'user' })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('lets a user change their own password with the current one', async () => {
    const { api } = await host.createUser('self-service');
    const wrong = await api.post('/users/me/password', { currentPassword: 'not-it', newPassword: 'new-password-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual([{ path: 'currentPassword', message: 'Not the current password.' }]);
    expect(
      (await api.post('/users/me/password', { currentPassword: TEST_USER_PASSWORD, newPassword: 'new-password-1' }))
        .status,
    ).toBe(204);
    expect((await host.api.post('/auth/login', { username: 'self-service', password: 'new-password-1' })).status).toBe(
      200,
    );
    expect((await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD })).status).toBe(
      200,
    );
  });
});
