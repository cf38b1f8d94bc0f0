import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * Comments that mentioned Margin and what it did about them. Unique on (client, provider comment
 * key): every delivery, host and scan that finds the same comment inserts into the same key, so one
 * insert wins and the others insert nothing. The worker claims queued rows, and those whose lease
 * ran out, through `conversations_claim` (partial); the console lists a client's newest first.
 */
export const conversations: Migration = {
  name: '0060_conversations',
  async up(knex: Knex) {
    await knex.schema.createTable('conversations', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('provider_comment_key', 500).notNullable();
      t.string('configuration_id', 36).notNullable();
      t.string('origin_kind', 20).notNullable();
      t.string('organization_scope_id', 36).notNullable();
      t.string('provider_scope_path', 500).notNullable();
      t.string('provider_project_key', 300).notNullable();
      t.string('repository_id', 300).notNullable();
      t.integer('pull_request_id').notNullable();
      t.string('provider_thread_id', 300);
      t.string('comment_id', 300).notNullable();
      t.jsonb('author').notNullable();
      t.boolean('is_review_comment').notNullable();
      t.timestamp('commented_at', { useTz: true }).notNullable();
      t.string('command', 20);
      t.text('question');
      t.text('answer');
      t.string('outcome', 20);
      t.string('job_id', 36);
      t.jsonb('usage');
      t.string('status', 20).notNullable();
      t.string('lease_owner', 200);
      t.timestamp('lease_expires_at', { useTz: true });
      t.integer('attempts').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('handled_at', { useTz: true });
      t.unique(['client_id', 'provider_comment_key'], { indexName: 'conversations_comment' });
      t.index(['client_id', 'created_at', 'id'], 'conversations_client_created');
    });
    await knex.raw(
      "create index conversations_claim on conversations (created_at, id) where status in ('queued', 'handling')",
    );
  },
};
