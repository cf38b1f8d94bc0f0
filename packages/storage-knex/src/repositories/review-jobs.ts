import {
  type JobStatus,
  MarginError,
  RAN_ITS_COURSE,
  RECLAIM_EXHAUSTED,
  type ReclaimOutcome,
  type ReviewJobRecord,
  type ReviewJobsRepository,
} from '@margin/core/spec';
import {
  bindBool,
  claimRows,
  type Dialect,
  isUniqueViolation,
  readJson,
  readJsonOrNull,
  readTime,
  readTimeOrNull,
  rowsOf,
  writeJson,
  writeJsonOrNull,
} from '../dialect.js';
import { inOrder, keyset, keysetPage } from '../paging.js';
import { atomically, columnsOf, conflictOnDuplicate, type Db, type Row, textOrNull } from '../rows.js';

const ACTIVE = ['queued', 'running'];

/** A job's client and its tenant are active (two bound parameters: the dialect's `true`, twice). */
const CLIENT_IS_ACTIVE = `exists (select 1 from clients c join tenants t on t.id = c.tenant_id
  where c.id = review_jobs.client_id and c.is_active = ? and t.is_active = ?)`;

const duplicate = () => MarginError.conflict('A review of this revision is already active.');

const NEWEST_SUBMITTED = keyset<ReviewJobRecord>('submitted_at', 'desc', (j) => ({ key: j.submittedAt, id: j.id }));

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
    reviewRevision: readJsonOrNull(row.review_revision, dialect),
    pullRequestKey: String(row.pull_request_key),
    revisionKey: String(row.revision_key),
    options: json(row.options),
    attempt: Number(row.attempt),
    submittedByUserId: textOrNull(row.submitted_by_user_id),
    submittedAt: readTime(row.submitted_at),
    startedAt: readTimeOrNull(row.started_at),
    completedAt: readTimeOrNull(row.completed_at),
    updatedAt: readTime(row.updated_at),
    leaseOwner: textOrNull(row.lease_owner),
    leaseExpiresAt: readTimeOrNull(row.lease_expires_at),
    reclaimCount: Number(row.reclaim_count),
    progress: json(row.progress),
    result: readJsonOrNull(row.result, dialect),
    usage: readJsonOrNull(row.usage, dialect),
    error: textOrNull(row.error),
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
    review_revision: writeJsonOrNull(job.reviewRevision),
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
    result: writeJsonOrNull(job.result),
    usage: writeJsonOrNull(job.usage),
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
  const activeFlag = bindBool(true, dialect);

  return {
    async insert(job) {
      await conflictOnDuplicate(jobs().insert(jobToRow(job)), duplicate);
    },
    async findById(id) {
      // Raw SQL: the status read is the hottest query, and the builder costs more than the lookup.
      const result = await db.raw('select * from review_jobs where id = ?', [id]);
      return read(rowsOf(result, dialect)[0]);
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
        [activeFlag, activeFlag],
      );
      const row = rowsOf(result, dialect)[0];
      return Number(row?.n ?? 0);
    },
    async findLastCompleted(pullRequestKey) {
      const completed = jobs().where({ pull_request_key: pullRequestKey, status: 'completed' });
      const row = await inOrder(completed, { key: 'completed_at', id: 'id', direction: 'desc' }).first();
      return row ? jobFromRow(row, dialect) : undefined;
    },
    async hasFinishedRevision(revisionKey) {
      const row = await jobs().where({ revision_key: revisionKey }).whereIn('status', RAN_ITS_COURSE).first('id');
      return row !== undefined;
    },
    async list(clientId, filter, page) {
      const query = jobs().where({ client_id: clientId });
      if (filter.status) query.where({ status: filter.status });
      if (filter.repositoryId) query.where({ repository_id: filter.repositoryId });
      if (filter.pullRequestId !== undefined) query.where({ pull_request_number: filter.pullRequestId });
      return keysetPage(query, NEWEST_SUBMITTED, page, (row) => jobFromRow(row, dialect));
    },
    async transition(id, from, to, patch) {
      const row: Row = { status: to, ...columnsOf(patch, TRANSITION_COLUMNS) };
      if (to !== 'running') Object.assign(row, { lease_owner: null, lease_expires_at: null, exclusive_slot: null });
      const n = await conflictOnDuplicate(
        jobs()
          .where({ id })
          .whereIn('status', [...from])
          .update(row),
        duplicate,
      );
      return n === 1 ? read(await jobs().where({ id }).first()) : undefined;
    },
    async claimNext({ owner, limit, leaseMs, now, exclusive }) {
      const leaseExpiresAt = new Date(Date.parse(now) + leaseMs).toISOString();
      const take = exclusive ? 1 : limit;
      const nothingRunning = exclusive ? "and not exists (select 1 from review_jobs r where r.status = 'running')" : '';
      // A deactivated client's queued jobs wait for it to be activated again.
      const lease = [owner, leaseExpiresAt, now, now, exclusive ? 1 : null];
      try {
        const rows = await claimRows(db, dialect, {
          table: 'review_jobs',
          pick: `select id from review_jobs where status = 'queued' and ${CLIENT_IS_ACTIVE} ${nothingRunning}
            order by submitted_at, id limit ?`,
          pickBindings: [activeFlag, activeFlag, take],
          set: `status = 'running', lease_owner = ?, lease_expires_at = ?, started_at = ?, updated_at = ?,
            exclusive_slot = ?`,
          setBindings: lease,
          recheck: "review_jobs.status = 'queued'",
        });
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
      if (finish.result !== undefined) row.result = writeJsonOrNull(finish.result);
      if (finish.usage !== undefined) row.usage = writeJsonOrNull(finish.usage);
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
      // Read who held each lease before clearing it. On PostgreSQL the rows stay locked until the
      // update, and a host reclaiming at the same moment skips them rather than taking them back twice.
      return atomically(db, async (trx) => {
        const running = () => trx('review_jobs').where({ status: 'running' });
        const pick = running()
          .where('lease_expires_at', '<', now)
          .select('id', 'attempt', 'lease_owner', 'lease_expires_at', 'reclaim_count');
        const expired: Row[] = dialect === 'postgres' ? await pick.forUpdate().skipLocked() : await pick;
        const outcome: ReclaimOutcome = { requeued: [], failed: [], lost: [] };
        for (const row of expired) {
          const worn = Number(row.reclaim_count) >= maxReclaims;
          (worn ? outcome.failed : outcome.requeued).push(String(row.id));
          outcome.lost.push({
            jobId: String(row.id),
            attempt: Number(row.attempt),
            owner: String(row.lease_owner ?? ''),
            expiredAt: readTime(row.lease_expires_at),
            reclaim: Number(row.reclaim_count) + 1,
            outcome: worn ? 'failed' : 'requeued',
          });
        }
        const cleared = { lease_owner: null, lease_expires_at: null, exclusive_slot: null, updated_at: now };
        if (outcome.failed.length > 0) {
          await running()
            .whereIn('id', outcome.failed)
            .update({ ...cleared, status: 'failed', completed_at: now, error: RECLAIM_EXHAUSTED });
        }
        if (outcome.requeued.length > 0) {
          await running()
            .whereIn('id', outcome.requeued)
            .update({ ...cleared, status: 'queued', started_at: null, reclaim_count: trx.raw('reclaim_count + 1') });
        }
        return outcome;
      });
    },
  };
}
