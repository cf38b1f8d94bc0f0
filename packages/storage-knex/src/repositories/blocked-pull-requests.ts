import type { BlockedPullRequestRecord, BlockedPullRequestsRepository } from '@margin/core/spec';
import { readTime } from '../dialect.js';
import { keyset, keysetPage } from '../paging.js';
import { type Db, type Row, textOrNull } from '../rows.js';

const blockFromRow = (row: Row): BlockedPullRequestRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  providerScopePath: String(row.provider_scope_path),
  providerProjectKey: String(row.provider_project_key),
  repositoryId: String(row.repository_id),
  pullRequestId: Number(row.pull_request_id),
  reason: String(row.reason),
  blockedByUserId: textOrNull(row.blocked_by_user_id),
  blockedAt: readTime(row.blocked_at),
});

const NEWEST_BLOCKED = keyset<BlockedPullRequestRecord>('blocked_at', 'desc', (b) => ({ key: b.blockedAt, id: b.id }));

export function knexBlockedPullRequests(db: Db): BlockedPullRequestsRepository {
  const table = () => db('blocked_pull_requests');
  // Repository ids that differ only in case name the same repository. The unique index is on the id
  // as written, so `put` looks for another spelling before inserting.
  const matching = (clientId: string, repositoryId: string, pullRequestId: number) =>
    table()
      .where({ client_id: clientId, pull_request_id: pullRequestId })
      .whereRaw('lower(repository_id) = ?', [repositoryId.toLowerCase()]);
  return {
    async put(b) {
      const existing = await matching(b.clientId, b.repositoryId, b.pullRequestId).first();
      if (existing) return blockFromRow(existing);
      await table()
        .insert({
          id: b.id,
          client_id: b.clientId,
          provider_scope_path: b.providerScopePath,
          provider_project_key: b.providerProjectKey,
          repository_id: b.repositoryId,
          pull_request_id: b.pullRequestId,
          reason: b.reason,
          blocked_by_user_id: b.blockedByUserId,
          blocked_at: b.blockedAt,
        })
        .onConflict(['client_id', 'repository_id', 'pull_request_id'])
        .ignore();
      return blockFromRow(await matching(b.clientId, b.repositoryId, b.pullRequestId).orderBy('blocked_at').first());
    },
    async find(clientId, repositoryId, pullRequestId) {
      const row = await matching(clientId, repositoryId, pullRequestId).first();
      return row && blockFromRow(row);
    },
    async remove(clientId, repositoryId, pullRequestId) {
      return (await matching(clientId, repositoryId, pullRequestId).delete()) > 0;
    },
    async list(clientId, page) {
      return keysetPage(table().where({ client_id: clientId }), NEWEST_BLOCKED, page, blockFromRow);
    },
  };
}
