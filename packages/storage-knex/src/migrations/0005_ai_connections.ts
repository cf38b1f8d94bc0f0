import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * AI connection profiles with their configured models and purpose bindings, logical models
 * (client overrides and tenant-catalog entries), purpose mappings, and the tenant model catalog.
 * Names and model ids have a lower-cased `_key` twin: unique and looked up case-insensitively on
 * both dialects.
 */
export const aiConnections: Migration = {
  name: '0005_ai_connections',
  async up(knex: Knex) {
    await knex.schema.createTable('ai_connections', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('display_name', 200).notNullable();
      t.string('display_name_key', 200).notNullable();
      t.string('provider_kind', 32).notNullable();
      t.string('base_url', 1000).notNullable();
      t.string('auth_mode', 32).notNullable();
      // SecretBox-sealed; never the plaintext key.
      t.text('api_key_sealed');
      t.string('discovery_mode', 32).notNullable();
      t.jsonb('default_headers').notNullable();
      t.jsonb('default_query_params').notNullable();
      t.boolean('is_active').notNullable();
      t.integer('revision').notNullable();
      t.string('verification_status', 32).notNullable();
      t.string('verification_failure_category', 32);
      t.text('verification_summary').notNullable();
      t.timestamp('verification_checked_at', { useTz: true });
      t.jsonb('verification_warnings').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['client_id', 'display_name_key'], { indexName: 'ai_connections_client_name' });
      // Paged listing per client, and the binding fallback (oldest active profile first).
      t.index(['client_id', 'created_at', 'id'], 'ai_connections_client_created');
    });
    await knex.schema.createTable('ai_configured_models', (t) => {
      t.string('id', 36).primary();
      t.string('connection_id', 36).notNullable().references('ai_connections.id').onDelete('CASCADE');
      t.integer('position').notNullable();
      t.string('remote_model_id', 200).notNullable();
      t.string('remote_model_key', 200).notNullable();
      t.string('display_name', 200).notNullable();
      t.jsonb('operation_kinds').notNullable();
      t.jsonb('supported_protocol_modes').notNullable();
      t.string('tokenizer_name', 100);
      t.integer('max_input_tokens');
      t.integer('embedding_dimensions');
      t.boolean('supports_structured_output').notNullable();
      t.boolean('supports_tool_use').notNullable();
      t.integer('max_context_tokens');
      t.double('input_cost_per_1m_usd');
      t.double('output_cost_per_1m_usd');
      t.double('cached_input_cost_per_1m_usd');
      t.string('source', 32).notNullable();
      t.timestamp('last_seen_at', { useTz: true });
      // Also serves loading a profile's models (leading connection_id).
      t.unique(['connection_id', 'remote_model_key'], { indexName: 'ai_configured_models_connection_model' });
    });
    await knex.schema.createTable('ai_purpose_bindings', (t) => {
      t.string('connection_id', 36).notNullable().references('ai_connections.id').onDelete('CASCADE');
      t.string('purpose', 64).notNullable();
      t.string('configured_model_id', 36).notNullable().references('ai_configured_models.id').onDelete('CASCADE');
      t.string('protocol_mode', 32).notNullable();
      t.boolean('is_enabled').notNullable();
      t.integer('position').notNullable();
      // A purpose once per profile; serves loading and the binding fallback join.
      t.primary(['connection_id', 'purpose']);
    });
    await knex.schema.createTable('ai_logical_models', (t) => {
      t.string('id', 36).primary();
      // 'client' (an override; owner_id is the client) or 'tenant' (a catalog entry; owner_id is the tenant).
      t.string('owner_kind', 16).notNullable();
      t.string('owner_id', 36).notNullable();
      t.string('name', 100).notNullable();
      t.string('name_key', 100).notNullable();
      t.string('capability', 16).notNullable();
      t.string('connection_id', 36).notNullable().references('ai_connections.id').onDelete('CASCADE');
      // No foreign key: a profile's models are rewritten on every change (ids kept); core checks it.
      t.string('configured_model_id', 36).notNullable();
      t.string('reasoning_effort', 16).notNullable();
      t.string('protocol_mode', 32).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['owner_kind', 'owner_id', 'name_key'], { indexName: 'ai_logical_models_owner_name' });
      t.index(['connection_id'], 'ai_logical_models_connection');
    });
    await knex.schema.createTable('ai_purpose_mappings', (t) => {
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('purpose', 64).notNullable();
      t.string('logical_model_name', 100).notNullable();
      t.string('logical_model_name_key', 100).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.primary(['client_id', 'purpose']);
      // Which clients depend on a tenant entry of that name.
      t.index(['logical_model_name_key', 'client_id'], 'ai_purpose_mappings_name');
    });
    await knex.schema.createTable('ai_catalog_models', (t) => {
      t.string('id', 36).primary();
      t.string('tenant_id', 36).notNullable().references('tenants.id').onDelete('CASCADE');
      t.string('provider_kind', 32).notNullable();
      t.string('remote_model_id', 200).notNullable();
      t.string('remote_model_key', 200).notNullable();
      t.string('display_name', 200).notNullable();
      t.jsonb('operation_kinds').notNullable();
      t.string('tokenizer_name', 100);
      t.integer('max_input_tokens');
      t.integer('embedding_dimensions');
      t.boolean('supports_structured_output').notNullable();
      t.boolean('supports_tool_use').notNullable();
      t.integer('max_context_tokens');
      t.double('input_cost_per_1m_usd');
      t.double('output_cost_per_1m_usd');
      t.double('cached_input_cost_per_1m_usd');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.unique(['tenant_id', 'provider_kind', 'remote_model_key'], { indexName: 'ai_catalog_models_tenant_model' });
    });
    await knex.schema.createTable('ai_price_overrides', (t) => {
      t.string('id', 36).primary();
      t.string('tenant_id', 36).notNullable().references('tenants.id').onDelete('CASCADE');
      t.string('provider_kind', 32).notNullable();
      t.string('remote_model_id', 200).notNullable();
      t.string('remote_model_key', 200).notNullable();
      t.double('input_cost_per_1m_usd');
      t.double('output_cost_per_1m_usd');
      t.double('cached_input_cost_per_1m_usd');
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['tenant_id', 'provider_kind', 'remote_model_key'], { indexName: 'ai_price_overrides_tenant_model' });
    });
  },
};
