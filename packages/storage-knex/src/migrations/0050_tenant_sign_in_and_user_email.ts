import type { Knex } from 'knex';
import type { Migration } from './migration.js';

const SYSTEM_TENANT_ID = '11111111-1111-1111-1111-111111111111';

/** The slug an existing tenant gets: its name made URL-safe, numbered while taken. */
function backfillSlug(displayName: string, taken: Set<string>): string {
  const base =
    displayName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 34) || 'tenant';
  const padded = base.length >= 2 ? base : `${base}-tenant`;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? padded : `${padded}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Tenants gain a unique slug (how people name them at sign-in), an active flag and a login policy;
 * users an optional email, unique case-insensitively through its lower-cased key.
 */
export const tenantSignInAndUserEmail: Migration = {
  name: '0050_tenant_sign_in_and_user_email',
  async up(knex: Knex) {
    await knex.schema.alterTable('tenants', (t) => {
      t.string('slug', 40);
      t.boolean('is_active').notNullable().defaultTo(true);
      t.string('login_policy', 20).notNullable().defaultTo('localAndSso');
    });
    const taken = new Set<string>(['system']);
    await knex('tenants').where({ id: SYSTEM_TENANT_ID }).update({ slug: 'system' });
    const others = await knex('tenants')
      .whereNot({ id: SYSTEM_TENANT_ID })
      .orderBy(['created_at', 'id'])
      .select('id', 'display_name');
    for (const row of others) {
      const slug = backfillSlug(String(row.display_name), taken);
      taken.add(slug);
      await knex('tenants').where({ id: row.id }).update({ slug });
    }
    await knex.schema.alterTable('tenants', (t) => {
      t.unique(['slug'], { indexName: 'tenants_slug' });
    });
    await knex.schema.alterTable('users', (t) => {
      t.string('email', 320);
      t.string('email_key', 320);
      t.unique(['email_key'], { indexName: 'users_email_key' });
    });
  },
};
