import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/** Blocked pull requests and members are listed a page at a time, in (time, id) order per owner. */
export const listIndexes: Migration = {
  name: '0013_list_indexes',
  async up(knex: Knex) {
    await knex.schema.alterTable('blocked_pull_requests', (t) => {
      t.index(['client_id', 'blocked_at', 'id'], 'blocked_pull_requests_client_blocked');
    });
    await knex.schema.alterTable('client_members', (t) => {
      t.index(['client_id', 'created_at', 'user_id'], 'client_members_client_created');
    });
    await knex.schema.alterTable('tenant_members', (t) => {
      t.index(['tenant_id', 'created_at', 'user_id'], 'tenant_members_tenant_created');
    });
  },
};
