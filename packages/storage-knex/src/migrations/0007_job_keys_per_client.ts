import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * Job keys name the client first (core's `pullRequestKey`), so two clients set up on the same pull
 * request no longer hold up each other's reviews. Existing keys get the same prefix, which keeps
 * the one-active-job-per-revision index valid while it is rewritten.
 */
export const jobKeysPerClient: Migration = {
  name: '0007_job_keys_per_client',
  async up(knex: Knex) {
    await knex('review_jobs').update({
      pull_request_key: knex.raw(`client_id || '|' || pull_request_key`),
      revision_key: knex.raw(`client_id || '|' || revision_key`),
    });
  },
};
