/**
 * Forgejo's (and Gitea's) REST v1 shapes as this adapter reads them: only the fields it uses, named
 * as `modules/structs` names them, and the mapping to Margin's port types.
 */
import {
  type ChangedFile,
  type ChangeType,
  MarginError,
  type PullRequestStatus,
  type ReviewThread,
  type ScmUser,
  THREAD_MARKER_PATTERN,
  type ThreadAnchor,
} from '@margin/core/spec';

export interface FjUser {
  id: number;
  login: string;
  full_name?: string | null;
}

export interface FjOrganization {
  id: number;
  username: string;
  full_name?: string | null;
}

export interface FjRepository {
  id: number;
  name: string;
  full_name?: string;
  owner: FjUser;
  default_branch?: string;
  html_url?: string;
  archived?: boolean;
}

/** `GET /repos/{o}/{r}/branches/{branch}`. */
export interface FjBranch {
  name: string;
  commit?: { id: string } | undefined;
}

/** `GET /repos/{o}/{r}/git/trees/{sha}?recursive=true&page=`: `truncated` while more pages follow. */
export interface FjTree {
  sha: string;
  tree?: Array<{ path: string; mode: string; type: 'blob' | 'tree' | 'commit'; size: number; sha: string }> | null;
  truncated: boolean;
  page: number;
  total_count: number;
}

export interface FjBranchInfo {
  label?: string;
  ref: string;
  sha: string;
  repo_id?: number;
  repo?: FjRepository | null;
}

export interface FjPullRequest {
  id: number;
  number: number;
  user: FjUser;
  title: string;
  body?: string | null;
  state: 'open' | 'closed';
  /** Newer servers only; older ones mark drafts with a `WIP:` title prefix. */
  draft?: boolean;
  merged?: boolean;
  merged_at?: string | null;
  html_url?: string;
  base: FjBranchInfo;
  head: FjBranchInfo;
  /** The commit Forgejo diffs the pull request from. */
  merge_base?: string;
  requested_reviewers?: FjUser[] | null;
  created_at?: string;
}

/** `GET /pulls/{index}/files`. `status` is added, deleted, renamed, copied, changed or unchanged. */
export interface FjChangedFile {
  filename: string;
  previous_filename?: string;
  status: string;
  additions?: number;
  deletions?: number;
  changes?: number;
}

export interface FjCommit {
  sha: string;
  created?: string;
  commit?: { message?: string; author?: { date?: string }; committer?: { date?: string } };
  parents?: Array<{ sha: string }>;
  /** Files each commit touched; `status` is missing on older servers. */
  files?: Array<{ filename: string; status?: string }> | null;
}

/** `GET /compare/{base}...{head}`: the commits in head that are not in base. */
export interface FjCompare {
  total_commits: number;
  commits: FjCommit[] | null;
}

export interface FjContents {
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  size?: number;
  encoding?: string | null;
  content?: string | null;
}

export interface FjReview {
  id: number;
  user: FjUser | null;
  state: string;
  body?: string;
  commit_id?: string;
  comments_count?: number;
  submitted_at?: string;
}

/**
 * A code comment of a review. `position` is the line in the new file, `original_position` the line
 * in the old file; one of them is 0. There is no reply link: comments on the same path and line
 * are one conversation, as the web UI shows them.
 */
export interface FjReviewComment {
  id: number;
  body: string;
  user: FjUser | null;
  resolver?: FjUser | null;
  pull_request_review_id: number;
  path: string;
  commit_id?: string;
  original_commit_id?: string;
  position: number;
  original_position: number;
  created_at: string;
  html_url?: string;
}

export interface FjIssueComment {
  id: number;
  body: string;
  user: FjUser | null;
  created_at: string;
  html_url?: string;
}

export interface FjVersion {
  version: string;
}

export const ISSUE_THREAD = 'issue:';
export const CODE_THREAD = 'code:';

export function parseThreadId(threadId: string): { kind: 'issue' | 'code'; commentId: number } {
  const kind = threadId.startsWith(ISSUE_THREAD) ? 'issue' : threadId.startsWith(CODE_THREAD) ? 'code' : undefined;
  const id = Number(threadId.slice(threadId.indexOf(':') + 1));
  if (!kind || !Number.isSafeInteger(id) || id <= 0) {
    throw MarginError.validation(`"${threadId}" is not a thread id of the Forgejo adapter.`);
  }
  return { kind, commentId: id };
}

export function toUser(user: FjUser | null | undefined): ScmUser {
  if (!user) return { externalUserId: '', login: 'ghost', displayName: 'Ghost', isBot: false };
  return {
    externalUserId: String(user.id),
    login: user.login,
    displayName: user.full_name || user.login,
    isBot: false,
  };
}

export function pullRequestStatus(pr: Pick<FjPullRequest, 'state' | 'merged' | 'merged_at'>): PullRequestStatus {
  if (pr.state === 'open') return 'open';
  return pr.merged || pr.merged_at ? 'merged' : 'closed';
}

/** Forgejo has a `draft` flag only on newer servers; the `WIP:` title prefixes are its older form. */
export function isDraft(pr: Pick<FjPullRequest, 'draft' | 'title'>): boolean {
  return pr.draft === true || /^\s*(?:wip:|\[wip\])/i.test(pr.title);
}

/**
 * Forgejo says `changed` for an edited file and `unchanged` for one whose line counts are zero —
 * a binary file or a mode change, which is still part of the pull request.
 */
export function toChangedFile(file: FjChangedFile): ChangedFile {
  const changeType: ChangeType =
    file.status === 'added' || file.status === 'copied'
      ? 'added'
      : file.status === 'deleted'
        ? 'deleted'
        : file.status === 'renamed'
          ? 'renamed'
          : 'modified';
  return {
    path: file.filename,
    previousPath: changeType === 'renamed' ? file.previous_filename || undefined : undefined,
    changeType,
    rawChangeType: file.status,
    additions: file.additions,
    deletions: file.deletions,
  };
}

/**
 * The files a run of commits changed, from the files each commit lists (Forgejo's compare names no
 * net diff). A file changed and changed back is still listed: reviewed again, never missed.
 * `commits` oldest first.
 */
export function filesOfCommits(commits: readonly FjCommit[]): ChangedFile[] {
  const byPath = new Map<string, { first: string; last: string }>();
  for (const commit of commits) {
    for (const file of commit.files ?? []) {
      const status = file.status === 'removed' ? 'deleted' : (file.status ?? 'modified');
      const known = byPath.get(file.filename);
      if (known) known.last = status;
      else byPath.set(file.filename, { first: status, last: status });
    }
  }
  const files: ChangedFile[] = [];
  for (const [path, { first, last }] of byPath) {
    if (last === 'deleted') {
      // Added and removed again within the range: it exists at neither end.
      if (first !== 'added') files.push({ path, changeType: 'deleted', rawChangeType: last });
    } else {
      files.push({ path, changeType: first === 'added' ? 'added' : 'modified', rawChangeType: last });
    }
  }
  return files;
}

/** Commits of a listing, oldest first, whichever order the server sent them in. */
export function oldestFirst(commits: readonly FjCommit[]): FjCommit[] {
  if (commits.length < 2) return [...commits];
  const first = commits[0] as FjCommit;
  const second = commits[1] as FjCommit;
  // git log order (newest first): the first commit's parent is the second.
  return first.parents?.some((p) => p.sha === second.sha) ? [...commits].reverse() : [...commits];
}

// Hidden markers travel as an HTML comment at the end of a Markdown body; Forgejo's renderer drops it.
const MARKER_READ = /\n*<!-- margin-marker:([A-Za-z0-9:=_.,-]{1,200}) -->\s*$/;

export function withMarker(body: string, marker: string | undefined): string {
  if (marker === undefined) return body;
  if (!THREAD_MARKER_PATTERN.test(marker)) {
    throw MarginError.validation('A thread marker is 1–200 letters, digits or :=_.,- characters.');
  }
  return `${body.trimEnd()}\n\n<!-- margin-marker:${marker} -->`;
}

export function readMarker(stored: string): { body: string; marker?: string | undefined } {
  const match = MARKER_READ.exec(stored);
  return match ? { body: stored.slice(0, match.index), marker: match[1] } : { body: stored };
}

/** The anchor of a code comment: a single line, on the new side unless only the old line is set. */
export function anchorOf(comment: FjReviewComment): ThreadAnchor {
  const old = comment.position === 0 && comment.original_position > 0;
  const line = old ? comment.original_position : comment.position;
  return old
    ? { filePath: comment.path, startLine: line, endLine: line, side: 'old' }
    : { filePath: comment.path, startLine: line, endLine: line };
}

/** Conversations are keyed by file, side and line, as Forgejo groups them. */
export function conversationKey(comment: FjReviewComment): string {
  const anchor = anchorOf(comment);
  return `${anchor.side ?? 'new'}:${anchor.endLine}:${comment.path}`;
}

/** One conversation of code comments (oldest first) as a thread. */
export function codeThread(comments: readonly FjReviewComment[], ownLogin: string | undefined): ReviewThread {
  const root = comments[0];
  if (!root) throw MarginError.internal('A conversation without comments.');
  const read = comments.map((c) => ({ comment: c, ...readMarker(c.body) }));
  const resolved = Boolean(root.resolver);
  return {
    threadId: `${CODE_THREAD}${root.id}`,
    status: resolved ? 'resolved' : 'open',
    providerStatus: resolved ? 'resolved' : 'open',
    anchor: anchorOf(root),
    comments: read.map(({ comment, body }) => ({
      commentId: String(comment.id),
      author: toUser(comment.user),
      body,
      createdAt: comment.created_at,
    })),
    ...(read[0]?.marker !== undefined ? { marker: read[0].marker } : {}),
    authoredByConnection: isOwn(root.user, ownLogin),
  };
}

/** A conversation comment on the pull request: a thread of one, with no resolution state. */
export function issueThread(comment: FjIssueComment, ownLogin: string | undefined): ReviewThread {
  const { body, marker } = readMarker(comment.body);
  return {
    threadId: `${ISSUE_THREAD}${comment.id}`,
    status: 'open',
    comments: [{ commentId: String(comment.id), author: toUser(comment.user), body, createdAt: comment.created_at }],
    ...(marker !== undefined ? { marker } : {}),
    authoredByConnection: isOwn(comment.user, ownLogin),
  };
}

function isOwn(user: FjUser | null | undefined, ownLogin: string | undefined): boolean {
  return Boolean(user && ownLogin && user.login.toLowerCase() === ownLogin.toLowerCase());
}

/** Oldest first; the server returns a review's comments in no particular order. */
export function byCreation<T extends { id: number; created_at: string }>(a: T, b: T): number {
  return a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at ? -1 : 1;
}

/**
 * What `/version` says about resolving conversations over the API: Gitea has
 * `POST /pulls/comments/{id}/resolve` from 1.26; Forgejo (`X.Y.Z+gitea-A.B.C`) has no such route.
 */
export function resolutionSupport(version: string): { supported: boolean; server: string } {
  if (version.includes('+gitea-')) return { supported: false, server: `Forgejo ${version.split('+')[0]}` };
  const [major = 0, minor = 0] = version.replace(/^v/, '').split(/[.+-]/).map(Number);
  return { supported: major > 1 || (major === 1 && minor >= 26), server: `Gitea ${version}` };
}
