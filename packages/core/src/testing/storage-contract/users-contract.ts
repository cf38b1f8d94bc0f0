import { describe, expect, it } from 'vitest';
import { MarginError } from '../../kernel/index.js';
import { type StorageGetter, user, uuid } from './fixtures.js';

export function usersContract(storage: StorageGetter): void {
  describe('users', () => {
    it('stores a user and reads it back by id and by username in any case', async () => {
      const u = user({ username: 'Ada.Lovelace' });
      await storage().users.insert(u);
      expect(await storage().users.findById(u.id)).toEqual(u);
      expect(await storage().users.findByUsername('ada.lovelace')).toEqual(u);
      expect(await storage().users.findByUsername('ADA.LOVELACE')).toEqual(u);
      expect(await storage().users.findById('00000000-0000-4000-8000-0000000000ff')).toBeUndefined();
      expect(await storage().users.findByUsername('nobody')).toBeUndefined();
    });

    it('reads several users by id in one call, skipping unknown ids', async () => {
      const [a, b] = [user(), user()];
      await storage().users.insert(a);
      await storage().users.insert(b);
      const found = await storage().users.findManyByIds([b.id, uuid(), a.id]);
      expect(found.map((u) => u.id).sort()).toEqual([a.id, b.id].sort());
      expect(await storage().users.findManyByIds([])).toEqual([]);
    });

    it('refuses a second user whose username differs only in case, as a conflict', async () => {
      await storage().users.insert(user({ username: 'grace' }));
      const error = await storage()
        .users.insert(user({ username: 'GRACE' }))
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(error) && error.code).toBe('conflict');
    });

    it('finds a user by email in any case and keeps emails unique case-insensitively', async () => {
      const u = user({ email: 'Ada@Example.com' });
      await storage().users.insert(u);
      await storage().users.insert(user());
      await storage().users.insert(user());
      expect(await storage().users.findByEmail('ada@example.COM')).toEqual(u);
      expect(await storage().users.findByEmail('nobody@example.com')).toBeUndefined();
      const dup = await storage()
        .users.insert(user({ email: 'ADA@example.com' }))
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(dup) && dup.code).toBe('conflict');
      const other = user();
      await storage().users.insert(other);
      const taken = await storage()
        .users.update(other.id, { email: 'ada@EXAMPLE.com' })
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(taken) && taken.code).toBe('conflict');
      expect(await storage().users.update(u.id, { email: null })).toMatchObject({ email: null });
      expect(await storage().users.update(other.id, { email: 'ada@example.com' })).toMatchObject({
        email: 'ada@example.com',
      });
    });

    it('updates only the given fields and returns the new record', async () => {
      const u = user({ username: 'linus' });
      await storage().users.insert(u);
      const updated = await storage().users.update(u.id, {
        displayName: 'Linus T.',
        isActive: false,
      });
      expect(updated).toEqual({
        ...u,
        displayName: 'Linus T.',
        isActive: false,
      });
      expect(await storage().users.findById(u.id)).toEqual(updated);
      expect(
        await storage().users.update('00000000-0000-4000-8000-0000000000ff', { displayName: 'x' }),
      ).toBeUndefined();
    });

    it('refuses renaming a user onto a taken username', async () => {
      const a = user({ username: 'alpha' });
      const b = user({ username: 'beta' });
      await storage().users.insert(a);
      await storage().users.insert(b);
      const error = await storage()
        .users.update(b.id, { username: 'ALPHA' })
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(error) && error.code).toBe('conflict');
      expect((await storage().users.findById(b.id))?.username).toBe('beta');
    });

    it('lists users oldest first in pages that neither skip nor repeat', async () => {
      const users = Array.from({ length: 5 }, (_, i) =>
        user({ username: `u${i}`, createdAt: `2026-01-01T00:00:0${i}.000Z` }),
      );
      for (const u of [...users].reverse()) await storage().users.insert(u);
      const first = await storage().users.list({ limit: 2 });
      expect(first.items.map((u) => u.username)).toEqual(['u0', 'u1']);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await storage().users.list({ limit: 2, cursor: first.nextCursor });
      expect(second.items.map((u) => u.username)).toEqual(['u2', 'u3']);
      const third = await storage().users.list({ limit: 2, cursor: second.nextCursor });
      expect(third.items.map((u) => u.username)).toEqual(['u4']);
      expect(third.nextCursor).toBeNull();
    });

    it('counts active users per global role', async () => {
      await storage().users.insert(user({ username: 'a1', globalRole: 'platformAdmin' }));
      await storage().users.insert(user({ username: 'a2', globalRole: 'platformAdmin', isActive: false }));
      await storage().users.insert(user({ username: 'u1' }));
      expect(await storage().users.countActive('platformAdmin')).toBe(1);
      expect(await storage().users.countActive('user')).toBe(1);
    });
  });
}
