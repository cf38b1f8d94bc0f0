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
  const where = (clientId: string, repositoryId: string, pullRequestId: number) => ({
    client_id: clientId,
    repository_id: repositoryId,
    pull_request_id: pullRequestId,
  });
  return {
    async put(b) {
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
      return blockFromRow(
        await table()
          .where(where(b.clientId, b.repositoryId, b.pullRequestId))
          .first(),
      );
    },
    async find(clientId, repositoryId, pullRequestId) {
      const row = await table()
        .where(where(clientId, repositoryId, pullRequestId))
        .first();
      return row && blockFromRow(row);
    },
    async remove(clientId, repositoryId, pullRequestId) {
      return (
        (await table()
          .where(where(clientId, repositoryId, pullRequestId))
          .delete()) > 0
      );
    },
    async list(clientId, page) {
      return keysetPage(table().where({ client_id: clientId }), NEWEST_BLOCKED, page, blockFromRow);
    },
  };
}
