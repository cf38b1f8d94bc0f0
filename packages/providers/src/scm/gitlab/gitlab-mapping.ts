import type {
  ChangedFile,
  PullRequestStatus,
  ReviewThread,
  Revision,
  ScmUser,
  ThreadAnchor,
  ThreadComment,
} from '@margin/core/spec';
import { withMarkerRead } from '../shared/index.js';
import type { GlDiff, GlDiscussion, GlMergeRequest, GlNote, GlPosition, GlUser, GlVersion } from './gitlab-wire.js';

export function toUser(user: GlUser): ScmUser {
  return {
    externalUserId: String(user.id),
    login: user.username,
    displayName: user.name || user.username,
    isBot: user.bot === true,
  };
}

/** `locked` is a transient state GitLab uses while merging; it is still closed to review. */
export function toStatus(state: string): PullRequestStatus {
  if (state === 'opened') return 'open';
  if (state === 'merged') return 'merged';
  return 'closed';
}

export function revisionFromVersion(version: GlVersion): Revision {
  return {
    revisionId: String(version.id),
    headSha: version.head_commit_sha,
    baseSha: version.start_commit_sha,
    mergeBaseSha: version.base_commit_sha,
    createdAt: version.created_at,
  };
}

/**
 * The newest revision: the newest version when it describes the merge request's current head (so the
 * revision id is the version id `listRevisions` gives too), else the merge request's `diff_refs`.
 */
export function currentRevision(mr: GlMergeRequest, newest: GlVersion | undefined): Revision | undefined {
  const head = mr.diff_refs?.head_sha ?? mr.sha;
  if (newest && (head === null || newest.head_commit_sha === head)) return revisionFromVersion(newest);
  const refs = mr.diff_refs;
  if (refs?.head_sha && refs.start_sha) {
    return {
      revisionId: refs.head_sha,
      headSha: refs.head_sha,
      baseSha: refs.start_sha,
      mergeBaseSha: refs.base_sha ?? undefined,
    };
  }
  return undefined;
}

/** `acme/platform/app!42` → `app`: the project path, as in the project's URL. */
export function repositoryNameOf(mr: GlMergeRequest): string {
  const full = mr.references?.full ?? '';
  const projectPath = full.includes('!') ? full.slice(0, full.lastIndexOf('!')) : '';
  if (projectPath) return projectPath.slice(projectPath.lastIndexOf('/') + 1);
  const fromUrl = /\/([^/]+)\/-\/merge_requests\//.exec(mr.web_url ?? '');
  return fromUrl?.[1] ?? String(mr.project_id);
}

/** `acme/platform/app!42` → `acme/platform`: the namespace (group path) the project sits in. */
export function namespaceOf(mr: GlMergeRequest): string | undefined {
  const full = mr.references?.full ?? '';
  const projectPath = full.includes('!') ? full.slice(0, full.lastIndexOf('!')) : '';
  const slash = projectPath.lastIndexOf('/');
  return slash > 0 ? projectPath.slice(0, slash) : undefined;
}

export function toChangedFile(diff: GlDiff): ChangedFile {
  const file: ChangedFile = { path: diff.new_path, changeType: 'modified', rawChangeType: 'modified' };
  if (diff.new_file) Object.assign(file, { changeType: 'added', rawChangeType: 'new_file' });
  else if (diff.deleted_file) Object.assign(file, { changeType: 'deleted', rawChangeType: 'deleted_file' });
  else if (diff.renamed_file || diff.old_path !== diff.new_path) {
    Object.assign(file, { changeType: 'renamed', rawChangeType: 'renamed_file', previousPath: diff.old_path });
  }
  if (diff.diff) {
    if (/^Binary files /m.test(diff.diff)) file.isBinary = true;
    else {
      let additions = 0;
      let deletions = 0;
      for (const line of diff.diff.split('\n')) {
        if (line.startsWith('+')) additions += 1;
        else if (line.startsWith('-')) deletions += 1;
      }
      file.additions = additions;
      file.deletions = deletions;
    }
  }
  return file;
}

/** What `toThread` needs to know beyond the discussion itself. */
export interface ThreadContext {
  /** The merge request's current head: a DiffNote left on another head is outdated. */
  currentHeadSha: string | undefined;
  /** The connection's own GitLab user id, when known. */
  ownUserId: number | undefined;
}

/**
 * A review thread from a discussion, or `undefined` for one made only of system notes ("added 1
 * commit"). Individual notes are not resolvable in GitLab, so they always read as open.
 *
 * Outdated: on a push GitLab moves each DiffNote's `position` to the new head when its line is still
 * there, and leaves it on the old head when the line is gone; so a DiffNote whose `position.head_sha`
 * is not the merge request's current head points at code that changed.
 */
export function toThread(discussion: GlDiscussion, context: ThreadContext): ReviewThread | undefined {
  const notes = discussion.notes.filter((note) => !note.system);
  const first = notes[0];
  if (!first) return undefined;
  const resolvable = notes.filter((note) => note.resolvable);
  const resolved = resolvable.length > 0 && resolvable.every((note) => note.resolved === true);
  const thread: ReviewThread = {
    threadId: discussion.id,
    status: resolved ? 'resolved' : 'open',
    anchor: anchorOf(first.position),
    comments: notes.map(toComment),
  };
  if (resolvable.length > 0) thread.providerStatus = resolved ? 'resolved' : 'unresolved';
  const headSha = first.position?.head_sha;
  if (first.type === 'DiffNote' && headSha && context.currentHeadSha) {
    thread.isOutdated = headSha !== context.currentHeadSha;
  }
  if (context.ownUserId !== undefined) thread.authoredByConnection = first.author.id === context.ownUserId;
  return withMarkerRead(thread);
}

function toComment(note: GlNote): ThreadComment {
  return { commentId: String(note.id), author: toUser(note.author), body: note.body, createdAt: note.created_at };
}

/**
 * A text position as an anchor: on the new side when it names a new line (an added or unchanged
 * line), on the old side when it names only an old line (a removed line).
 */
function anchorOf(position: GlPosition | null | undefined): ThreadAnchor | undefined {
  if (!position || (position.position_type && position.position_type !== 'text')) return undefined;
  const range = position.line_range;
  const newEnd = range?.end?.new_line ?? position.new_line;
  if (newEnd) {
    const filePath = position.new_path ?? position.old_path;
    if (!filePath) return undefined;
    const start = range?.start?.new_line ?? newEnd;
    return withPrevious({ filePath, startLine: Math.min(start, newEnd), endLine: newEnd }, position);
  }
  const oldEnd = range?.end?.old_line ?? position.old_line;
  const filePath = position.new_path ?? position.old_path;
  if (!oldEnd || !filePath) return undefined;
  const start = range?.start?.old_line ?? oldEnd;
  return withPrevious({ filePath, startLine: Math.min(start, oldEnd), endLine: oldEnd, side: 'old' }, position);
}

function withPrevious(anchor: ThreadAnchor, position: GlPosition): ThreadAnchor {
  const old = position.old_path;
  return old && position.new_path && old !== position.new_path ? { ...anchor, previousPath: old } : anchor;
}
