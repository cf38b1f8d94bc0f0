import type { Knex } from 'knex';
import type { Migration } from './migration.js';

export const reviewJobs: Migration = {
  name: '0004_review_jobs',
  async up(knex: Knex) {
    await knex.schema.createTable('review_jobs', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('status', 32).notNullable();
      t.string('trigger', 32).notNullable();
      t.string('provider', 32).notNullable();
      t.string('host_base_url', 1000).notNullable();
      t.string('repository_id', 300).notNullable();
      t.integer('pull_request_number').notNullable();
      t.jsonb('repository').notNullable();
      t.jsonb('code_review').notNullable();
      t.jsonb('review_revision');
      t.string('pull_request_key', 1600).notNullable();
      t.string('revision_key', 1800).notNullable();
      t.jsonb('options').notNullable();
      t.integer('attempt').notNullable();
      t.string('submitted_by_user_id', 36);
      t.timestamp('submitted_at', { useTz: true }).notNullable();
      t.timestamp('started_at', { useTz: true });
      t.timestamp('completed_at', { useTz: true });
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.string('lease_owner', 200);
      t.timestamp('lease_expires_at', { useTz: true });
      t.integer('reclaim_count').notNullable().defaultTo(0);
      // 1 while a job runs under the one-review-at-a-time rule; the partial unique index below makes a
      // second such claim fail inside the database, whichever host tries it.
      t.integer('exclusive_slot');
      t.jsonb('progress').notNullable();
      t.jsonb('result');
      t.jsonb('usage');
      t.text('error');
      t.index(['client_id', 'submitted_at', 'id'], 'review_jobs_client_submitted');
      t.index(['status', 'submitted_at', 'id'], 'review_jobs_status_submitted');
      t.index(['revision_key', 'status'], 'review_jobs_revision_status');
      t.index(['pull_request_key', 'status'], 'review_jobs_pull_request_status');
      t.index(['status', 'lease_expires_at'], 'review_jobs_status_lease');
    });
    // A revision is never active twice, even when two hosts insert at the same instant.
    await knex.raw(
      "create unique index review_jobs_one_active_per_revision on review_jobs (revision_key) where status in ('queued', 'running')",
    );
    await knex.raw(
      "create unique index review_jobs_one_exclusive_run on review_jobs (exclusive_slot) where status = 'running' and exclusive_slot is not null",
    );

    await knex.schema.createTable('blocked_pull_requests', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('provider_scope_path', 512).notNullable();
      t.string('provider_project_key', 300).notNullable();
      t.string('repository_id', 300).notNullable();
      t.integer('pull_request_id').notNullable();
      t.text('reason').notNullable();
      t.string('blocked_by_user_id', 36);
      t.timestamp('blocked_at', { useTz: true }).notNullable();
      t.unique(['client_id', 'repository_id', 'pull_request_id'], { indexName: 'blocked_pull_requests_key' });
    });

    await knex.schema.createTable('dismissals', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.text('finding_message').notNullable();
      t.string('file_path', 1000);
      t.string('label', 200);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.string('created_by_user_id', 36);
      t.index(['client_id', 'created_at'], 'dismissals_client_created');
    });

    await knex.schema.createTable('protocol_passes', (t) => {
      t.string('id', 36).primary();
      t.string('job_id', 36).notNullable().references('review_jobs.id').onDelete('CASCADE');
      t.integer('attempt').notNullable();
      t.string('stage', 64).notNullable();
      t.string('label', 500).notNullable();
      t.string('file_path', 1000);
      t.timestamp('started_at', { useTz: true }).notNullable();
      t.timestamp('completed_at', { useTz: true });
      t.string('outcome', 32).notNullable();
      t.integer('input_tokens').notNullable().defaultTo(0);
      t.integer('cached_input_tokens').notNullable().defaultTo(0);
      t.integer('output_tokens').notNullable().defaultTo(0);
      t.index(['job_id', 'started_at'], 'protocol_passes_job');
    });

    await knex.schema.createTable('protocol_events', (t) => {
      t.string('id', 36).primary();
      t.string('pass_id', 36).notNullable().references('protocol_passes.id').onDelete('CASCADE');
      t.string('job_id', 36).notNullable();
      t.integer('sequence').notNullable();
      t.string('kind', 64).notNullable();
      t.string('name', 300).notNullable();
      t.string('event_category', 32).notNullable();
      t.timestamp('occurred_at', { useTz: true }).notNullable();
      t.integer('duration_ms');
      t.integer('input_tokens');
      t.integer('output_tokens');
      t.jsonb('body');
      t.index(['job_id', 'sequence'], 'protocol_events_job');
      t.index(['job_id', 'event_category', 'sequence'], 'protocol_events_job_category');
    });
  },
};
