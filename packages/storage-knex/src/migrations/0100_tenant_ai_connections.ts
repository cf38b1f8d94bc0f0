import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * AI connections owned by a tenant instead of a client: `client_id` becomes nullable and
 * `owner_tenant_id` names the owning tenant (exactly one of the two is set). Names stay unique per
 * owner, and a tenant's profiles are listed by their own index, as a client's are.
 *
 * SQLite cannot drop a NOT NULL in place: the table is rebuilt, and dropping the old copy with
 * foreign keys on would cascade to the models, bindings and logical models pointing at it. So
 * the migration runs outside the migrator's transaction, turns foreign keys off on the (only)
 * connection, rebuilds in a transaction of its own, and checks the keys before committing.
 */
export const tenantAiConnections: Migration = {
  name: '0100_tenant_ai_connections',
  transaction: false,
  async up(knex: Knex) {
    if (knex.client.config.client === 'pg') {
      await knex.transaction(async (trx) => {
        await trx.schema.alterTable('ai_connections', (t) => {
          t.setNullable('client_id');
          t.string('owner_tenant_id', 36).references('tenants.id').onDelete('CASCADE');
        });
        await addIndexes(trx);
      });
      return;
    }
    await knex.raw('PRAGMA foreign_keys = OFF');
    try {
      await knex.transaction(async (trx) => {
        await trx.schema.alterTable('ai_connections', (t) => {
          t.string('owner_tenant_id', 36).references('tenants.id').onDelete('CASCADE');
        });
        await trx.schema.alterTable('ai_connections', (t) => t.setNullable('client_id'));
        await addIndexes(trx);
        const violations = (await trx.raw('PRAGMA foreign_key_check')) as unknown[];
        if (violations.length > 0) throw new Error('0100: the rebuilt ai_connections table breaks a foreign key.');
      });
    } finally {
      await knex.raw('PRAGMA foreign_keys = ON');
    }
  },
};

async function addIndexes(trx: Knex.Transaction): Promise<void> {
  await trx.schema.alterTable('ai_connections', (t) => {
    t.unique(['owner_tenant_id', 'display_name_key'], { indexName: 'ai_connections_tenant_name' });
    t.index(['owner_tenant_id', 'created_at', 'id'], 'ai_connections_tenant_created');
  });
}
