import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * A tenant's AI policy: which provider kinds and hosts its clients' AI connections may use (JSON
 * arrays; null: no limit of that sort). No row: the tenant is unrestricted.
 */
export const tenantAiPolicy: Migration = {
  name: '0040_tenant_ai_policy',
  async up(knex: Knex) {
    await knex.schema.createTable('tenant_ai_policies', (t) => {
      t.string('tenant_id', 36).primary().references('tenants.id').onDelete('CASCADE');
      t.jsonb('permitted_provider_kinds');
      t.jsonb('permitted_hosts');
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
};
