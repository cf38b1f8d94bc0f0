import { describe, expect, it } from 'vitest';
import { createMarginCore } from '../core.js';
import { createAesGcmSecretBox } from '../kernel/index.js';
import { createMemoryStorage } from '../storage/index.js';
import { createManualClock, createSequentialIds } from '../testing/index.js';
import { verifyPassword } from './passwords.js';

function setup() {
  const storage = createMemoryStorage();
  const core = createMarginCore({
    storage,
    secrets: createAesGcmSecretBox(Buffer.alloc(32)),
    auth: { jwtSecret: 'a-test-signing-secret-of-32-characters!' },
    clock: createManualClock(),
    ids: createSequentialIds(),
  });
  return { storage, core };
}

describe('ensureBootstrapAdmin', () => {
  it('creates the platform admin with the configured password', async () => {
    const { storage, core } = setup();
    expect(await core.identity.ensureBootstrapAdmin({ username: 'root', password: 'a long password' })).toEqual({
      status: 'created',
      username: 'root',
    });
    const admin = await storage.users.findByUsername('root');
    expect(admin).toMatchObject({ globalRole: 'platformAdmin', isActive: true });
    expect(await verifyPassword(admin?.passwordHash ?? '', 'a long password')).toBe(true);
  });

  it('generates and returns a password when none is configured', async () => {
    const { storage, core } = setup();
    const result = await core.identity.ensureBootstrapAdmin({ username: 'admin' });
    expect(result.generatedPassword).toEqual(expect.any(String));
    const admin = await storage.users.findByUsername('admin');
    expect(await verifyPassword(admin?.passwordHash ?? '', result.generatedPassword ?? '')).toBe(true);
  });

  it('does nothing while an active platform admin exists', async () => {
    const { storage, core } = setup();
    await core.identity.ensureBootstrapAdmin({ username: 'admin', password: 'first password' });
    expect(await core.identity.ensureBootstrapAdmin({ username: 'other', password: 'second password' })).toEqual({
      status: 'exists',
      username: 'other',
    });
    expect(await storage.users.findByUsername('other')).toBeUndefined();
  });

  it('restores a disabled admin account of the same name when no active admin is left', async () => {
    const { storage, core } = setup();
    await core.identity.ensureBootstrapAdmin({ username: 'admin', password: 'first password' });
    const admin = await storage.users.findByUsername('admin');
    await storage.users.update(admin?.id ?? '', { isActive: false });
    const lock = { source: '10.0.0.1', failures: 0, lockouts: 1, lastFailureAt: '2029-12-31T23:45:00.000Z' };
    await storage.signInFailures.put({ usernameKey: 'admin', ...lock, lockedUntil: '2030-01-01T00:00:00.000Z' });
    expect((await core.identity.ensureBootstrapAdmin({ username: 'ADMIN', password: 'recovered pw' })).status).toBe(
      'restored',
    );
    const restored = await storage.users.findByUsername('admin');
    expect(restored).toMatchObject({ isActive: true });
    expect(await storage.signInFailures.find('admin', ['10.0.0.1'])).toEqual([]);
    expect(await verifyPassword(restored?.passwordHash ?? '', 'recovered pw')).toBe(true);
  });
});
