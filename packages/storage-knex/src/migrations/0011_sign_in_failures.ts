import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * Sign-in lockout moves from the user row to (username, source address) pairs, plus one `*` row per
 * username counting its failures across addresses. Usernames are keyed as typed, so unknown ones are
 * counted like real ones. The users' old lockout columns are no longer read or written.
 */
export const signInFailures: Migration = {
  name: '0011_sign_in_failures',
  async up(knex: Knex) {
    await knex.schema.createTable('sign_in_failures', (t) => {
      t.string('username_key', 200).notNullable();
      t.string('source', 64).notNullable();
      t.integer('failures').notNullable();
      t.integer('lockouts').notNullable();
      t.timestamp('locked_until', { useTz: true });
      t.timestamp('last_failure_at', { useTz: true }).notNullable();
      t.primary(['username_key', 'source']);
      t.index(['last_failure_at'], 'sign_in_failures_last_failure');
    });
  },
};
