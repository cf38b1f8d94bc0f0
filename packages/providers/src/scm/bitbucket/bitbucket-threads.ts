import type { ReviewThread, ThreadAnchor } from '@margin/core/spec';
import { withMarkerRead } from '../shared/index.js';
import { toUser } from './bitbucket-mapping.js';
import type { BbComment, BbInline } from './bitbucket-wire.js';

/**
 * Bitbucket has comments, not threads: a thread is a top-level comment plus every comment that
 * replies to it, directly or through another reply (`parent.id`). Resolution lives on the top-level
 * comment. Deleted comments still link replies to their thread but are not shown; drafts (`pending`)
 * are not published yet and are left out. `ownUserId` (the connection's account uuid, when known)
 * tells which threads the connection wrote; `inline.outdated` which point at changed lines.
 */
export function threadsFromComments(comments: readonly BbComment[], ownUserId?: string | undefined): ReviewThread[] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const rootOf = (comment: BbComment): BbComment => {
    let current = comment;
    const seen = new Set<number>();
    while (current.parent && !seen.has(current.id)) {
      seen.add(current.id);
      const parent = byId.get(current.parent.id);
      if (!parent) break;
      current = parent;
    }
    return current;
  };
  const threads = new Map<number, { root: BbComment; members: BbComment[] }>();
  for (const comment of [...comments].sort((a, b) => a.id - b.id)) {
    const root = rootOf(comment);
    const thread = threads.get(root.id) ?? { root, members: [] };
    threads.set(root.id, thread);
    if (!comment.deleted && !comment.pending) thread.members.push(comment);
  }
  const out: ReviewThread[] = [];
  for (const { root, members } of threads.values()) {
    if (members.length === 0 || root.pending) continue;
    const thread: ReviewThread = {
      threadId: String(root.id),
      status: root.resolution ? 'resolved' : 'open',
      providerStatus: root.resolution ? 'resolved' : 'unresolved',
      anchor: anchorOf(root.inline),
      comments: members.map((c) => ({
        commentId: String(c.id),
        author: toUser(c.user),
        body: c.content.raw,
        createdAt: c.created_on,
      })),
    };
    if (typeof root.inline?.outdated === 'boolean') thread.isOutdated = root.inline.outdated;
    const first = members[0];
    if (ownUserId !== undefined && first) thread.authoredByConnection = first.user?.uuid === ownUserId;
    out.push(withMarkerRead(thread));
  }
  return out;
}

/** `inline.to` is a new-file line; `inline.from` alone an old-file line (a comment on a removed line). */
function anchorOf(inline: BbInline | null | undefined): ThreadAnchor | undefined {
  if (!inline) return undefined;
  if (inline.to) {
    const start = inline.start_to ?? inline.to;
    return { filePath: inline.path, startLine: Math.min(start, inline.to), endLine: inline.to };
  }
  if (!inline.from) return undefined;
  const start = inline.start_from ?? inline.from;
  return { filePath: inline.path, startLine: Math.min(start, inline.from), endLine: inline.from, side: 'old' };
}
