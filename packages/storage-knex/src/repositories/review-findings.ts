import type { ReviewFindingsRepository, StoredFindingRecord } from '@margin/core/spec';
import { type Dialect, readJson, readTime, writeJson } from '../dialect.js';
import { byCreatedAt, inOrder, keyset, keysetPage } from '../paging.js';
import { atomically, type Db, numberOrNull, type Row, textOrNull } from '../rows.js';

const findingToRow = (f: StoredFindingRecord): Row => ({
  id: f.id,
  client_id: f.clientId,
  pull_request_key: f.pullRequestKey,
  repository_id: f.repositoryId,
  pull_request_number: f.pullRequestNumber,
  fingerprint: f.fingerprint,
  loc_key: f.locKey,
  path: f.path,
  anchor_text: f.anchorText,
  enclosing_symbol: f.enclosingSymbol,
  identifiers: writeJson(f.identifiers),
  words: writeJson(f.words),
  category: f.category,
  severity: f.severity,
  title: f.title,
  message: f.message,
  start_line: f.startLine,
  end_line: f.endLine,
  side: f.side,
  state: f.state,
  first_seen_revision: f.firstSeenRevision,
  last_seen_revision: f.lastSeenRevision,
  resolved_at_revision: f.resolvedAtRevision,
  first_job_id: f.firstJobId,
  last_job_id: f.lastJobId,
  provider_thread_id: f.providerThreadId,
  marker: f.marker,
  reopen_count: f.reopenCount,
  citations: writeJson(f.citations ?? []),
  created_at: f.createdAt,
  updated_at: f.updatedAt,
});

const findingFromRow = (row: Row, dialect: Dialect): StoredFindingRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  pullRequestKey: String(row.pull_request_key),
  repositoryId: String(row.repository_id),
  pullRequestNumber: Number(row.pull_request_number),
  fingerprint: String(row.fingerprint),
  locKey: String(row.loc_key),
  path: String(row.path),
  anchorText: String(row.anchor_text),
  enclosingSymbol: String(row.enclosing_symbol),
  identifiers: readJson<string[]>(row.identifiers, dialect),
  words: readJson<string[]>(row.words, dialect),
  category: String(row.category),
  severity: String(row.severity),
  title: String(row.title),
  message: String(row.message),
  startLine: numberOrNull(row.start_line),
  endLine: numberOrNull(row.end_line),
  side: row.side as StoredFindingRecord['side'],
  state: row.state as StoredFindingRecord['state'],
  firstSeenRevision: String(row.first_seen_revision),
  lastSeenRevision: String(row.last_seen_revision),
  resolvedAtRevision: textOrNull(row.resolved_at_revision),
  firstJobId: String(row.first_job_id),
  lastJobId: String(row.last_job_id),
  providerThreadId: textOrNull(row.provider_thread_id),
  marker: textOrNull(row.marker),
  reopenCount: Number(row.reopen_count),
  citations:
    row.citations == null ? [] : readJson<NonNullable<StoredFindingRecord['citations']>>(row.citations, dialect),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

const RECENTLY_UPDATED = keyset<StoredFindingRecord>('updated_at', 'desc', (f) => ({ key: f.updatedAt, id: f.id }));

export function knexReviewFindings(db: Db, dialect: Dialect): ReviewFindingsRepository {
  const table = () => db('review_findings');
  return {
    async listForPullRequest(pullRequestKey) {
      const rows = await inOrder(table().where({ pull_request_key: pullRequestKey }), byCreatedAt());
      return rows.map((row) => findingFromRow(row, dialect));
    },
    async save(changes) {
      await atomically(db, async (trx) => {
        if (changes.inserted.length > 0) await trx('review_findings').insert(changes.inserted.map(findingToRow));
        for (const f of changes.updated) {
          const { id: _id, created_at: _created, ...row } = findingToRow(f);
          await trx('review_findings').where({ id: f.id }).update(row);
        }
      });
    },
    async list(clientId, filter, page) {
      const query = table().where({ client_id: clientId });
      if (filter.repositoryId) query.where({ repository_id: filter.repositoryId });
      if (filter.pullRequestNumber !== undefined) query.where({ pull_request_number: filter.pullRequestNumber });
      if (filter.state) query.where({ state: filter.state });
      return keysetPage(query, RECENTLY_UPDATED, page, (row) => findingFromRow(row, dialect));
    },
  };
}
