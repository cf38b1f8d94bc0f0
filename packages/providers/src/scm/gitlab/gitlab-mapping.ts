import type {
  ChangedFile,
  FileContent,
  PullRequestStatus,
  ReviewThread,
  Revision,
  ScmUser,
  ThreadAnchor,
  ThreadComment,
} from '@margin/core';
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

/**
 * A review thread from a discussion, or `undefined` for one made only of system notes ("added 1
 * commit"). Individual notes are not resolvable in GitLab, so they always read as open.
 */
export function toThread(discussion: GlDiscussion): ReviewThread | undefined {
  const notes = discussion.notes.filter((note) => !note.system);
  const first = notes[0];
  if (!first) return undefined;
  const resolvable = notes.filter((note) => note.resolvable);
  const resolved = resolvable.length > 0 && resolvable.every((note) => note.resolved === true);
  return {
    threadId: discussion.id,
    status: resolved ? 'resolved' : 'open',
    anchor: anchorOf(first.position),
    comments: notes.map(toComment),
  };
}

function toComment(note: GlNote): ThreadComment {
  return { commentId: String(note.id), author: toUser(note.author), body: note.body, createdAt: note.created_at };
}

/** Only new-side text positions become anchors; a comment on a removed line has no new-side place. */
function anchorOf(position: GlPosition | null | undefined): ThreadAnchor | undefined {
  if (!position || (position.position_type && position.position_type !== 'text')) return undefined;
  const endLine = position.line_range?.end?.new_line ?? position.new_line;
  const filePath = position.new_path ?? position.old_path;
  if (!filePath || !endLine) return undefined;
  const startLine = position.line_range?.start?.new_line ?? endLine;
  return { filePath, startLine: Math.min(startLine, endLine), endLine };
}

/** Text when the bytes look like text; a NUL in the first 8 KiB marks a binary file, as git does. */
export function toFileContent(bytes: Uint8Array): FileContent {
  const isBinary = bytes.subarray(0, 8192).includes(0);
  return { text: isBinary ? '' : new TextDecoder().decode(bytes), sizeBytes: bytes.byteLength, isBinary };
}
