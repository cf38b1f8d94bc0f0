import type { Knex } from 'knex';
import type { Migration } from './migration.js';

export const usersAndSettings: Migration = {
  name: '0001_users_and_settings',
  async up(knex: Knex) {
    await knex.schema.createTable('users', (t) => {
      t.string('id', 36).primary();
      t.string('username', 200).notNullable();
      // Lower-cased username: uniqueness and lookups are case-insensitive on both dialects.
      t.string('username_key', 200).notNullable().unique();
      t.string('display_name', 200).notNullable();
      t.text('password_hash');
      t.string('global_role', 32).notNullable();
      t.boolean('is_active').notNullable();
      t.integer('failed_login_count').notNullable().defaultTo(0);
      t.integer('lockout_count').notNullable().defaultTo(0);
      t.timestamp('locked_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['created_at', 'id'], 'users_created_at_id');
      t.index(['global_role', 'is_active'], 'users_global_role_active');
    });
    await knex.schema.createTable('settings', (t) => {
      t.string('key', 200).primary();
      t.jsonb('value').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
};
