import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/** What running reviews have claimed and spent, so every host checks a shared budget against it. */
export const inFlightSpend: Migration = {
  name: '0090_in_flight_spend',
  async up(knex: Knex) {
    await knex.schema.createTable('in_flight_spend', (t) => {
      t.string('job_id', 36).primary().references('review_jobs.id').onDelete('CASCADE');
      t.string('client_id', 36).notNullable();
      t.string('pull_request_key', 1600).notNullable();
      t.bigInteger('reserved_micro_usd').notNullable();
      t.bigInteger('spent_micro_usd').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['client_id', 'pull_request_key'], 'in_flight_spend_client_pull_request');
    });
  },
};
