import type { Knex } from 'knex';
import type { Migration } from './migration.js';

const SYSTEM_TENANT_ID = '11111111-1111-1111-1111-111111111111';

export const identityAndTenancy: Migration = {
  name: '0002_identity_and_tenancy',
  async up(knex: Knex) {
    await knex.schema.createTable('refresh_tokens', (t) => {
      t.string('id', 36).primary();
      t.string('user_id', 36).notNullable().references('users.id').onDelete('CASCADE');
      t.string('family_id', 36).notNullable();
      t.string('token_hash', 64).notNullable().unique();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('last_used_at', { useTz: true }).notNullable();
      t.string('replaced_by_id', 36);
      t.timestamp('revoked_at', { useTz: true });
      t.index(['family_id'], 'refresh_tokens_family');
      t.index(['user_id'], 'refresh_tokens_user');
    });
    await knex.schema.createTable('personal_access_tokens', (t) => {
      t.string('id', 36).primary();
      t.string('user_id', 36).notNullable().references('users.id').onDelete('CASCADE');
      t.string('label', 200).notNullable();
      t.string('token_hash', 64).notNullable().unique();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true });
      t.timestamp('last_used_at', { useTz: true });
      t.timestamp('revoked_at', { useTz: true });
      t.index(['user_id', 'created_at'], 'personal_access_tokens_user');
    });
    await knex.schema.createTable('tenants', (t) => {
      t.string('id', 36).primary();
      t.string('display_name', 200).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex('tenants').insert({
      id: SYSTEM_TENANT_ID,
      display_name: 'System',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    await knex.schema.createTable('clients', (t) => {
      t.string('id', 36).primary();
      t.string('tenant_id', 36).notNullable().references('tenants.id');
      t.string('display_name', 200).notNullable();
      // Lower-cased name: unique per tenant, case-insensitively.
      t.string('display_name_key', 200).notNullable();
      t.boolean('is_active').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['tenant_id', 'display_name_key'], { indexName: 'clients_tenant_name' });
      t.index(['created_at', 'id'], 'clients_created_at_id');
    });
    await knex.schema.createTable('client_members', (t) => {
      t.string('client_id', 36).notNullable().references('clients.id').onDelete('CASCADE');
      t.string('user_id', 36).notNullable().references('users.id').onDelete('CASCADE');
      t.string('role', 32).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['client_id', 'user_id']);
      t.index(['user_id'], 'client_members_user');
    });
    await knex.schema.createTable('tenant_members', (t) => {
      t.string('tenant_id', 36).notNullable().references('tenants.id').onDelete('CASCADE');
      t.string('user_id', 36).notNullable().references('users.id').onDelete('CASCADE');
      t.string('role', 32).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['tenant_id', 'user_id']);
      t.index(['user_id'], 'tenant_members_user');
    });
  },
};
