import type { PublicationRecord, ReviewPublicationsRepository } from '@margin/core/spec';
import { readTime } from '../dialect.js';
import { byCreatedAt, inOrder } from '../paging.js';
import { columnsOf, type Db, type Row, textOrNull } from '../rows.js';

const publicationFromRow = (row: Row): PublicationRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  pullRequestKey: String(row.pull_request_key),
  marker: String(row.marker),
  kind: row.kind as PublicationRecord['kind'],
  fingerprint: textOrNull(row.fingerprint),
  jobId: String(row.job_id),
  state: row.state as PublicationRecord['state'],
  providerThreadId: textOrNull(row.provider_thread_id),
  providerCommentId: textOrNull(row.provider_comment_id),
  error: textOrNull(row.error),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

const PUBLICATION_COLUMNS = {
  state: 'state',
  providerThreadId: 'provider_thread_id',
  providerCommentId: 'provider_comment_id',
  error: 'error',
  updatedAt: 'updated_at',
} as const;

export function knexReviewPublications(db: Db): ReviewPublicationsRepository {
  const table = () => db('review_publications');
  return {
    async listForPullRequest(pullRequestKey) {
      return (await inOrder(table().where({ pull_request_key: pullRequestKey }), byCreatedAt())).map(
        publicationFromRow,
      );
    },
    async reserve(records) {
      if (records.length === 0) return;
      // One statement, so a batch reserves atomically; a marker already there keeps its row.
      await table()
        .insert(
          records.map((r) => ({
            id: r.id,
            client_id: r.clientId,
            pull_request_key: r.pullRequestKey,
            marker: r.marker,
            kind: r.kind,
            fingerprint: r.fingerprint,
            job_id: r.jobId,
            state: r.state,
            provider_thread_id: r.providerThreadId,
            provider_comment_id: r.providerCommentId,
            error: r.error,
            created_at: r.createdAt,
            updated_at: r.updatedAt,
          })),
        )
        .onConflict(['pull_request_key', 'marker'])
        .ignore();
      // A failed post is the next job's to try again.
      const first = records[0] as PublicationRecord;
      await table()
        .where({ pull_request_key: first.pullRequestKey, state: 'failed' })
        .whereIn(
          'marker',
          records.map((r) => r.marker),
        )
        .update({ state: 'pending', job_id: first.jobId, error: null, updated_at: first.updatedAt });
    },
    async update(pullRequestKey, marker, patch) {
      const row = columnsOf(patch, PUBLICATION_COLUMNS);
      if (Object.keys(row).length > 0) await table().where({ pull_request_key: pullRequestKey, marker }).update(row);
    },
  };
}
