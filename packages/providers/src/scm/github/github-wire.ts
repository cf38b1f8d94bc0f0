import type {
  ChangedFile,
  ChangeType,
  CreateThreadInput,
  PullRequestStatus,
  ReviewThread,
  ScmUser,
  ThreadAnchor,
  ThreadComment,
} from '@margin/core/spec';
import { withHiddenMarker, withMarkerRead } from '../shared/index.js';

/**
 * The parts of GitHub's REST and GraphQL shapes this adapter reads or writes, and their mapping to
 * the port. Field names are the wire's; nothing here does I/O.
 */

export interface GhUser {
  id: number;
  login: string;
  type?: 'User' | 'Bot' | 'Organization' | string;
  name?: string | null;
}

export interface GhRepository {
  id: number;
  node_id?: string;
  name: string;
  full_name?: string;
  owner: GhUser;
  default_branch?: string;
  html_url?: string;
  archived?: boolean;
  disabled?: boolean;
}

export interface GhPullRequest {
  number: number;
  node_id?: string;
  state: 'open' | 'closed' | string;
  merged?: boolean;
  merged_at?: string | null;
  draft?: boolean;
  title: string;
  body?: string | null;
  user: GhUser;
  html_url?: string;
  created_at?: string;
  head: { ref: string; sha: string; repo?: GhRepository | null };
  base: { ref: string; sha: string; repo: GhRepository };
  requested_reviewers?: GhUser[];
  /** How many files the pull request changes, also past the 3,000 its file listing shows. */
  changed_files?: number;
}

export interface GhCommit {
  sha: string;
  commit?: { committer?: { date?: string } | null; author?: { date?: string } | null };
}

export interface GhPullRequestFile {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged' | string;
  previous_filename?: string;
  additions?: number;
  deletions?: number;
  changes?: number;
  patch?: string;
  sha?: string;
}

export interface GhReviewComment {
  id: number;
  node_id?: string;
  pull_request_review_id?: number | null;
  body: string;
  path?: string;
  commit_id?: string;
  line?: number | null;
  side?: 'LEFT' | 'RIGHT' | null;
  start_line?: number | null;
  start_side?: 'LEFT' | 'RIGHT' | null;
  user: GhUser;
  created_at: string;
  in_reply_to_id?: number;
  html_url?: string;
}

export interface GhReview {
  id: number;
  state?: string;
  commit_id?: string;
  html_url?: string;
}

export interface GhComparison {
  status: 'ahead' | 'behind' | 'identical' | 'diverged' | string;
  ahead_by?: number;
  behind_by?: number;
  merge_base_commit?: { sha?: string };
  files?: GhPullRequestFile[];
}

export interface GhIssueComment {
  id: number;
  body?: string;
  user: GhUser | null;
  created_at: string;
  html_url?: string;
}

export interface GqlActor {
  __typename?: string;
  login: string;
  databaseId?: number | null;
  name?: string | null;
}

export interface GqlComment {
  databaseId: number;
  body: string;
  createdAt: string;
  author: GqlActor | null;
}

export interface GqlPageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface GqlReviewThread {
  id: string;
  isResolved: boolean;
  path: string;
  line: number | null;
  startLine: number | null;
  originalLine: number | null;
  originalStartLine: number | null;
  diffSide: 'LEFT' | 'RIGHT';
  startDiffSide?: 'LEFT' | 'RIGHT' | null;
  isOutdated?: boolean;
  comments: { pageInfo: GqlPageInfo; nodes: GqlComment[] };
}

export function toUser(user: GhUser | null | undefined): ScmUser {
  if (!user) return { externalUserId: '', login: 'ghost', displayName: 'ghost', isBot: false };
  return {
    externalUserId: String(user.id),
    login: user.login,
    displayName: user.name ?? user.login,
    isBot: user.type === 'Bot',
  };
}

export function actorToUser(actor: GqlActor | null): ScmUser {
  // A deleted account shows as a null author; GitHub renders it as "ghost".
  if (!actor) return { externalUserId: '', login: 'ghost', displayName: 'ghost', isBot: false };
  return {
    externalUserId: actor.databaseId ? String(actor.databaseId) : '',
    login: actor.login,
    displayName: actor.name ?? actor.login,
    isBot: actor.__typename === 'Bot',
  };
}

export function pullRequestStatus(pr: Pick<GhPullRequest, 'state' | 'merged' | 'merged_at'>): PullRequestStatus {
  if (pr.state === 'open') return 'open';
  return pr.merged || pr.merged_at ? 'merged' : 'closed';
}

/** `changed` and `unchanged` are modifications; a copy is a new file that came from another. */
export function changeTypeOf(status: string): ChangeType {
  if (status === 'added' || status === 'copied') return 'added';
  if (status === 'removed') return 'deleted';
  if (status === 'renamed') return 'renamed';
  return 'modified';
}

export function toChangedFile(file: GhPullRequestFile): ChangedFile {
  const changeType = changeTypeOf(file.status);
  return {
    path: file.filename,
    previousPath: file.previous_filename,
    changeType,
    rawChangeType: file.status,
    additions: file.additions,
    deletions: file.deletions,
    // `sha` is the head-side blob; a removed file has none (what GitHub names there is not documented).
    newBlobId: changeType === 'deleted' ? undefined : file.sha,
  };
}

/** GitHub's comparison status as the port's relation. */
export function relationOf(status: string): 'ahead' | 'behind' | 'identical' | 'diverged' | 'unknown' {
  return status === 'ahead' || status === 'behind' || status === 'identical' || status === 'diverged'
    ? status
    : 'unknown';
}

/** Thread ids carry their kind: inline review threads and conversation (issue) comments live apart. */
export const REVIEW_THREAD_PREFIX = 'review-comment:';
export const ISSUE_COMMENT_PREFIX = 'issue-comment:';

export type ParsedThreadId = { kind: 'review'; rootCommentId: number } | { kind: 'issue'; commentId: number };

export function parseThreadId(threadId: string): ParsedThreadId | undefined {
  const numeric = (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined);
  if (threadId.startsWith(ISSUE_COMMENT_PREFIX)) {
    const id = numeric(threadId.slice(ISSUE_COMMENT_PREFIX.length));
    return id === undefined ? undefined : { kind: 'issue', commentId: id };
  }
  const bare = threadId.startsWith(REVIEW_THREAD_PREFIX) ? threadId.slice(REVIEW_THREAD_PREFIX.length) : threadId;
  const id = numeric(bare);
  return id === undefined ? undefined : { kind: 'review', rootCommentId: id };
}

/** Whether an author is the account this connection's credentials act as. */
export type IsConnectionAuthor = (author: { login: string; isBot: boolean }) => boolean;

/** A review comment as stored, its hidden marker still in the body (`withMarkerRead` takes it out). */
function commentOf(comment: GqlComment): ThreadComment {
  return {
    commentId: String(comment.databaseId),
    author: actorToUser(comment.author),
    body: comment.body,
    createdAt: comment.createdAt,
  };
}

/**
 * An inline review thread: anchored on its current lines, or the original ones once a push made it
 * outdated; `LEFT` threads sit on the old side. The first comment carries the hidden marker.
 */
export function reviewThreadOf(
  thread: GqlReviewThread,
  comments: GqlComment[],
  isConnectionAuthor: IsConnectionAuthor,
): ReviewThread | undefined {
  const root = comments[0];
  if (!root) return undefined;
  let anchor: ThreadAnchor | undefined;
  const end = thread.line ?? thread.originalLine;
  if (end !== null) {
    anchor = {
      filePath: thread.path,
      startLine: thread.startLine ?? thread.originalStartLine ?? end,
      endLine: end,
      side: thread.diffSide === 'LEFT' ? 'old' : 'new',
    };
  }
  const rootUser = actorToUser(root.author);
  return withMarkerRead({
    threadId: `${REVIEW_THREAD_PREFIX}${root.databaseId}`,
    status: thread.isResolved ? 'resolved' : 'open',
    anchor,
    comments: comments.map(commentOf),
    providerStatus: thread.isResolved ? 'resolved' : 'unresolved',
    isOutdated: thread.isOutdated,
    authoredByConnection: isConnectionAuthor(rootUser),
  });
}

export function issueCommentThread(comment: GhIssueComment, isConnectionAuthor: IsConnectionAuthor): ReviewThread {
  const author = toUser(comment.user);
  return withMarkerRead({
    threadId: `${ISSUE_COMMENT_PREFIX}${comment.id}`,
    status: 'open',
    comments: [{ commentId: String(comment.id), author, body: comment.body ?? '', createdAt: comment.created_at }],
    authoredByConnection: isConnectionAuthor(author),
  });
}

/**
 * One inline comment as GitHub takes it, in a review's `comments[]` and (with `commit_id`) alone on
 * `POST …/pulls/{n}/comments`. `start_line` only for a range: GitHub rejects a start that is not
 * before the end. The body carries the hidden marker as an HTML comment.
 */
export function reviewCommentBody(input: Pick<CreateThreadInput, 'body' | 'marker'> & { anchor: ThreadAnchor }) {
  const { anchor } = input;
  const side = anchor.side === 'old' ? ('LEFT' as const) : ('RIGHT' as const);
  return {
    path: anchor.filePath,
    line: anchor.endLine,
    side,
    ...(anchor.startLine < anchor.endLine ? { start_line: anchor.startLine, start_side: side } : {}),
    body: withHiddenMarker(input.body, input.marker, 'htmlComment'),
  };
}

/** The body of `POST …/pulls/{n}/comments`: one comment on the given commit. */
export function inlineCommentBody(
  input: Pick<CreateThreadInput, 'body' | 'marker'> & { anchor: ThreadAnchor; headSha: string },
) {
  const { body, ...position } = reviewCommentBody(input);
  return { body, commit_id: input.headSha, ...position };
}
