import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * Source-control connections, their scopes and reviewer identities. Queries served: connection by id;
 * a client's connections oldest first and their count (`provider_connections_client_created`); the
 * duplicate rule (`provider_connections_client_family_host`, unique); a connection's scopes oldest
 * first and its oldest enabled one (`provider_scopes_connection_created`); the scope-path rule
 * (`provider_scopes_connection_path`, unique); scope by id joined to its connection (primary keys).
 */
export const scmConnections: Migration = {
  name: '0003_scm_connections',
  async up(knex: Knex) {
    await knex.schema.createTable('provider_connections', (t) => {
      t.string('id', 36).primary();
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('provider_family', 32).notNullable();
      t.string('authentication_kind', 32).notNullable();
      t.string('host_base_url', 1000).notNullable();
      // Lower-cased host URL: one connection per client, family and host.
      t.string('host_key', 1000).notNullable();
      t.string('display_name', 200).notNullable();
      t.boolean('is_active').notNullable();
      t.string('o_auth_tenant_id', 256);
      t.string('o_auth_client_id', 256);
      // GitHub ids outgrow 32 bits.
      t.bigInteger('hosted_app_id');
      t.bigInteger('hosted_app_installation_id');
      t.text('sealed_secret').notNullable();
      t.string('verification_status', 32).notNullable();
      t.timestamp('last_verified_at', { useTz: true });
      t.text('last_verification_error');
      t.string('last_verification_failure_category', 32);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['client_id', 'provider_family', 'host_key'], { indexName: 'provider_connections_client_family_host' });
      t.index(['client_id', 'created_at', 'id'], 'provider_connections_client_created');
    });
    await knex.schema.createTable('provider_scopes', (t) => {
      t.string('id', 36).primary();
      t.string('connection_id', 36).notNullable().references('provider_connections.id').onDelete('CASCADE');
      // Copied from the connection, whose foreign key already removes it with the client.
      t.string('client_id', 36).notNullable();
      t.string('scope_type', 32).notNullable();
      t.string('external_scope_id', 256);
      t.string('scope_path', 512).notNullable();
      // Lower-cased scope path: unique per connection.
      t.string('scope_path_key', 512).notNullable();
      t.string('display_name', 256).notNullable();
      t.boolean('is_enabled').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['connection_id', 'scope_path_key'], { indexName: 'provider_scopes_connection_path' });
      t.index(['connection_id', 'created_at', 'id'], 'provider_scopes_connection_created');
    });
    await knex.schema.createTable('reviewer_identities', (t) => {
      t.string('connection_id', 36).primary().references('provider_connections.id').onDelete('CASCADE');
      t.string('client_id', 36).notNullable();
      t.string('external_user_id', 256).notNullable();
      t.string('login', 256).notNullable();
      t.string('display_name', 256).notNullable();
      t.boolean('is_bot').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
};
