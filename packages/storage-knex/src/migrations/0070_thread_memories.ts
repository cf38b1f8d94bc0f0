import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * What people decided about Margin's findings (a thread resolved, closed won't-fix, rejected in a
 * reply, or an administrator's dismissal), one row per (client, thread), with its embedding when
 * one was made. Reviews read a repository's rows; the API lists a client's newest first. A row an
 * administrator deleted stays with `forgotten_at`, so the same closure is not learned again.
 */
export const threadMemories: Migration = {
  name: '0070_thread_memories',
  async up(knex: Knex) {
    await knex.schema.createTable('thread_memories', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('thread_key', 1000).notNullable();
      t.string('source', 32).notNullable();
      t.string('intent', 32).notNullable();
      t.string('file_path', 1000);
      t.text('summary').notNullable();
      t.string('finding_fingerprint', 64);
      t.string('provider_thread_id', 300);
      t.string('repository_id', 300);
      t.integer('pull_request_id');
      t.jsonb('embedding');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.string('created_by', 300);
      t.timestamp('forgotten_at', { useTz: true });
      t.unique(['client_id', 'thread_key'], { indexName: 'thread_memories_thread' });
      t.index(['client_id', 'repository_id'], 'thread_memories_repository');
      t.index(['client_id', 'created_at', 'id'], 'thread_memories_client_created');
    });
  },
};
