import type { ThreadMemoriesRepository, ThreadMemoryRecord } from '@margin/core/spec';
import { type Dialect, readJsonOrNull, readTime, readTimeOrNull, writeJsonOrNull } from '../dialect.js';
import { byCreatedAt, inOrder, keysetPage } from '../paging.js';
import { type Db, numberOrNull, type Row, textOrNull } from '../rows.js';

const memoryToRow = (m: ThreadMemoryRecord): Row => ({
  id: m.id,
  client_id: m.clientId,
  thread_key: m.threadKey,
  source: m.source,
  intent: m.intent,
  file_path: m.filePath,
  summary: m.summary,
  finding_fingerprint: m.findingFingerprint,
  provider_thread_id: m.providerThreadId,
  repository_id: m.repositoryId,
  pull_request_id: m.pullRequestId,
  embedding: writeJsonOrNull(m.embedding),
  created_at: m.createdAt,
  created_by: m.createdBy,
  forgotten_at: m.forgottenAt,
});

const memoryFromRow = (row: Row, dialect: Dialect): ThreadMemoryRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  threadKey: String(row.thread_key),
  source: row.source as ThreadMemoryRecord['source'],
  intent: row.intent as ThreadMemoryRecord['intent'],
  filePath: textOrNull(row.file_path),
  summary: String(row.summary),
  findingFingerprint: textOrNull(row.finding_fingerprint),
  providerThreadId: textOrNull(row.provider_thread_id),
  repositoryId: textOrNull(row.repository_id),
  pullRequestId: numberOrNull(row.pull_request_id),
  embedding: readJsonOrNull<number[]>(row.embedding, dialect),
  createdAt: readTime(row.created_at),
  createdBy: textOrNull(row.created_by),
  forgottenAt: readTimeOrNull(row.forgotten_at),
});

const NEWEST_FIRST = byCreatedAt<ThreadMemoryRecord>('desc');

export function knexThreadMemories(db: Db, dialect: Dialect): ThreadMemoriesRepository {
  const table = () => db('thread_memories');
  const fromRow = (row: Row) => memoryFromRow(row, dialect);
  return {
    async upsert(m) {
      const { id: _id, client_id: _client, thread_key: _key, ...changes } = memoryToRow(m);
      // One record per thread: a second decision on the same thread replaces the first, keeping its id.
      await table()
        .insert(memoryToRow(m))
        .onConflict(['client_id', 'thread_key'])
        .merge(changes as Record<string, never>);
      const row = (await table().where({ client_id: m.clientId, thread_key: m.threadKey }).first()) as Row;
      return fromRow(row);
    },
    async listForRepository(clientId, repositoryId) {
      const rows = (await inOrder(
        table()
          .where({ client_id: clientId })
          .andWhere((q) => q.where({ repository_id: repositoryId }).orWhereNull('repository_id')),
        NEWEST_FIRST,
      )) as Row[];
      return rows.map(fromRow);
    },
    async listPage(clientId, filter, page) {
      const query = table().where({ client_id: clientId }).whereNull('forgotten_at');
      if (filter.filePath) query.andWhere({ file_path: filter.filePath });
      if (filter.source) query.andWhere({ source: filter.source });
      return keysetPage(query, NEWEST_FIRST, page, fromRow);
    },
    async find(clientId, id) {
      const row = (await table().where({ id, client_id: clientId }).whereNull('forgotten_at').first()) as
        | Row
        | undefined;
      return row ? fromRow(row) : undefined;
    },
    async markForgotten(clientId, id, at) {
      return (
        (await table().where({ id, client_id: clientId }).whereNull('forgotten_at').update({ forgotten_at: at })) > 0
      );
    },
    async remove(clientId, id) {
      return (await table().where({ id, client_id: clientId }).delete()) > 0;
    },
    async removeByThreadKey(clientId, threadKey) {
      return (await table().where({ client_id: clientId, thread_key: threadKey }).delete()) > 0;
    },
  };
}
