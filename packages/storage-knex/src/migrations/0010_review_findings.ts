import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * Findings remembered per pull request across pushes (identity by content, lifecycle states), and an
 * index for the "last completed review of this pull request" an incremental review builds on.
 */
export const reviewFindings: Migration = {
  name: '0010_review_findings',
  async up(knex: Knex) {
    await knex.schema.createTable('review_findings', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('pull_request_key', 1600).notNullable();
      t.string('repository_id', 300).notNullable();
      t.integer('pull_request_number').notNullable();
      t.string('fingerprint', 64).notNullable();
      t.string('loc_key', 64).notNullable();
      t.string('path', 1000).notNullable();
      t.text('anchor_text').notNullable();
      t.text('enclosing_symbol').notNullable();
      t.jsonb('identifiers').notNullable();
      t.jsonb('words').notNullable();
      t.string('category', 32).notNullable();
      t.string('severity', 16).notNullable();
      t.string('title', 200).notNullable();
      t.text('message').notNullable();
      t.integer('start_line');
      t.integer('end_line');
      t.string('side', 8).notNullable();
      t.string('state', 16).notNullable();
      t.string('first_seen_revision', 64).notNullable();
      t.string('last_seen_revision', 64).notNullable();
      t.string('resolved_at_revision', 64);
      t.string('first_job_id', 36).notNullable();
      t.string('last_job_id', 36).notNullable();
      t.string('provider_thread_id', 300);
      t.string('marker', 200);
      t.integer('reopen_count').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['pull_request_key'], 'review_findings_pull_request');
      t.index(['client_id', 'updated_at', 'id'], 'review_findings_client_updated');
    });
    await knex.schema.alterTable('review_jobs', (t) => {
      t.index(['pull_request_key', 'status', 'completed_at'], 'review_jobs_pull_request_completed');
    });
  },
};
