import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * A tenant's OpenID Connect identity providers (the client secret sealed like every credential),
 * and which user each provider's subject is linked to: one user per (issuer, subject).
 */
export const identityProviders: Migration = {
  name: '0051_identity_providers',
  async up(knex: Knex) {
    await knex.schema.createTable('identity_providers', (t) => {
      t.string('id', 36).primary();
      t.string('tenant_id', 36).notNullable().references('tenants.id').onDelete('CASCADE');
      t.string('display_name', 200).notNullable();
      t.string('issuer_url', 2048).notNullable();
      t.string('client_id', 500).notNullable();
      t.text('sealed_client_secret');
      t.jsonb('allowed_email_domains').notNullable();
      t.boolean('auto_create_users').notNullable();
      t.string('default_client_role', 20).notNullable();
      t.boolean('is_enabled').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['tenant_id', 'created_at', 'id'], 'identity_providers_tenant');
    });
    await knex.schema.createTable('user_identities', (t) => {
      t.string('id', 36).primary();
      t.string('user_id', 36).notNullable().references('users.id').onDelete('CASCADE');
      t.string('identity_provider_id', 36).notNullable();
      t.string('issuer', 2048).notNullable();
      t.string('subject', 255).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.unique(['issuer', 'subject'], { indexName: 'user_identities_issuer_subject' });
      t.index(['user_id'], 'user_identities_user');
    });
  },
};
