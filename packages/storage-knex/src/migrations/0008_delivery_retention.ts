import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/** Delivery history is pruned by age across all configurations: oldest first by `received_at`. */
export const deliveryRetention: Migration = {
  name: '0008_delivery_retention',
  async up(knex: Knex) {
    await knex.schema.alterTable('webhook_deliveries', (t) => {
      t.index(['received_at'], 'webhook_deliveries_received');
    });
  },
};
