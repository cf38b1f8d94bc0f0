import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * The publication outbox: one row per pull request and hidden marker, written before a comment is
 * posted and after, so a crash between the two is reconciled instead of posting twice.
 */
export const reviewPublications: Migration = {
  name: '0009_review_publications',
  async up(knex: Knex) {
    await knex.schema.createTable('review_publications', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('pull_request_key', 1600).notNullable();
      t.string('marker', 200).notNullable();
      t.string('kind', 16).notNullable();
      t.string('fingerprint', 64);
      t.string('job_id', 36).notNullable();
      t.string('state', 16).notNullable();
      t.string('provider_thread_id', 300);
      t.string('provider_comment_id', 300);
      t.text('error');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // One post per marker and pull request, whichever host or attempt tries; serves the listing too.
      t.unique(['pull_request_key', 'marker'], { indexName: 'review_publications_pull_request_marker' });
    });
  },
};
