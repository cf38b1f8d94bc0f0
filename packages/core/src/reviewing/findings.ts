import type { Actor } from '../kernel/index.js';
import { FINDING_STATES, type FindingState, type StoredFindingRecord } from './finding-record.js';
import type { ReviewingDeps } from './reviewing-deps.js';
import { FindingListQuery, PullRequestFindingsQuery } from './schemas.js';

export function storedFindingView(f: StoredFindingRecord) {
  return {
    id: f.id,
    fingerprint: f.fingerprint,
    state: f.state,
    repositoryId: f.repositoryId,
    pullRequestId: f.pullRequestNumber,
    filePath: f.path,
    startLine: f.startLine,
    endLine: f.endLine,
    side: f.side,
    severity: f.severity,
    category: f.category,
    title: f.title,
    message: f.message,
    firstSeenRevision: f.firstSeenRevision,
    lastSeenRevision: f.lastSeenRevision,
    resolvedAtRevision: f.resolvedAtRevision,
    reopenCount: f.reopenCount,
    providerThreadId: f.providerThreadId,
    citations: f.citations ?? [],
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
  };
}

/** `GET /clients/{clientId}/reviewing/findings` (ClientUser): findings across pushes, paged. */
export async function listFindings(deps: ReviewingDeps, actor: Actor, clientId: string, query: unknown) {
  const { limit, cursor, pullRequestId, ...rest } = FindingListQuery.parse(query);
  await deps.authz.requireClient(actor, 'reviewing.read', clientId);
  const page = await deps.storage.reviewFindings.list(
    clientId,
    { ...rest, pullRequestNumber: pullRequestId },
    { limit, cursor },
  );
  return { items: page.items.map(storedFindingView), nextCursor: page.nextCursor };
}

const MAX_LISTED = 200;

/**
 * `GET /clients/{clientId}/reviewing/pull-requests/findings` (ClientUser): where one pull request
 * stands — its findings counted by state, the open ones, and its last completed review.
 */
export async function pullRequestFindings(deps: ReviewingDeps, actor: Actor, clientId: string, query: unknown) {
  const { repositoryId, pullRequestId } = PullRequestFindingsQuery.parse(query);
  await deps.authz.requireClient(actor, 'reviewing.read', clientId);
  const counts = Object.fromEntries(FINDING_STATES.map((s) => [s, 0])) as Record<FindingState, number>;
  const open: StoredFindingRecord[] = [];
  let cursor: string | null | undefined;
  // A pull request has tens of findings, not thousands: read its pages to count them.
  do {
    const page = await deps.storage.reviewFindings.list(
      clientId,
      { repositoryId, pullRequestNumber: pullRequestId },
      { limit: 200, cursor },
    );
    for (const f of page.items) {
      counts[f.state]++;
      if ((f.state === 'open' || f.state === 'reopened') && open.length < MAX_LISTED) open.push(f);
    }
    cursor = page.nextCursor;
  } while (cursor);
  const last = (
    await deps.storage.reviewJobs.list(clientId, { repositoryId, pullRequestId, status: 'completed' }, { limit: 1 })
  ).items[0];
  const reviewed = last?.result as { reviewedRevision?: { headSha?: string } } | null | undefined;
  return {
    repositoryId,
    pullRequestId,
    counts,
    lastReview: last
      ? { jobId: last.id, headSha: reviewed?.reviewedRevision?.headSha ?? null, completedAt: last.completedAt }
      : null,
    open: open.map(storedFindingView),
  };
}
