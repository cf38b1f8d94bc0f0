import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/** The code-knowledge passages a remembered finding relied on (JSON array; null on rows from before). */
export const findingCitations: Migration = {
  name: '0121_finding_citations',
  async up(knex: Knex) {
    await knex.schema.alterTable('review_findings', (t) => {
      t.jsonb('citations');
    });
  },
};
