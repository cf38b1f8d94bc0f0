import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/** A client's spend caps (US$, null: none) and the start of its accounting period (set by a reset). */
export const clientBudgets: Migration = {
  name: '0021_client_budgets',
  async up(knex: Knex) {
    await knex.schema.createTable('client_budgets', (t) => {
      t.string('client_id', 36).primary().references('clients.id').onDelete('CASCADE');
      for (const cap of [
        'monthly_soft_cap_usd',
        'monthly_hard_cap_usd',
        'pull_request_soft_cap_usd',
        'pull_request_hard_cap_usd',
        'increment_soft_cap_usd',
        'increment_hard_cap_usd',
      ]) {
        t.double(cap);
      }
      t.timestamp('period_started_at', { useTz: true });
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
};
