import { MarginError } from '@margin/core/spec';
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

    it('runs transactions naming the same lock one after another, each once', async () => {
      const { storage, dispose } = await openTestStorage(dialect);
      try {
        let runs = 0;
        const increment = () =>
          storage.transaction(
            async (tx) => {
              runs++;
              const n = ((await tx.settings.get('counter')) as number | undefined) ?? 0;
              await tx.settings.put('counter', n + 1, '2026-01-01T00:00:00.000Z');
            },
            { lock: 'counter' },
          );
        await Promise.all(Array.from({ length: 20 }, increment));
        expect(await storage.settings.get('counter')).toBe(20);
        expect(runs).toBe(20);
      } finally {
        await dispose();
      }
    });

    it('answers a conflict that outlasts the retries as service_unavailable with a time to retry', async () => {
      const { storage, dispose } = await openTestStorage(dialect);
      try {
        let runs = 0;
        const refused = await storage
          .transaction(async () => {
            runs++;
            throw Object.assign(new Error('could not serialize access'), { code: '40001' });
          })
          .catch((error: unknown) => error);
        expect(MarginError.isInstance(refused) && refused.toBody()).toEqual({
          code: 'service_unavailable',
          error: 'The database is too busy to complete this request now; try again shortly.',
          retryAfterSeconds: 1,
        });
        expect(runs).toBe(10);
      } finally {
        await dispose();
      }
    });
  });
}

describe.runIf(testDialects().includes('postgres'))('knex storage on postgres', () => {
  it('answers a lock held too long as service_unavailable, and takes it once it is free', async () => {
    const db = await createTestDatabase('postgres');
    const storage = await openKnexStorage({ url: db.url, lockTimeoutMs: 100 });
    try {
      const holder = await storage.knex.transaction();
      await holder.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', ['held']);
      const refused = await storage.transaction(async () => 'ran', { lock: 'held' }).catch((error: unknown) => error);
      expect(MarginError.isInstance(refused) && refused.toBody()).toMatchObject({
        code: 'service_unavailable',
        retryAfterSeconds: 1,
      });
      await holder.commit();
      expect(await storage.transaction(async () => 'ran', { lock: 'held' })).toBe('ran');
    } finally {
      await storage.close();
      await db.drop();
    }
  });
});

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
