import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * The usage ledger: one row per model call, and daily rollups the reports read. Reports span whole
 * UTC days (up to 400) and group by day, so a rollup per day is the coarsest grain that answers
 * every report without touching the raw events; a year of it is ~365 rows per combination of
 * model, purpose and repository, whatever the number of calls. Both are kept for the retention period.
 */
export const usageLedger: Migration = {
  name: '0020_usage_ledger',
  async up(knex: Knex) {
    await knex.schema.createTable('usage_events', (t) => {
      t.string('id', 36).primary();
      t.timestamp('at', { useTz: true }).notNullable();
      t.string('tenant_id', 36).notNullable();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('job_id', 36);
      t.string('conversation_id', 36);
      t.string('knowledge_source_id', 36);
      t.string('source', 16).notNullable();
      t.string('purpose', 64).notNullable();
      t.string('logical_model', 200);
      t.string('connection_id', 36).notNullable();
      t.string('model', 300).notNullable();
      t.string('repository', 700);
      t.string('pull_request_key', 1600);
      t.bigInteger('input_tokens').notNullable();
      t.bigInteger('cached_input_tokens').notNullable();
      t.bigInteger('output_tokens').notNullable();
      t.bigInteger('reasoning_tokens').notNullable();
      t.bigInteger('cost_micro_usd').notNullable();
      t.boolean('cost_is_approximate').notNullable();
      t.index(['client_id', 'at'], 'usage_events_client_at');
      t.index(['tenant_id', 'at'], 'usage_events_tenant_at');
      t.index(['job_id'], 'usage_events_job');
      t.index(['client_id', 'pull_request_key'], 'usage_events_client_pull_request');
      // Retention prunes by time alone.
      t.index(['at'], 'usage_events_at');
    });
    await knex.schema.createTable('usage_daily', (t) => {
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('day', 10).notNullable();
      t.string('tenant_id', 36).notNullable();
      t.string('source', 16).notNullable();
      t.string('purpose', 64).notNullable();
      t.string('model', 300).notNullable();
      t.string('connection_id', 36).notNullable();
      // '' when none: these are part of the key, which cannot hold nulls.
      t.string('logical_model', 200).notNullable();
      t.string('repository', 700).notNullable();
      t.bigInteger('calls').notNullable();
      t.bigInteger('input_tokens').notNullable();
      t.bigInteger('cached_input_tokens').notNullable();
      t.bigInteger('output_tokens').notNullable();
      t.bigInteger('reasoning_tokens').notNullable();
      t.bigInteger('cost_micro_usd').notNullable();
      t.bigInteger('approximate_calls').notNullable();
      t.primary(
        ['client_id', 'day', 'source', 'purpose', 'model', 'connection_id', 'logical_model', 'repository'],
        'usage_daily_key',
      );
      t.index(['tenant_id', 'day'], 'usage_daily_tenant_day');
    });
  },
};
