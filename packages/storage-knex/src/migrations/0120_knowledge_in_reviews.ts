import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * Knowledge in reviews: a crawl or review that sees a branch head looks up the client's sources of
 * that repository (`knowledge_sources_client_repository`), so it never reads all of a client's sources.
 */
export const knowledgeInReviews: Migration = {
  name: '0120_knowledge_in_reviews',
  async up(knex: Knex) {
    await knex.schema.alterTable('knowledge_sources', (t) => {
      t.index(['client_id', 'source_key'], 'knowledge_sources_client_repository');
    });
  },
};
