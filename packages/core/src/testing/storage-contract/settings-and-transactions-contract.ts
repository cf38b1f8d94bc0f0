import { describe, expect, it } from 'vitest';
import { NOW, type StorageGetter, user } from './fixtures.js';

export function settingsAndTransactionsContract(storage: StorageGetter): void {
  describe('settings', () => {
    it('returns undefined for a missing key and round-trips JSON values', async () => {
      expect(await storage().settings.get('edition')).toBeUndefined();
      const value = { edition: 'Commercial', overrides: [{ capability: 'crawl-configs', state: 'enabled' }], n: 3 };
      await storage().settings.put('licensing', value, NOW);
      expect(await storage().settings.get('licensing')).toEqual(value);
      await storage().settings.put('licensing', { edition: 'Community' }, NOW);
      expect(await storage().settings.get('licensing')).toEqual({ edition: 'Community' });
    });
  });

  describe('transactions', () => {
    it('commits every write of a successful transaction and returns its value', async () => {
      const u = user({ username: 'tx-ok' });
      const result = await storage().transaction(async (tx) => {
        await tx.users.insert(u);
        await tx.settings.put('k', 1, NOW);
        return 'done';
      });
      expect(result).toBe('done');
      expect(await storage().users.findById(u.id)).toEqual(u);
      expect(await storage().settings.get('k')).toBe(1);
    });

    it('rolls back every write when the transaction throws', async () => {
      const u = user({ username: 'tx-fail' });
      await expect(
        storage().transaction(async (tx) => {
          await tx.users.insert(u);
          await tx.settings.put('k', 1, NOW);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await storage().users.findById(u.id)).toBeUndefined();
      expect(await storage().settings.get('k')).toBeUndefined();
    });

    it('sees its own writes before commit', async () => {
      await storage().transaction(async (tx) => {
        await tx.settings.put('k', 'v', NOW);
        expect(await tx.settings.get('k')).toBe('v');
      });
    });

    it('loses no update when concurrent transactions read and write the same row', async () => {
      await storage().settings.put('counter', 0, NOW);
      await Promise.all(
        Array.from({ length: 8 }, () =>
          storage().transaction(async (tx) => {
            const current = (await tx.settings.get('counter')) as number;
            await tx.settings.put('counter', current + 1, NOW);
          }),
        ),
      );
      expect(await storage().settings.get('counter')).toBe(8);
    });
  });
}
