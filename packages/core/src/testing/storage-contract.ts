import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarginError } from '../errors.js';
import type { UserRecord } from '../identity/user-record.js';
import type { StorageV1 } from '../storage/storage-v1.js';

export interface StorageUnderTest {
  storage: StorageV1;
  /** Closes the storage and removes whatever the run created (database, schema, files). */
  dispose(): Promise<void>;
}

/**
 * The behaviour every StorageV1 implementation must show. Each test gets a fresh, empty storage
 * from `open`, so tests never see each other's rows.
 */
export function describeStorageContract(name: string, open: () => Promise<StorageUnderTest>): void {
  describe(`storage contract: ${name}`, () => {
    let subject: StorageUnderTest;
    let storage: StorageV1;
    beforeEach(async () => {
      subject = await open();
      storage = subject.storage;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('answers ping', async () => {
      await expect(storage.ping()).resolves.toBeUndefined();
    });

    describe('users', () => {
      it('stores a user and reads it back by id and by username in any case', async () => {
        const u = user({ username: 'Ada.Lovelace' });
        await storage.users.insert(u);
        expect(await storage.users.findById(u.id)).toEqual(u);
        expect(await storage.users.findByUsername('ada.lovelace')).toEqual(u);
        expect(await storage.users.findByUsername('ADA.LOVELACE')).toEqual(u);
        expect(await storage.users.findById('00000000-0000-4000-8000-0000000000ff')).toBeUndefined();
        expect(await storage.users.findByUsername('nobody')).toBeUndefined();
      });

      it('refuses a second user whose username differs only in case, as a conflict', async () => {
        await storage.users.insert(user({ username: 'grace' }));
        const error = await storage.users.insert(user({ username: 'GRACE' })).catch((e: unknown) => e);
        expect(MarginError.isInstance(error) && error.code).toBe('conflict');
      });

      it('updates only the given fields and returns the new record', async () => {
        const u = user({ username: 'linus' });
        await storage.users.insert(u);
        const updated = await storage.users.update(u.id, {
          displayName: 'Linus T.',
          isActive: false,
          lockedUntil: '2026-01-01T00:15:00.000Z',
          failedLoginCount: 5,
        });
        expect(updated).toEqual({
          ...u,
          displayName: 'Linus T.',
          isActive: false,
          lockedUntil: '2026-01-01T00:15:00.000Z',
          failedLoginCount: 5,
        });
        expect(await storage.users.findById(u.id)).toEqual(updated);
        expect(
          await storage.users.update('00000000-0000-4000-8000-0000000000ff', { displayName: 'x' }),
        ).toBeUndefined();
      });

      it('refuses renaming a user onto a taken username', async () => {
        const a = user({ username: 'alpha' });
        const b = user({ username: 'beta' });
        await storage.users.insert(a);
        await storage.users.insert(b);
        const error = await storage.users.update(b.id, { username: 'ALPHA' }).catch((e: unknown) => e);
        expect(MarginError.isInstance(error) && error.code).toBe('conflict');
        expect((await storage.users.findById(b.id))?.username).toBe('beta');
      });

      it('lists users oldest first in pages that neither skip nor repeat', async () => {
        const users = Array.from({ length: 5 }, (_, i) =>
          user({ username: `u${i}`, createdAt: `2026-01-01T00:00:0${i}.000Z` }),
        );
        for (const u of [...users].reverse()) await storage.users.insert(u);
        const first = await storage.users.list({ limit: 2 });
        expect(first.items.map((u) => u.username)).toEqual(['u0', 'u1']);
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = await storage.users.list({ limit: 2, cursor: first.nextCursor });
        expect(second.items.map((u) => u.username)).toEqual(['u2', 'u3']);
        const third = await storage.users.list({ limit: 2, cursor: second.nextCursor });
        expect(third.items.map((u) => u.username)).toEqual(['u4']);
        expect(third.nextCursor).toBeNull();
      });

      it('counts active users per global role', async () => {
        await storage.users.insert(user({ username: 'a1', globalRole: 'platformAdmin' }));
        await storage.users.insert(user({ username: 'a2', globalRole: 'platformAdmin', isActive: false }));
        await storage.users.insert(user({ username: 'u1' }));
        expect(await storage.users.countActive('platformAdmin')).toBe(1);
        expect(await storage.users.countActive('user')).toBe(1);
      });
    });

    describe('settings', () => {
      it('returns undefined for a missing key and round-trips JSON values', async () => {
        expect(await storage.settings.get('edition')).toBeUndefined();
        const value = { edition: 'Commercial', overrides: [{ capability: 'crawl-configs', state: 'enabled' }], n: 3 };
        await storage.settings.put('licensing', value, NOW);
        expect(await storage.settings.get('licensing')).toEqual(value);
        await storage.settings.put('licensing', { edition: 'Community' }, NOW);
        expect(await storage.settings.get('licensing')).toEqual({ edition: 'Community' });
      });
    });

    describe('transactions', () => {
      it('commits every write of a successful transaction and returns its value', async () => {
        const u = user({ username: 'tx-ok' });
        const result = await storage.transaction(async (tx) => {
          await tx.users.insert(u);
          await tx.settings.put('k', 1, NOW);
          return 'done';
        });
        expect(result).toBe('done');
        expect(await storage.users.findById(u.id)).toEqual(u);
        expect(await storage.settings.get('k')).toBe(1);
      });

      it('rolls back every write when the transaction throws', async () => {
        const u = user({ username: 'tx-fail' });
        await expect(
          storage.transaction(async (tx) => {
            await tx.users.insert(u);
            await tx.settings.put('k', 1, NOW);
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await storage.users.findById(u.id)).toBeUndefined();
        expect(await storage.settings.get('k')).toBeUndefined();
      });

      it('sees its own writes before commit', async () => {
        await storage.transaction(async (tx) => {
          await tx.settings.put('k', 'v', NOW);
          expect(await tx.settings.get('k')).toBe('v');
        });
      });

      it('loses no update when concurrent transactions read and write the same row', async () => {
        await storage.settings.put('counter', 0, NOW);
        await Promise.all(
          Array.from({ length: 8 }, () =>
            storage.transaction(async (tx) => {
              const current = (await tx.settings.get('counter')) as number;
              await tx.settings.put('counter', current + 1, NOW);
            }),
          ),
        );
        expect(await storage.settings.get('counter')).toBe(8);
      });
    });
  });
}

const NOW = '2026-01-01T00:00:00.000Z';
let sequence = 0;

function user(overrides: Partial<UserRecord> = {}): UserRecord {
  sequence++;
  return {
    id: `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`,
    username: `user${sequence}`,
    displayName: `User ${sequence}`,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    globalRole: 'user',
    isActive: true,
    failedLoginCount: 0,
    lockoutCount: 0,
    lockedUntil: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}
