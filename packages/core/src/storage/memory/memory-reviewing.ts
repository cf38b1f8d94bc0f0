import { decodeCursor, MarginError, toPage } from '../../kernel/index.js';
import type {
  BlockedPullRequestsRepository,
  DismissalsRepository,
  ProtocolRepository,
  ReviewFindingsRepository,
  ReviewPublicationsRepository,
} from '../../reviewing/index.js';
import {
  ACTIVE_STATUSES,
  type JobStatus,
  RAN_ITS_COURSE,
  RECLAIM_EXHAUSTED,
  type ReclaimOutcome,
  type ReviewJobRecord,
  type ReviewJobsRepository,
} from '../../reviewing/index.js';
import { copy, keysetPage, type MemoryState } from './memory-state.js';

const isActive = (status: JobStatus) => (ACTIVE_STATUSES as readonly JobStatus[]).includes(status);
const newestFirst = (a: ReviewJobRecord, b: ReviewJobRecord) =>
  b.submittedAt.localeCompare(a.submittedAt) || b.id.localeCompare(a.id);

export function memoryReviewJobs(state: () => MemoryState): ReviewJobsRepository {
  const rows = () => state().reviewJobs;
  const set = (job: ReviewJobRecord) => rows().set(job.id, job);
  const runningOf = (id: string, owner: string) => {
    const job = rows().get(id);
    return job && job.status === 'running' && job.leaseOwner === owner ? job : undefined;
  };
  // A deactivated client's queued jobs wait for it to be activated again.
  // A deactivated client's queued jobs wait, and so do those of a deactivated tenant's clients.
  const clientIsActive = (clientId: string) => {
    const client = state().clients.get(clientId);
    return client?.isActive === true && state().tenants.get(client.tenantId)?.isActive === true;
  };
  return {
    async insert(job) {
      for (const other of rows().values()) {
        if (isActive(other.status) && other.revisionKey === job.revisionKey) {
          throw MarginError.conflict('A review of this revision is already active.');
        }
      }
      set(copy(job));
    },
    async findById(id) {
      const job = rows().get(id);
      return job && copy(job);
    },
    async findActiveByRevisionKey(revisionKey) {
      for (const job of rows().values()) if (isActive(job.status) && job.revisionKey === revisionKey) return copy(job);
      return undefined;
    },
    async findActiveByPullRequestKey(pullRequestKey) {
      return [...rows().values()].filter((j) => isActive(j.status) && j.pullRequestKey === pullRequestKey).map(copy);
    },
    async countActive() {
      let n = 0;
      for (const job of rows().values()) {
        if (job.status === 'running' || (job.status === 'queued' && clientIsActive(job.clientId))) n++;
      }
      return n;
    },
    async findLastCompleted(pullRequestKey) {
      const done = [...rows().values()]
        .filter((j) => j.pullRequestKey === pullRequestKey && j.status === 'completed')
        .sort((a, b) => (b.completedAt ?? '').localeCompare(a.completedAt ?? '') || b.id.localeCompare(a.id));
      return done[0] ? copy(done[0]) : undefined;
    },
    async hasFinishedRevision(revisionKey) {
      for (const job of rows().values()) {
        if (job.revisionKey === revisionKey && RAN_ITS_COURSE.includes(job.status)) return true;
      }
      return false;
    },
    async list(clientId, filter, page) {
      const after = decodeCursor(page.cursor);
      const items = [...rows().values()]
        .filter(
          (j) =>
            j.clientId === clientId &&
            (!filter.status || j.status === filter.status) &&
            (!filter.repositoryId || j.repository.externalRepositoryId === filter.repositoryId) &&
            (filter.pullRequestId === undefined || j.codeReview.number === filter.pullRequestId) &&
            (!after || j.submittedAt < after.key || (j.submittedAt === after.key && j.id < after.id)),
        )
        .sort(newestFirst)
        .slice(0, page.limit + 1)
        .map(copy);
      return toPage(items, page.limit, (j) => ({ key: j.submittedAt, id: j.id }));
    },
    async transition(id, from, to, patch) {
      const job = rows().get(id);
      if (!job || !from.includes(job.status)) return undefined;
      if (isActive(to) && !isActive(job.status)) {
        for (const other of rows().values()) {
          if (other.id !== id && isActive(other.status) && other.revisionKey === job.revisionKey) {
            throw MarginError.conflict('A review of this revision is already active.');
          }
        }
      }
      const leaseCleared = to !== 'running' ? { leaseOwner: null, leaseExpiresAt: null } : {};
      const next: ReviewJobRecord = { ...job, ...copy(patch), ...leaseCleared, status: to };
      set(next);
      return copy(next);
    },
    async claimNext({ owner, limit, leaseMs, now, exclusive }) {
      const all = [...rows().values()];
      if (exclusive && all.some((j) => j.status === 'running')) return [];
      const take = exclusive ? Math.min(limit, 1) : limit;
      const queued = all
        .filter((j) => j.status === 'queued' && clientIsActive(j.clientId))
        .sort((a, b) => a.submittedAt.localeCompare(b.submittedAt) || a.id.localeCompare(b.id))
        .slice(0, take);
      const leaseExpiresAt = new Date(Date.parse(now) + leaseMs).toISOString();
      return queued.map((job) => {
        const claimed: ReviewJobRecord = {
          ...job,
          status: 'running',
          leaseOwner: owner,
          leaseExpiresAt,
          startedAt: now,
          updatedAt: now,
        };
        set(claimed);
        return copy(claimed);
      });
    },
    async renewLease(id, owner, leaseExpiresAt, progress) {
      const job = runningOf(id, owner);
      if (!job) return false;
      set({ ...job, leaseExpiresAt, ...(progress ? { progress: copy(progress) } : {}) });
      return true;
    },
    async finish(id, owner, finish) {
      const job = runningOf(id, owner);
      if (!job) return false;
      set({
        ...job,
        status: finish.status,
        completedAt: finish.at,
        updatedAt: finish.at,
        result: finish.result === undefined ? job.result : copy(finish.result),
        usage: finish.usage === undefined ? job.usage : copy(finish.usage),
        error: finish.error === undefined ? job.error : finish.error,
        progress: finish.progress ? copy(finish.progress) : job.progress,
        leaseOwner: null,
        leaseExpiresAt: null,
      });
      return true;
    },
    async release(id, owner, at) {
      const job = runningOf(id, owner);
      if (!job) return false;
      set({ ...job, status: 'queued', leaseOwner: null, leaseExpiresAt: null, startedAt: null, updatedAt: at });
      return true;
    },
    async reclaimExpired(now, maxReclaims) {
      const outcome: ReclaimOutcome = { requeued: [], failed: [], lost: [] };
      for (const job of rows().values()) {
        if (job.status !== 'running' || !job.leaseExpiresAt || job.leaseExpiresAt >= now) continue;
        const cleared = { leaseOwner: null, leaseExpiresAt: null, updatedAt: now };
        const lost = {
          jobId: job.id,
          attempt: job.attempt,
          owner: job.leaseOwner ?? '',
          expiredAt: job.leaseExpiresAt,
          reclaim: job.reclaimCount + 1,
        };
        if (job.reclaimCount >= maxReclaims) {
          set({ ...job, ...cleared, status: 'failed', completedAt: now, error: RECLAIM_EXHAUSTED });
          outcome.failed.push(job.id);
          outcome.lost.push({ ...lost, outcome: 'failed' });
        } else {
          set({ ...job, ...cleared, status: 'queued', startedAt: null, reclaimCount: job.reclaimCount + 1 });
          outcome.requeued.push(job.id);
          outcome.lost.push({ ...lost, outcome: 'requeued' });
        }
      }
      return outcome;
    },
  };
}

export function memoryBlockedPullRequests(state: () => MemoryState): BlockedPullRequestsRepository {
  const rows = () => state().blockedPullRequests;
  const key = (clientId: string, repositoryId: string, pullRequestId: number) =>
    `${clientId}/${repositoryId.toLowerCase()}/${pullRequestId}`;
  return {
    async put(block) {
      const k = key(block.clientId, block.repositoryId, block.pullRequestId);
      const existing = rows().get(k);
      if (existing) return copy(existing);
      rows().set(k, copy(block));
      return copy(block);
    },
    async find(clientId, repositoryId, pullRequestId) {
      const block = rows().get(key(clientId, repositoryId, pullRequestId));
      return block && copy(block);
    },
    async remove(clientId, repositoryId, pullRequestId) {
      return rows().delete(key(clientId, repositoryId, pullRequestId));
    },
    async list(clientId, page) {
      const mine = [...rows().values()].filter((b) => b.clientId === clientId);
      return keysetPage(mine, (b) => ({ key: b.blockedAt, id: b.id }), 'desc', page);
    },
  };
}

export function memoryDismissals(state: () => MemoryState): DismissalsRepository {
  const rows = () => state().dismissals;
  return {
    async insert(dismissal) {
      rows().set(dismissal.id, copy(dismissal));
    },
    async list(clientId) {
      return [...rows().values()]
        .filter((d) => d.clientId === clientId)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
        .map(copy);
    },
    async listPage(clientId, page) {
      const mine = [...rows().values()].filter((d) => d.clientId === clientId);
      return keysetPage(mine, (d) => ({ key: d.createdAt, id: d.id }), 'desc', page);
    },
    async remove(clientId, id) {
      const d = rows().get(id);
      if (!d || d.clientId !== clientId) return false;
      return rows().delete(id);
    },
  };
}

export function memoryProtocol(state: () => MemoryState): ProtocolRepository {
  return {
    async insertPass(pass) {
      state().protocolPasses.set(pass.id, copy(pass));
    },
    async completePass(id, patch) {
      const pass = state().protocolPasses.get(id);
      if (pass) state().protocolPasses.set(id, { ...pass, ...patch });
    },
    async insertEvents(events) {
      for (const e of events) state().protocolEvents.set(e.id, copy(e));
    },
    async read(jobId, { eventCategory, includeBodies, page }) {
      const passes = keysetPage(
        [...state().protocolPasses.values()].filter((p) => p.jobId === jobId),
        (p) => ({ key: p.startedAt, id: p.id }),
        'asc',
        page,
      );
      const ids = new Set(passes.items.map((p) => p.id));
      const events = [...state().protocolEvents.values()]
        .filter((e) => ids.has(e.passId) && (!eventCategory || e.eventCategory === eventCategory))
        .sort((a, b) => a.sequence - b.sequence);
      return {
        items: passes.items.map((p) => ({
          ...p,
          events: events
            .filter((e) => e.passId === p.id)
            .map((e) => ({ ...copy(e), body: includeBodies ? copy(e.body) : null })),
        })),
        nextCursor: passes.nextCursor,
      };
    },
  };
}

export function memoryReviewPublications(state: () => MemoryState): ReviewPublicationsRepository {
  const of = (pullRequestKey: string) => {
    let entries = state().reviewPublications.get(pullRequestKey);
    if (!entries) {
      entries = new Map();
      state().reviewPublications.set(pullRequestKey, entries);
    }
    return entries;
  };
  return {
    async listForPullRequest(pullRequestKey) {
      return [...(state().reviewPublications.get(pullRequestKey)?.values() ?? [])]
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .map(copy);
    },
    async reserve(records) {
      for (const record of records) {
        const entries = of(record.pullRequestKey);
        const existing = entries.get(record.marker);
        if (!existing) entries.set(record.marker, copy(record));
        else if (existing.state === 'failed') {
          entries.set(record.marker, {
            ...existing,
            state: 'pending',
            jobId: record.jobId,
            error: null,
            updatedAt: record.updatedAt,
          });
        }
      }
    },
    async update(pullRequestKey, marker, patch) {
      const entries = of(pullRequestKey);
      const existing = entries.get(marker);
      if (existing) entries.set(marker, { ...existing, ...patch });
    },
  };
}

export function memoryReviewFindings(state: () => MemoryState): ReviewFindingsRepository {
  const rows = () => state().reviewFindings;
  return {
    async listForPullRequest(pullRequestKey) {
      return [...rows().values()]
        .filter((f) => f.pullRequestKey === pullRequestKey)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .map(copy);
    },
    async save(changes) {
      for (const f of [...changes.inserted, ...changes.updated]) rows().set(f.id, copy(f));
    },
    async list(clientId, filter, page) {
      const after = decodeCursor(page.cursor);
      const items = [...rows().values()]
        .filter(
          (f) =>
            f.clientId === clientId &&
            (!filter.repositoryId || f.repositoryId === filter.repositoryId) &&
            (filter.pullRequestNumber === undefined || f.pullRequestNumber === filter.pullRequestNumber) &&
            (!filter.state || f.state === filter.state) &&
            (!after || f.updatedAt < after.key || (f.updatedAt === after.key && f.id < after.id)),
        )
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id))
        .slice(0, page.limit + 1)
        .map(copy);
      return toPage(items, page.limit, (f) => ({ key: f.updatedAt, id: f.id }));
    },
  };
}
