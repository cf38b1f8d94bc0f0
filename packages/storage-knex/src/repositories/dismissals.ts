import type { DismissalRecord, DismissalsRepository } from '@margin/core/spec';
import { readTime } from '../dialect.js';
import { byCreatedAt, inOrder, keysetPage } from '../paging.js';
import { type Db, type Row, textOrNull } from '../rows.js';

const dismissalFromRow = (row: Row): DismissalRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  findingMessage: String(row.finding_message),
  filePath: textOrNull(row.file_path),
  label: textOrNull(row.label),
  createdAt: readTime(row.created_at),
  createdByUserId: textOrNull(row.created_by_user_id),
});

const NEWEST_FIRST = byCreatedAt<DismissalRecord>('desc');

export function knexDismissals(db: Db): DismissalsRepository {
  const table = () => db('dismissals');
  return {
    async insert(d) {
      await table().insert({
        id: d.id,
        client_id: d.clientId,
        finding_message: d.findingMessage,
        file_path: d.filePath,
        label: d.label,
        created_at: d.createdAt,
        created_by_user_id: d.createdByUserId,
      });
    },
    async list(clientId) {
      return (await inOrder(table().where({ client_id: clientId }), NEWEST_FIRST)).map(dismissalFromRow);
    },
    async listPage(clientId, page) {
      return keysetPage(table().where({ client_id: clientId }), NEWEST_FIRST, page, dismissalFromRow);
    },
    async remove(clientId, id) {
      return (await table().where({ id, client_id: clientId }).delete()) > 0;
    },
  };
}
