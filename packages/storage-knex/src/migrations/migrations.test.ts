import { randomUUID } from 'node:crypto';
import { SYSTEM_TENANT_ID } from '@margin/core';
import { reviewJobRecord } from '@margin/core/testing';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { openKnexStorage } from '../knex-storage.js';
import { createTestDatabase, testDialects } from '../testing/index.js';
import { MIGRATIONS } from './index.js';
import type { Migration } from './migration.js';

/** A source holding only the migrations before `name`, to build the database an upgrade meets. */
const before = (name: string): Knex.MigrationSource<Migration> => ({
  getMigrations: async () =>
    MIGRATIONS.slice(
      0,
      MIGRATIONS.findIndex((m) => m.name === name),
    ),
  getMigrationName: (m) => m.name,
  getMigration: async (m) => ({ up: (knex: Knex) => m.up(knex), down: async () => undefined }),
});

const NOW = '2026-01-01T00:00:00.000Z';

for (const dialect of testDialects()) {
  describe(`upgrading a ${dialect} database`, () => {
    it('0007 prefixes existing job keys with their client, so clients no longer share revisions', async () => {
      const db = await createTestDatabase(dialect);
      const storage = await openKnexStorage({ url: db.url, migrate: false });
      try {
        await storage.knex.migrate.latest({ migrationSource: before('0007_job_keys_per_client') });
        const clientId = randomUUID();
        await storage.clients.insert({
          id: clientId,
          tenantId: SYSTEM_TENANT_ID,
          displayName: 'Before the upgrade',
          isActive: true,
          createdAt: NOW,
          updatedAt: NOW,
        });
        const job = reviewJobRecord(clientId, {
          reviewRevision: null,
          pullRequestKey: 'gitHostA|https://github.com|42|7',
          revisionKey: 'gitHostA|https://github.com|42|7|*',
        });
        await storage.reviewJobs.insert(job);

        expect(await storage.migrate()).toContain('0007_job_keys_per_client');
        const upgraded = await storage.reviewJobs.findById(job.id);
        expect(upgraded).toMatchObject({
          pullRequestKey: `${clientId}|gitHostA|https://github.com|42|7`,
          revisionKey: `${clientId}|gitHostA|https://github.com|42|7|*`,
        });
        expect(await storage.reviewJobs.findActiveByRevisionKey(upgraded?.revisionKey ?? '')).toMatchObject({
          id: job.id,
        });
      } finally {
        await storage.close();
        await db.drop();
      }
    });
  });
}
