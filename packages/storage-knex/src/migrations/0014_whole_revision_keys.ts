import type { Knex } from 'knex';
import type { Migration } from './migration.js';

const BATCH = 500;

/**
 * Revision keys name the whole revision: the provider's revision id joins head and base (core's
 * `revisionKey`). Existing jobs that carry one get it appended, so finished revisions still count
 * as reviewed for the automatic triggers and active ones still block their duplicates. Appending
 * keeps keys distinct, so the one-active-job-per-revision index holds throughout.
 */
export const wholeRevisionKeys: Migration = {
  name: '0014_whole_revision_keys',
  async up(knex: Knex) {
    let after = '';
    for (;;) {
      const rows = (await knex('review_jobs')
        .select('id', 'revision_key', 'review_revision')
        .whereNotNull('review_revision')
        .andWhere('id', '>', after)
        .orderBy('id')
        .limit(BATCH)) as Array<{ id: string; revision_key: string; review_revision: unknown }>;
      for (const row of rows) {
        // jsonb comes back parsed on PostgreSQL, as text on SQLite.
        const revision = (
          typeof row.review_revision === 'string' ? JSON.parse(row.review_revision) : row.review_revision
        ) as { providerRevisionId?: unknown } | null;
        const id = revision?.providerRevisionId;
        if (typeof id === 'string' && id !== '' && !row.revision_key.endsWith(`:${id}`)) {
          await knex('review_jobs')
            .where({ id: row.id })
            .update({ revision_key: `${row.revision_key}:${id}` });
        }
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]?.id ?? after;
    }
  },
};
