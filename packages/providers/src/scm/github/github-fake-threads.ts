import type { FakeRequest } from '../../testing/fake-http-server.js';
import { diffOf, pathOf } from '../../testing/scenario-history.js';
import {
  type FakeComment,
  type FakeThread,
  type GitHubFakeContext,
  ghFixture,
  notFound,
  R,
  unprocessable,
} from './github-fake-context.js';
import type { GhIssueComment, GhPullRequest, GhReviewComment } from './github-wire.js';

/** A review comment as `POST …/comments` and a review's `comments[]` send it. */
interface NewComment {
  body?: string;
  commit_id?: string;
  path?: string;
  line?: number;
  side?: string;
  start_line?: number;
  start_side?: string;
}

/**
 * Review comments (alone, in a review, as replies), reviews, and conversation comments, kept as
 * threads the GraphQL part lists. New review comments are placed as GitHub places them (422 for a
 * line the diff does not show).
 */
export function serveThreads(fake: GitHubFakeContext): void {
  const { route, paged, pr, threadsOf, nextId, authorOf } = fake;
  const reviewComment = (number: number, thread: FakeThread, comment: FakeComment) =>
    restReviewComment(fake, number, thread, comment);

  route('POST', `${R}/pulls/:n/comments`, async (req) => {
    const found = pr(req);
    if (!found) return notFound();
    const number = found.number;
    const body = req.json as NewComment;
    if (!body.body || !body.commit_id || !(await placeable(fake, number, found, body))) return unprocessable();
    const { thread, comment } = addThread(fake, req, number, found, body);
    return { status: 201, json: reviewComment(number, thread, comment) };
  });

  const reviewsByPull = new Map<number, Array<{ id: number; commitId: string; state: string }>>();
  route('POST', `${R}/pulls/:n/reviews`, async (req) => {
    const found = pr(req);
    if (!found) return notFound();
    const number = found.number;
    const body = req.json as { commit_id?: string; event?: string; body?: string; comments?: NewComment[] };
    const comments = body.comments ?? [];
    // One comment GitHub cannot place refuses the whole review.
    for (const c of comments) {
      if (!c.body || !(await placeable(fake, number, found, { ...c, commit_id: body.commit_id }))) {
        return { status: 422, json: ghFixture('error-review-unprocessable') };
      }
    }
    const id = nextId();
    // Without an event the review stays pending: its comments are invisible until it is submitted.
    const state = body.event === 'COMMENT' ? 'COMMENTED' : body.event ? body.event : 'PENDING';
    const reviews = reviewsByPull.get(number) ?? [];
    reviews.push({ id, commitId: body.commit_id ?? found.head.sha, state });
    reviewsByPull.set(number, reviews);
    if (state !== 'PENDING') {
      for (const c of comments) addThread(fake, req, number, found, { ...c, commit_id: body.commit_id }, id);
    }
    const review = ghFixture<Record<string, unknown>>('review');
    const html = `https://github.com/acme/uploader/pull/${number}#pullrequestreview-${id}`;
    return {
      json: {
        ...review,
        id,
        node_id: `PRR_fake${id}`,
        user: fake.restUser(authorOf(req)),
        body: body.body ?? '',
        state,
        html_url: html,
        commit_id: body.commit_id ?? found.head.sha,
        submitted_at: state === 'PENDING' ? undefined : new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        _links: { ...(review._links as object), html: { href: html } },
      },
    };
  });

  route('GET', `${R}/pulls/:n/reviews/:review/comments`, (req) => {
    const found = pr(req);
    if (!found) return notFound();
    const reviewId = Number(req.params.review);
    if (!reviewsByPull.get(found.number)?.some((r) => r.id === reviewId)) return notFound();
    const comments = threadsOf(found.number).flatMap((thread) =>
      thread.comments.nodes.filter((c) => c.reviewId === reviewId).map((c) => reviewComment(found.number, thread, c)),
    );
    return paged(req, comments);
  });

  route('POST', `${R}/pulls/:n/comments/:cid/replies`, (req) => {
    const found = pr(req);
    const thread =
      found && threadsOf(found.number).find((t) => String(t.comments.nodes[0]?.databaseId) === req.params.cid);
    if (!found || !thread) return notFound();
    const comment: FakeComment = {
      databaseId: nextId(),
      body: (req.json as { body: string }).body,
      createdAt: new Date().toISOString(),
      author: authorOf(req),
    };
    thread.comments.nodes.push(comment);
    return { status: 201, json: reviewComment(found.number, thread, comment) };
  });

  route('GET', `${R}/pulls/comments/:cid`, (req) => {
    const hit = findComment(fake, req.params.cid ?? '');
    return hit ? { json: reviewComment(hit.number, hit.thread, hit.comment) } : notFound();
  });
  route('PATCH', `${R}/pulls/comments/:cid`, (req) => {
    const hit = findComment(fake, req.params.cid ?? '');
    const body = (req.json as { body?: string } | undefined)?.body;
    if (!hit) return notFound();
    if (!body) return unprocessable();
    hit.comment.body = body;
    return { json: reviewComment(hit.number, hit.thread, hit.comment) };
  });

  serveConversationComments(fake);
}

/** Conversation (issue) comments: listed, added and edited. */
function serveConversationComments(fake: GitHubFakeContext): void {
  const { route, paged, pr, issueComments, issueCommentsOf } = fake;
  const findIssueComment = (id: string) => [...issueComments.values()].flat().find((c) => String(c.id) === id);

  route('GET', `${R}/issues/:n/comments`, (req) =>
    pr(req) ? paged(req, issueCommentsOf(Number(req.params.n))) : notFound(),
  );
  route('POST', `${R}/issues/:n/comments`, (req) => {
    if (!pr(req)) return notFound();
    const comment: GhIssueComment = {
      ...ghFixture<GhIssueComment>('issue-comment'),
      id: fake.nextId(),
      body: (req.json as { body: string }).body,
      user: fake.restUser(fake.authorOf(req)),
      created_at: new Date().toISOString(),
    };
    comment.html_url = `https://github.com/acme/uploader/pull/${req.params.n}#issuecomment-${comment.id}`;
    issueCommentsOf(Number(req.params.n)).push(comment);
    return { status: 201, json: comment };
  });
  route('GET', `${R}/issues/comments/:cid`, (req) => {
    const comment = findIssueComment(req.params.cid ?? '');
    return comment ? { json: comment } : notFound();
  });
  route('PATCH', `${R}/issues/comments/:cid`, (req) => {
    const comment = findIssueComment(req.params.cid ?? '');
    const body = (req.json as { body?: string } | undefined)?.body;
    if (!comment) return notFound();
    if (!body) return unprocessable();
    comment.body = body;
    return { json: comment };
  });
}

function findComment(fake: GitHubFakeContext, id: string) {
  for (const [number, list] of fake.threadsByPull) {
    for (const thread of list) {
      const comment = thread.comments.nodes.find((c) => String(c.databaseId) === id);
      if (comment) return { number, thread, comment };
    }
  }
  return undefined;
}

function restReviewComment(
  fake: GitHubFakeContext,
  number: number,
  thread: FakeThread,
  comment: FakeComment,
): GhReviewComment {
  const root = thread.comments.nodes[0];
  const isRange = thread.startLine !== null && thread.startLine !== thread.line;
  return {
    ...ghFixture<GhReviewComment>('review-comment'),
    id: comment.databaseId,
    node_id: `PRRC_fake${comment.databaseId}`,
    pull_request_review_id: comment.reviewId ?? null,
    body: comment.body,
    path: thread.path,
    commit_id: thread.commitId,
    original_commit_id: thread.commitId,
    line: thread.line,
    original_line: thread.originalLine,
    side: thread.diffSide,
    start_line: isRange ? thread.startLine : null,
    original_start_line: isRange ? thread.originalStartLine : null,
    start_side: isRange ? thread.startDiffSide : null,
    user: fake.restUser(comment.author),
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    html_url: `https://github.com/acme/uploader/pull/${number}#discussion_r${comment.databaseId}`,
    ...(root && root !== comment ? { in_reply_to_id: root.databaseId } : {}),
  } as GhReviewComment;
}

/**
 * Whether GitHub can place a review comment: on a scenario pull request the line (and a range's
 * start) must be shown in that commit's diff on its side; the contract scenario's synthetic patches
 * only require the file to be in the diff.
 */
async function placeable(
  fake: GitHubFakeContext,
  number: number,
  found: GhPullRequest,
  c: NewComment,
): Promise<boolean> {
  const side = c.side ?? 'RIGHT';
  const startSide = c.start_side ?? side;
  if (!c.path || !c.line || c.line < 1 || fake.refusedPaths.has(c.path)) return false;
  if (side !== 'RIGHT' && side !== 'LEFT') return false;
  if (c.start_line !== undefined && (c.start_line >= c.line || (startSide !== 'RIGHT' && startSide !== 'LEFT')))
    return false;
  const scenario = fake.history.pullRequests.get(number);
  if (!scenario) {
    return (
      (c.commit_id ?? found.head.sha) === found.head.sha &&
      side === 'RIGHT' &&
      fake.files.some((f) => f.filename === c.path)
    );
  }
  const revision = c.commit_id ? scenario.revisions.find((r) => r.headSha === c.commit_id) : scenario.revisions.at(-1);
  const change = revision?.changes.find((f) => pathOf(f) === c.path);
  if (!change) return false;
  const shown = (await diffOf(change)).lines;
  const lines = (s: string) => (s === 'LEFT' ? shown.old : shown.new);
  return lines(side).has(c.line) && (c.start_line === undefined || lines(startSide).has(c.start_line));
}

function addThread(
  fake: GitHubFakeContext,
  req: FakeRequest,
  number: number,
  found: GhPullRequest,
  c: NewComment,
  reviewId?: number,
) {
  const comment: FakeComment = {
    databaseId: fake.nextId(),
    body: c.body ?? '',
    createdAt: new Date().toISOString(),
    author: fake.authorOf(req),
    reviewId,
  };
  const side = c.side === 'LEFT' ? 'LEFT' : 'RIGHT';
  const thread: FakeThread = {
    id: `PRRT_fake${comment.databaseId}`,
    isResolved: false,
    path: c.path ?? '',
    line: c.line ?? null,
    startLine: c.start_line ?? null,
    originalLine: c.line ?? null,
    originalStartLine: c.start_line ?? null,
    diffSide: side,
    startDiffSide: c.start_line !== undefined ? (c.start_side === 'LEFT' ? 'LEFT' : 'RIGHT') : null,
    commitId: c.commit_id ?? found.head.sha,
    comments: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [comment] },
  };
  fake.threadsOf(number).push(thread);
  return { thread, comment };
}
