import { describeStorageContract } from '@margin/core/testing';
import { describe, expect, it } from 'vitest';
import { openKnexStorage } from './knex-storage.js';
import { MIGRATIONS } from './migrations/index.js';
import { createTestDatabase, openTestStorage, testDialects } from './testing/index.js';

for (const dialect of testDialects()) {
  describeStorageContract(dialect, () => openTestStorage(dialect));

  describe(`knex storage on ${dialect}`, () => {
    it('applies every migration once and nothing on a second open', async () => {
      const db = await createTestDatabase(dialect);
      try {
        const first = await openKnexStorage({ url: db.url, migrate: false });
        expect(await first.migrate()).toEqual(MIGRATIONS.map((m) => m.name));
        await first.close();
        const second = await openKnexStorage({ url: db.url, migrate: false });
        expect(await second.migrate()).toEqual([]);
        await second.close();
      } finally {
        await db.drop();
      }
    });
  });
}

describe('knex storage on sqlite', () => {
  it('opens files in WAL mode with foreign keys enforced', async () => {
    const { storage, dispose } = await openTestStorage('sqlite');
    try {
      const [journal] = await storage.knex.raw('PRAGMA journal_mode');
      const [fk] = await storage.knex.raw('PRAGMA foreign_keys');
      const [sync] = await storage.knex.raw('PRAGMA synchronous');
      expect(journal).toEqual({ journal_mode: 'wal' });
      expect(fk).toEqual({ foreign_keys: 1 });
      expect(sync).toEqual({ synchronous: 2 }); // FULL
    } finally {
      await dispose();
    }
  });

  it('keeps an in-memory database alive for the life of the storage', async () => {
    const storage = await openKnexStorage({ url: 'sqlite::memory:' });
    try {
      await storage.settings.put('k', { v: 1 }, '2026-01-01T00:00:00.000Z');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await storage.settings.get('k')).toEqual({ v: 1 });
    } finally {
      await storage.close();
    }
  });
});
