import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * Triggers and code-knowledge sources. Queries served:
 * - webhook configuration by id, by path key (`webhook_configurations_path_key`, unique: the receiver's
 *   lookup), a client's or every visible client's configurations oldest first
 *   (`webhook_configurations_client_created`, `webhook_configurations_created`), by coordinates
 *   (`webhook_configurations_coordinates`);
 * - deliveries of a configuration newest first (`webhook_deliveries_configuration_received`, also
 *   serving the foreign key), one accepted delivery per idempotency key and configuration
 *   (`webhook_deliveries_dedupe`, unique and partial), the processor's claim of pending or expired
 *   deliveries (`webhook_deliveries_processing`, partial);
 * - crawl configuration by id, listings and coordinates as above, and the crawler's claim of due
 *   active configurations (`crawl_configurations_due`);
 * - knowledge source by id, a client's sources oldest first, one source per client, kind, scope and
 *   repository (`knowledge_sources_key`, unique).
 */
export const triggers: Migration = {
  name: '0006_triggers',
  async up(knex: Knex) {
    const configurationColumns = (t: Knex.CreateTableBuilder) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('provider', 32).notNullable();
      // No foreign key: a deleted scope leaves the configuration stored, reporting that it no longer resolves.
      t.string('organization_scope_id', 100).notNullable();
      t.string('provider_scope_path', 512).notNullable();
      t.string('provider_project_key', 300).notNullable();
      t.double('review_temperature');
      t.jsonb('repo_filters').notNullable();
      t.string('knowledge_source_scope_mode', 32).notNullable();
      t.jsonb('knowledge_source_ids').notNullable();
      t.boolean('is_active').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    };

    await knex.schema.createTable('webhook_configurations', (t) => {
      configurationColumns(t);
      t.string('path_key', 32).notNullable();
      t.text('sealed_secret').notNullable();
      t.jsonb('enabled_events').notNullable();
      t.unique(['path_key'], { indexName: 'webhook_configurations_path_key' });
      t.index(['client_id', 'created_at', 'id'], 'webhook_configurations_client_created');
      t.index(['created_at', 'id'], 'webhook_configurations_created');
      t.index(['client_id', 'provider_scope_path', 'provider_project_key'], 'webhook_configurations_coordinates');
    });

    await knex.schema.createTable('webhook_deliveries', (t) => {
      t.string('id', 36).primary();
      t.string('configuration_id', 36).notNullable().references('webhook_configurations.id').onDelete('CASCADE');
      // Copied from the configuration, whose foreign key already removes the row with the client.
      t.string('client_id', 36).notNullable();
      t.timestamp('received_at', { useTz: true }).notNullable();
      t.string('event_type', 200);
      t.string('event_kind', 32);
      t.string('idempotency_key', 300);
      // The idempotency key of an accepted delivery, never cleared: the unique index below refuses a
      // second acceptance of the same delivery, whichever host receives it.
      t.string('dedupe_key', 300);
      t.string('outcome', 16).notNullable();
      t.integer('http_status').notNullable();
      t.string('repository_id', 300);
      t.integer('pull_request_id');
      t.string('source_branch', 500);
      t.string('target_branch', 500);
      t.string('head_sha', 64);
      t.jsonb('actions').notNullable();
      t.text('failure_reason');
      t.string('processing_state', 16);
      t.timestamp('process_after', { useTz: true });
      t.string('lease_owner', 200);
      t.integer('attempts').notNullable().defaultTo(0);
      t.index(['configuration_id', 'received_at', 'id'], 'webhook_deliveries_configuration_received');
    });
    await knex.raw(
      'create unique index webhook_deliveries_dedupe on webhook_deliveries (configuration_id, dedupe_key) where dedupe_key is not null',
    );
    await knex.raw(
      "create index webhook_deliveries_processing on webhook_deliveries (process_after, received_at, id) where processing_state in ('pending', 'processing')",
    );

    await knex.schema.createTable('crawl_configurations', (t) => {
      configurationColumns(t);
      t.integer('crawl_interval_seconds').notNullable();
      t.timestamp('next_crawl_at', { useTz: true }).notNullable();
      t.timestamp('last_crawled_at', { useTz: true });
      t.string('last_crawl_outcome', 16);
      t.text('last_crawl_error');
      t.jsonb('last_crawl_counts');
      t.string('lease_owner', 200);
      t.timestamp('lease_expires_at', { useTz: true });
      t.index(['client_id', 'created_at', 'id'], 'crawl_configurations_client_created');
      t.index(['created_at', 'id'], 'crawl_configurations_created');
      t.index(['client_id', 'provider_scope_path', 'provider_project_key'], 'crawl_configurations_coordinates');
      t.index(['is_active', 'next_crawl_at'], 'crawl_configurations_due');
    });

    await knex.schema.createTable('knowledge_sources', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('display_name', 200).notNullable();
      t.string('source_kind', 32).notNullable();
      t.string('organization_scope_id', 100).notNullable();
      t.string('provider_project_key', 300).notNullable();
      t.string('source_provider', 32).notNullable();
      t.string('source_value', 300).notNullable();
      // Lower-cased repository id: one source per client, kind, scope and repository.
      t.string('source_key', 300).notNullable();
      t.string('source_display_name', 300).notNullable();
      t.string('default_branch', 300).notNullable();
      t.string('root_path', 1000).notNullable();
      t.string('symbol_mode', 16).notNullable();
      t.jsonb('tracked_branches').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['client_id', 'source_kind', 'organization_scope_id', 'source_key'], {
        indexName: 'knowledge_sources_key',
      });
      t.index(['client_id', 'created_at', 'id'], 'knowledge_sources_client_created');
    });
  },
};
