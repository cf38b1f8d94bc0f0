import type { ReviewerIdentitiesRepository, ReviewerIdentityRecord } from '@margin/core/spec';
import { readBool, readTime } from '../dialect.js';
import type { Db, Row } from '../rows.js';

const identityFromRow = (row: Row): ReviewerIdentityRecord => ({
  connectionId: String(row.connection_id),
  clientId: String(row.client_id),
  externalUserId: String(row.external_user_id),
  login: String(row.login),
  displayName: String(row.display_name),
  isBot: readBool(row.is_bot),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

export function knexReviewerIdentities(db: Db): ReviewerIdentitiesRepository {
  const table = () => db('reviewer_identities');
  return {
    async put(r) {
      // The original created_at survives a replacement: the merge leaves it out.
      await table()
        .insert({
          connection_id: r.connectionId,
          client_id: r.clientId,
          external_user_id: r.externalUserId,
          login: r.login,
          display_name: r.displayName,
          is_bot: r.isBot,
          created_at: r.createdAt,
          updated_at: r.updatedAt,
        })
        .onConflict('connection_id')
        .merge(['external_user_id', 'login', 'display_name', 'is_bot', 'updated_at']);
      const row = await table().where({ connection_id: r.connectionId }).first();
      return identityFromRow(row);
    },
    async findByConnection(connectionId) {
      const row = await table().where({ connection_id: connectionId }).first();
      return row && identityFromRow(row);
    },
  };
}
