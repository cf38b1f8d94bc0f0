import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * The audit trail: one row per configuration change, read newest first per tenant (its
 * administrators) or across the installation (the platform administrator).
 */
export const auditTrail: Migration = {
  name: '0030_audit_trail',
  async up(knex: Knex) {
    await knex.schema.createTable('audit_entries', (t) => {
      t.string('id', 36).primary();
      t.timestamp('at', { useTz: true }).notNullable();
      t.string('tenant_id', 36);
      t.string('client_id', 36);
      t.string('actor_user_id', 36).notNullable();
      t.string('action', 100).notNullable();
      t.string('resource_type', 40).notNullable();
      t.string('resource_id', 200).notNullable();
      t.text('summary').notNullable();
      t.index(['tenant_id', 'at', 'id'], 'audit_entries_tenant_at');
      t.index(['at', 'id'], 'audit_entries_at');
    });
  },
};
