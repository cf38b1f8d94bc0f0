import {
  type BlockedPullRequestRecord,
  type BlockedPullRequestsRepository,
  type DismissalRecord,
  type DismissalsRepository,
  decodeCursor,
  type JobStatus,
  MarginError,
  type ProtocolEventRecord,
  type ProtocolPassRecord,
  type ProtocolRepository,
  type PublicationRecord,
  RECLAIM_EXHAUSTED,
  type ReviewFindingsRepository,
  type ReviewJobRecord,
  type ReviewJobsRepository,
  type ReviewPublicationsRepository,
  type StoredFindingRecord,
  toPage,
} from '@margin/core';
import type { Knex } from 'knex';
import { type Dialect, isUniqueViolation, readJson, readTime, readTimeOrNull, writeJson } from '../dialect.js';
import { keysetPage } from '../paging.js';

type Db = Knex | Knex.Transaction;
type Row = Record<string, unknown>;

const ACTIVE = ['queued', 'running'];
/** A job's client is active (one bound parameter: the dialect's `true`). */
const CLIENT_IS_ACTIVE = 'exists (select 1 from clients c where c.id = review_jobs.client_id and c.is_active = ?)';
const duplicate = () => MarginError.conflict('A review of this revision is already active.');

function jobFromRow(row: Row, dialect: Dialect): ReviewJobRecord {
  const json = <T>(v: unknown): T => readJson<T>(v, dialect);
  return {
    id: String(row.id),
    clientId: String(row.client_id),
    status: row.status as JobStatus,
    trigger: row.trigger as ReviewJobRecord['trigger'],
    provider: row.provider as ReviewJobRecord['provider'],
    hostBaseUrl: String(row.host_base_url),
    repository: json(row.repository),
    codeReview: json(row.code_review),
    reviewRevision: row.review_revision == null ? null : json(row.review_revision),
    pullRequestKey: String(row.pull_request_key),
    revisionKey: String(row.revision_key),
    options: json(row.options),
    attempt: Number(row.attempt),
    submittedByUserId: (row.submitted_by_user_id as string | null) ?? null,
    submittedAt: readTime(row.submitted_at),
    startedAt: readTimeOrNull(row.started_at),
    completedAt: readTimeOrNull(row.completed_at),
    updatedAt: readTime(row.updated_at),
    leaseOwner: (row.lease_owner as string | null) ?? null,
    leaseExpiresAt: readTimeOrNull(row.lease_expires_at),
    reclaimCount: Number(row.reclaim_count),
    progress: json(row.progress),
    result: row.result == null ? null : json(row.result),
    usage: row.usage == null ? null : json(row.usage),
    error: (row.error as string | null) ?? null,
  };
}

function jobToRow(job: ReviewJobRecord): Row {
  return {
    id: job.id,
    client_id: job.clientId,
    status: job.status,
    trigger: job.trigger,
    provider: job.provider,
    host_base_url: job.hostBaseUrl,
    repository_id: job.repository.externalRepositoryId,
    pull_request_number: job.codeReview.number,
    repository: writeJson(job.repository),
    code_review: writeJson(job.codeReview),
    review_revision: job.reviewRevision === null ? null : writeJson(job.reviewRevision),
    pull_request_key: job.pullRequestKey,
    revision_key: job.revisionKey,
    options: writeJson(job.options),
    attempt: job.attempt,
    submitted_by_user_id: job.submittedByUserId,
    submitted_at: job.submittedAt,
    started_at: job.startedAt,
    completed_at: job.completedAt,
    updated_at: job.updatedAt,
    lease_owner: job.leaseOwner,
    lease_expires_at: job.leaseExpiresAt,
    reclaim_count: job.reclaimCount,
    progress: writeJson(job.progress),
    result: job.result === null ? null : writeJson(job.result),
    usage: job.usage === null ? null : writeJson(job.usage),
    error: job.error,
  };
}

const TRANSITION_COLUMNS = {
  attempt: 'attempt',
  trigger: 'trigger',
  error: 'error',
  completedAt: 'completed_at',
  startedAt: 'started_at',
  updatedAt: 'updated_at',
  reclaimCount: 'reclaim_count',
} as const;

export function knexReviewJobs(db: Db, dialect: Dialect): ReviewJobsRepository {
  const jobs = () => db('review_jobs');
  const read = (row: Row | undefined) => (row ? jobFromRow(row, dialect) : undefined);
  const activeFlag = dialect === 'postgres' ? true : 1;

  return {
    async insert(job) {
      try {
        await jobs().insert(jobToRow(job));
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
    async findById(id) {
      // Raw SQL: the status read is the hottest query, and the builder costs more than the lookup.
      const result = await db.raw('select * from review_jobs where id = ?', [id]);
      return read(dialect === 'postgres' ? result.rows[0] : result[0]);
    },
    async findActiveByRevisionKey(revisionKey) {
      return read(await jobs().where({ revision_key: revisionKey }).whereIn('status', ACTIVE).first());
    },
    async findActiveByPullRequestKey(pullRequestKey) {
      const rows = await jobs().where({ pull_request_key: pullRequestKey }).whereIn('status', ACTIVE);
      return rows.map((row) => jobFromRow(row, dialect));
    },
    async countActive() {
      const result = await db.raw(
        `select count(*) as n from review_jobs where status = 'running' or (status = 'queued' and ${CLIENT_IS_ACTIVE})`,
        [activeFlag],
      );
      const row = (dialect === 'postgres' ? result.rows[0] : result[0]) as Row | undefined;
      return Number(row?.n ?? 0);
    },
    async findLastCompleted(pullRequestKey) {
      const row = await jobs()
        .where({ pull_request_key: pullRequestKey, status: 'completed' })
        .orderBy([
          { column: 'completed_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .first();
      return row ? jobFromRow(row, dialect) : undefined;
    },
    async hasFinishedRevision(revisionKey) {
      const row = await jobs()
        .where({ revision_key: revisionKey })
        .whereIn('status', ['completed', 'failed'])
        .first('id');
      return row !== undefined;
    },
    async list(clientId, filter, page) {
      const after = decodeCursor(page.cursor);
      const query = jobs()
        .where({ client_id: clientId })
        .orderBy([
          { column: 'submitted_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(page.limit + 1);
      if (filter.status) query.where({ status: filter.status });
      if (filter.repositoryId) query.where({ repository_id: filter.repositoryId });
      if (filter.pullRequestId !== undefined) query.where({ pull_request_number: filter.pullRequestId });
      if (after) {
        query.where((q) =>
          q
            .where('submitted_at', '<', after.key)
            .orWhere((q2) => q2.where('submitted_at', after.key).andWhere('id', '<', after.id)),
        );
      }
      const rows = (await query).map((row) => jobFromRow(row, dialect));
      return toPage(rows, page.limit, (j) => ({ key: j.submittedAt, id: j.id }));
    },
    async transition(id, from, to, patch) {
      const row: Row = { status: to };
      for (const [field, column] of Object.entries(TRANSITION_COLUMNS)) {
        const value = patch[field as keyof typeof TRANSITION_COLUMNS];
        if (value !== undefined) row[column] = value;
      }
      if (to !== 'running') Object.assign(row, { lease_owner: null, lease_expires_at: null, exclusive_slot: null });
      try {
        const n = await jobs()
          .where({ id })
          .whereIn('status', [...from])
          .update(row);
        return n === 1 ? read(await jobs().where({ id }).first()) : undefined;
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
    async claimNext({ owner, limit, leaseMs, now, exclusive }) {
      const leaseExpiresAt = new Date(Date.parse(now) + leaseMs).toISOString();
      const take = exclusive ? 1 : limit;
      const nothingRunning = exclusive ? "and not exists (select 1 from review_jobs r where r.status = 'running')" : '';
      // A deactivated client's queued jobs wait for it to be activated again.
      const lease = [owner, leaseExpiresAt, now, now, exclusive ? 1 : null];
      try {
        let rows: Row[];
        if (dialect === 'postgres') {
          // A materialized CTE picks the rows once: inside `IN (...)` PostgreSQL may re-run a
          // `LIMIT ... SKIP LOCKED` subquery and claim more rows than asked for. SKIP LOCKED lets
          // hosts claiming at once pass each other's rows instead of waiting on their locks.
          const result = await db.raw(
            `with candidates as materialized (
               select id from review_jobs where status = 'queued' and ${CLIENT_IS_ACTIVE} ${nothingRunning}
               order by submitted_at, id limit ? for update skip locked)
             update review_jobs set status = 'running', lease_owner = ?, lease_expires_at = ?, started_at = ?,
               updated_at = ?, exclusive_slot = ?
             from candidates where review_jobs.id = candidates.id and review_jobs.status = 'queued'
             returning review_jobs.*`,
            [activeFlag, take, ...lease],
          );
          rows = result.rows;
        } else {
          // SQLite has one writer: the statement runs alone.
          rows = await db.raw(
            `update review_jobs set status = 'running', lease_owner = ?, lease_expires_at = ?, started_at = ?,
               updated_at = ?, exclusive_slot = ?
             where id in (select id from review_jobs where status = 'queued' and ${CLIENT_IS_ACTIVE} ${nothingRunning}
               order by submitted_at, id limit ?)
             returning *`,
            [...lease, activeFlag, take],
          );
        }
        return rows.map((row) => jobFromRow(row, dialect));
      } catch (error) {
        // Another host won the single exclusive slot a moment earlier: nothing to claim now.
        if (exclusive && isUniqueViolation(error)) return [];
        throw error;
      }
    },
    async renewLease(id, owner, leaseExpiresAt, progress) {
      const row: Row = { lease_expires_at: leaseExpiresAt };
      if (progress) row.progress = writeJson(progress);
      return (await jobs().where({ id, lease_owner: owner, status: 'running' }).update(row)) === 1;
    },
    async finish(id, owner, finish) {
      const row: Row = {
        status: finish.status,
        completed_at: finish.at,
        updated_at: finish.at,
        lease_owner: null,
        lease_expires_at: null,
        exclusive_slot: null,
      };
      if (finish.result !== undefined) row.result = finish.result === null ? null : writeJson(finish.result);
      if (finish.usage !== undefined) row.usage = finish.usage === null ? null : writeJson(finish.usage);
      if (finish.error !== undefined) row.error = finish.error;
      if (finish.progress) row.progress = writeJson(finish.progress);
      return (await jobs().where({ id, lease_owner: owner, status: 'running' }).update(row)) === 1;
    },
    async release(id, owner, at) {
      const n = await jobs().where({ id, lease_owner: owner, status: 'running' }).update({
        status: 'queued',
        lease_owner: null,
        lease_expires_at: null,
        exclusive_slot: null,
        started_at: null,
        updated_at: at,
      });
      return n === 1;
    },
    async reclaimExpired(now, maxReclaims) {
      const expired = () => jobs().where({ status: 'running' }).where('lease_expires_at', '<', now);
      const cleared = { lease_owner: null, lease_expires_at: null, exclusive_slot: null, updated_at: now };
      const failed: Row[] = await expired()
        .where('reclaim_count', '>=', maxReclaims)
        .update({ ...cleared, status: 'failed', completed_at: now, error: RECLAIM_EXHAUSTED }, ['id']);
      const requeued: Row[] = await expired().update(
        { ...cleared, status: 'queued', started_at: null, reclaim_count: db.raw('reclaim_count + 1') },
        ['id'],
      );
      return { requeued: requeued.map((r) => String(r.id)), failed: failed.map((r) => String(r.id)) };
    },
  };
}

const blockFromRow = (row: Row): BlockedPullRequestRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  providerScopePath: String(row.provider_scope_path),
  providerProjectKey: String(row.provider_project_key),
  repositoryId: String(row.repository_id),
  pullRequestId: Number(row.pull_request_id),
  reason: String(row.reason),
  blockedByUserId: (row.blocked_by_user_id as string | null) ?? null,
  blockedAt: readTime(row.blocked_at),
});

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
      return keysetPage(
        table().where({ client_id: clientId }),
        { key: 'blocked_at', id: 'id', order: 'desc' },
        page,
        blockFromRow,
        (b) => ({ key: b.blockedAt, id: b.id }),
      );
    },
  };
}

const dismissalFromRow = (row: Row): DismissalRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  findingMessage: String(row.finding_message),
  filePath: (row.file_path as string | null) ?? null,
  label: (row.label as string | null) ?? null,
  createdAt: readTime(row.created_at),
  createdByUserId: (row.created_by_user_id as string | null) ?? null,
});

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
      const rows = await table()
        .where({ client_id: clientId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      return rows.map(dismissalFromRow);
    },
    async listPage(clientId, page) {
      return keysetPage(
        table().where({ client_id: clientId }),
        { key: 'created_at', id: 'id', order: 'desc' },
        page,
        dismissalFromRow,
        (d) => ({ key: d.createdAt, id: d.id }),
      );
    },
    async remove(clientId, id) {
      return (await table().where({ id, client_id: clientId }).delete()) > 0;
    },
  };
}

export function knexProtocol(db: Db, dialect: Dialect): ProtocolRepository {
  const passFromRow = (row: Row): ProtocolPassRecord => ({
    id: String(row.id),
    jobId: String(row.job_id),
    attempt: Number(row.attempt),
    stage: String(row.stage),
    label: String(row.label),
    filePath: (row.file_path as string | null) ?? null,
    startedAt: readTime(row.started_at),
    completedAt: readTimeOrNull(row.completed_at),
    outcome: row.outcome as ProtocolPassRecord['outcome'],
    inputTokens: Number(row.input_tokens),
    cachedInputTokens: Number(row.cached_input_tokens),
    outputTokens: Number(row.output_tokens),
  });
  const eventFromRow = (row: Row, includeBody: boolean): ProtocolEventRecord => ({
    id: String(row.id),
    passId: String(row.pass_id),
    jobId: String(row.job_id),
    sequence: Number(row.sequence),
    kind: String(row.kind),
    name: String(row.name),
    eventCategory: row.event_category as ProtocolEventRecord['eventCategory'],
    occurredAt: readTime(row.occurred_at),
    durationMs: row.duration_ms == null ? null : Number(row.duration_ms),
    inputTokens: row.input_tokens == null ? null : Number(row.input_tokens),
    outputTokens: row.output_tokens == null ? null : Number(row.output_tokens),
    body: includeBody && row.body != null ? readJson(row.body, dialect) : null,
  });
  return {
    async insertPass(p) {
      await db('protocol_passes').insert({
        id: p.id,
        job_id: p.jobId,
        attempt: p.attempt,
        stage: p.stage,
        label: p.label,
        file_path: p.filePath,
        started_at: p.startedAt,
        completed_at: p.completedAt,
        outcome: p.outcome,
        input_tokens: p.inputTokens,
        cached_input_tokens: p.cachedInputTokens,
        output_tokens: p.outputTokens,
      });
    },
    async completePass(id, patch) {
      await db('protocol_passes').where({ id }).update({
        completed_at: patch.completedAt,
        outcome: patch.outcome,
        input_tokens: patch.inputTokens,
        cached_input_tokens: patch.cachedInputTokens,
        output_tokens: patch.outputTokens,
      });
    },
    async insertEvents(events) {
      if (events.length === 0) return;
      // Batches stay well under SQLite's bound-parameter limit.
      for (let i = 0; i < events.length; i += 50) {
        await db('protocol_events').insert(
          events.slice(i, i + 50).map((e) => ({
            id: e.id,
            pass_id: e.passId,
            job_id: e.jobId,
            sequence: e.sequence,
            kind: e.kind,
            name: e.name,
            event_category: e.eventCategory,
            occurred_at: e.occurredAt,
            duration_ms: e.durationMs,
            input_tokens: e.inputTokens,
            output_tokens: e.outputTokens,
            body: e.body === null ? null : writeJson(e.body),
          })),
        );
      }
    },
    async read(jobId, { eventCategory, includeBodies, page }) {
      const passes = await keysetPage(
        db('protocol_passes').where({ job_id: jobId }),
        { key: 'started_at', id: 'id', order: 'asc' },
        page,
        passFromRow,
        (p) => ({ key: p.startedAt, id: p.id }),
      );
      if (passes.items.length === 0) return { items: [], nextCursor: null };
      const columns = includeBodies
        ? ['*']
        : [
            'id',
            'pass_id',
            'job_id',
            'sequence',
            'kind',
            'name',
            'event_category',
            'occurred_at',
            'duration_ms',
            'input_tokens',
            'output_tokens',
          ];
      const eventsQuery = db('protocol_events')
        .where({ job_id: jobId })
        .whereIn(
          'pass_id',
          passes.items.map((p) => p.id),
        )
        .orderBy('sequence')
        .select(columns);
      if (eventCategory) eventsQuery.where({ event_category: eventCategory });
      const byPass = new Map<string, ProtocolEventRecord[]>();
      for (const row of await eventsQuery) {
        const event = eventFromRow(row, includeBodies);
        const list = byPass.get(event.passId) ?? [];
        list.push(event);
        byPass.set(event.passId, list);
      }
      return {
        items: passes.items.map((p) => ({ ...p, events: byPass.get(p.id) ?? [] })),
        nextCursor: passes.nextCursor,
      };
    },
  };
}

const publicationFromRow = (row: Row): PublicationRecord => ({
  id: row.id as string,
  clientId: row.client_id as string,
  pullRequestKey: row.pull_request_key as string,
  marker: row.marker as string,
  kind: row.kind as PublicationRecord['kind'],
  fingerprint: (row.fingerprint as string | null) ?? null,
  jobId: row.job_id as string,
  state: row.state as PublicationRecord['state'],
  providerThreadId: (row.provider_thread_id as string | null) ?? null,
  providerCommentId: (row.provider_comment_id as string | null) ?? null,
  error: (row.error as string | null) ?? null,
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

export function knexReviewPublications(db: Db): ReviewPublicationsRepository {
  const table = () => db('review_publications');
  return {
    async listForPullRequest(pullRequestKey) {
      const rows = await table()
        .where({ pull_request_key: pullRequestKey })
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]);
      return rows.map(publicationFromRow);
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
      const row: Row = {};
      if (patch.state !== undefined) row.state = patch.state;
      if (patch.providerThreadId !== undefined) row.provider_thread_id = patch.providerThreadId;
      if (patch.providerCommentId !== undefined) row.provider_comment_id = patch.providerCommentId;
      if (patch.error !== undefined) row.error = patch.error;
      if (patch.updatedAt !== undefined) row.updated_at = patch.updatedAt;
      if (Object.keys(row).length > 0) await table().where({ pull_request_key: pullRequestKey, marker }).update(row);
    },
  };
}

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
  created_at: f.createdAt,
  updated_at: f.updatedAt,
});

const findingFromRow = (row: Row, dialect: Dialect): StoredFindingRecord => ({
  id: row.id as string,
  clientId: row.client_id as string,
  pullRequestKey: row.pull_request_key as string,
  repositoryId: row.repository_id as string,
  pullRequestNumber: Number(row.pull_request_number),
  fingerprint: row.fingerprint as string,
  locKey: row.loc_key as string,
  path: row.path as string,
  anchorText: row.anchor_text as string,
  enclosingSymbol: row.enclosing_symbol as string,
  identifiers: readJson<string[]>(row.identifiers, dialect),
  words: readJson<string[]>(row.words, dialect),
  category: row.category as string,
  severity: row.severity as string,
  title: row.title as string,
  message: row.message as string,
  startLine: row.start_line === null ? null : Number(row.start_line),
  endLine: row.end_line === null ? null : Number(row.end_line),
  side: row.side as 'new' | 'old',
  state: row.state as StoredFindingRecord['state'],
  firstSeenRevision: row.first_seen_revision as string,
  lastSeenRevision: row.last_seen_revision as string,
  resolvedAtRevision: (row.resolved_at_revision as string | null) ?? null,
  firstJobId: row.first_job_id as string,
  lastJobId: row.last_job_id as string,
  providerThreadId: (row.provider_thread_id as string | null) ?? null,
  marker: (row.marker as string | null) ?? null,
  reopenCount: Number(row.reopen_count),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

export function knexReviewFindings(db: Db, dialect: Dialect): ReviewFindingsRepository {
  const table = () => db('review_findings');
  return {
    async listForPullRequest(pullRequestKey) {
      const rows = await table()
        .where({ pull_request_key: pullRequestKey })
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]);
      return rows.map((row) => findingFromRow(row, dialect));
    },
    async save(changes) {
      const write = async (trx: Db) => {
        if (changes.inserted.length > 0) await trx('review_findings').insert(changes.inserted.map(findingToRow));
        for (const f of changes.updated) {
          const { id: _id, created_at: _created, ...row } = findingToRow(f);
          await trx('review_findings').where({ id: f.id }).update(row);
        }
      };
      // Inside a storage transaction already, or a short one of its own.
      if ('isTransaction' in db && db.isTransaction) await write(db);
      else await (db as Knex).transaction(write);
    },
    async list(clientId, filter, page) {
      const after = decodeCursor(page.cursor);
      const query = table()
        .where({ client_id: clientId })
        .orderBy([
          { column: 'updated_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(page.limit + 1);
      if (filter.repositoryId) query.where({ repository_id: filter.repositoryId });
      if (filter.pullRequestNumber !== undefined) query.where({ pull_request_number: filter.pullRequestNumber });
      if (filter.state) query.where({ state: filter.state });
      if (after) {
        query.where((q) =>
          q
            .where('updated_at', '<', after.key)
            .orWhere((q2) => q2.where('updated_at', after.key).andWhere('id', '<', after.id)),
        );
      }
      const rows = (await query).map((row) => findingFromRow(row, dialect));
      return toPage(rows, page.limit, (f) => ({ key: f.updatedAt, id: f.id }));
    },
  };
}
