import type { IndexJobRecord, KnowledgeIndexJobsRepository } from '@margin/core/spec';
import { claimRows, type Dialect, readBool, readTime, readTimeOrNull } from '../dialect.js';
import type { Db, Row } from '../rows.js';
import { textOrNull } from '../rows.js';

const jobFromRow = (row: Row): IndexJobRecord => ({
  id: String(row.id),
  sourceId: String(row.source_id),
  clientId: String(row.client_id),
  branchName: String(row.branch_name),
  status: String(row.status) as IndexJobRecord['status'],
  rerunRequested: readBool(row.rerun_requested),
  leaseOwner: textOrNull(row.lease_owner),
  leaseExpiresAt: readTimeOrNull(row.lease_expires_at),
  attempt: Number(row.attempt),
  createdAt: readTime(row.created_at),
});

/** One row per (source, branch) while work is wanted; the branch state keeps the outcome. */
export function knexKnowledgeIndexJobs(db: Db, dialect: Dialect): KnowledgeIndexJobsRepository {
  const table = () => db('knowledge_index_jobs');
  return {
    async enqueue(job) {
      // Insert-or-nothing is one statement on both dialects: two hosts asking at once make one job.
      await table()
        .insert({
          id: job.id,
          source_id: job.sourceId,
          client_id: job.clientId,
          branch_name: job.branchName,
          status: 'queued',
          rerun_requested: false,
          lease_owner: null,
          lease_expires_at: null,
          attempt: 0,
          created_at: job.createdAt,
        })
        .onConflict(['source_id', 'branch_name'])
        .ignore();
      // A running job may already have read the old head: it runs once more when it ends.
      await table()
        .where({ source_id: job.sourceId, branch_name: job.branchName, status: 'running' })
        .update({ rerun_requested: true });
      const row = await table().where({ source_id: job.sourceId, branch_name: job.branchName }).first();
      return jobFromRow(row as Row);
    },
    async claim({ owner, capacity, now, leaseExpiresAt }) {
      if (capacity <= 0) return [];
      const rows = await claimRows(db, dialect, {
        table: 'knowledge_index_jobs',
        pick: `select id from knowledge_index_jobs
          where status = 'queued' or (status = 'running' and lease_expires_at < ?)
          order by created_at, id limit ?`,
        pickBindings: [now, capacity],
        set: `status = 'running', lease_owner = ?, lease_expires_at = ?, attempt = attempt + 1`,
        setBindings: [owner, leaseExpiresAt],
      });
      return rows.map(jobFromRow).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
    async renew(jobId, owner, leaseExpiresAt) {
      const n = await table()
        .where({ id: jobId, lease_owner: owner, status: 'running' })
        .update({ lease_expires_at: leaseExpiresAt });
      return n > 0;
    },
    async complete(jobId, owner) {
      const mine = table().where({ id: jobId, lease_owner: owner });
      const row = await mine.clone().first();
      if (!row) return;
      if (readBool(row.rerun_requested)) {
        await mine
          .clone()
          .update({ status: 'queued', rerun_requested: false, lease_owner: null, lease_expires_at: null });
      } else {
        await mine.clone().delete();
      }
    },
    async release(jobId, owner) {
      await table()
        .where({ id: jobId, lease_owner: owner })
        .update({ status: 'queued', lease_owner: null, lease_expires_at: null });
    },
    async listForSource(sourceId) {
      return (await table().where({ source_id: sourceId }).orderBy('created_at')).map(jobFromRow);
    },
  };
}
