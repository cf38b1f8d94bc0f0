import type {
  ChangedFile,
  ChangeType,
  PullRequestStatus,
  ReviewThread,
  Revision,
  ScmUser,
  ThreadAnchor,
  ThreadStatus,
} from '@margin/core';
import { relativePath } from '../shared/index.js';

/**
 * The parts of Azure DevOps' REST shapes (git 7.1 specs) this adapter reads or writes, and the
 * mapping between them and the port. Field names are the wire's; nothing here does I/O.
 */

export interface AdoIdentityRef {
  id: string;
  displayName?: string;
  uniqueName?: string;
  descriptor?: string;
  isContainer?: boolean;
}

export interface AdoCommitRef {
  commitId: string;
}

export interface AdoRepositoryRef {
  id: string;
  name: string;
  project?: { id?: string; name: string };
  webUrl?: string;
  remoteUrl?: string;
}

export interface AdoPullRequest {
  pullRequestId: number;
  status: 'notSet' | 'active' | 'abandoned' | 'completed' | string;
  isDraft?: boolean;
  title: string;
  description?: string;
  sourceRefName: string;
  targetRefName: string;
  createdBy: AdoIdentityRef;
  creationDate?: string;
  repository: AdoRepositoryRef;
  lastMergeSourceCommit?: AdoCommitRef;
  lastMergeTargetCommit?: AdoCommitRef;
  reviewers?: AdoIdentityRef[];
}

export interface AdoIteration {
  id: number;
  sourceRefCommit?: AdoCommitRef;
  targetRefCommit?: AdoCommitRef;
  commonRefCommit?: AdoCommitRef;
  createdDate?: string;
}

export interface AdoChangeEntry {
  changeTrackingId: number;
  changeId?: number;
  changeType: string;
  item?: { path?: string; objectId?: string; originalObjectId?: string; isFolder?: boolean; gitObjectType?: string };
  originalPath?: string;
  sourceServerItem?: string;
}

export interface AdoIterationChanges {
  changeEntries: AdoChangeEntry[];
  nextSkip?: number;
  nextTop?: number;
}

export interface AdoFilePosition {
  line: number;
  offset: number;
}

export interface AdoComment {
  id: number;
  parentCommentId?: number;
  author: AdoIdentityRef;
  content?: string;
  commentType?: 'unknown' | 'text' | 'codeChange' | 'system' | string;
  isDeleted?: boolean;
  publishedDate?: string;
}

export interface AdoThread {
  id: number;
  status?: string;
  isDeleted?: boolean;
  threadContext?: {
    filePath: string;
    rightFileStart?: AdoFilePosition | null;
    rightFileEnd?: AdoFilePosition | null;
    leftFileStart?: AdoFilePosition | null;
    leftFileEnd?: AdoFilePosition | null;
  } | null;
  pullRequestThreadContext?: {
    changeTrackingId?: number;
    iterationContext?: { firstComparingIteration: number; secondComparingIteration: number };
  } | null;
  comments: AdoComment[];
}

export interface AdoList<T> {
  count?: number;
  value: T[];
}

export interface AdoIdentity {
  id: string;
  descriptor?: string;
  providerDisplayName?: string;
  customDisplayName?: string;
  isActive?: boolean;
  properties?: Record<string, { $type?: string; $value?: unknown } | undefined>;
}

/** A request body for `POST …/threads`, exactly as Azure DevOps takes it. */
export interface AdoNewThread {
  comments: Array<{ parentCommentId: 0; content: string; commentType: 'text' }>;
  status: 'active' | 'fixed' | 'closed';
  threadContext?: {
    filePath: string;
    rightFileStart: AdoFilePosition;
    rightFileEnd: AdoFilePosition;
  };
  pullRequestThreadContext?: {
    changeTrackingId?: number;
    iterationContext: { firstComparingIteration: number; secondComparingIteration: number };
  };
}

/** Service identities (build service, service principals) carry these subject descriptor prefixes. */
const BOT_DESCRIPTORS = ['svc.', 's2s.', 'aadsp.'];

export function toUser(ref: AdoIdentityRef): ScmUser {
  return {
    externalUserId: ref.id,
    login: ref.uniqueName ?? ref.displayName ?? ref.id,
    displayName: ref.displayName ?? ref.uniqueName ?? ref.id,
    isBot: BOT_DESCRIPTORS.some((prefix) => ref.descriptor?.startsWith(prefix) ?? false),
  };
}

export function identityToUser(identity: AdoIdentity): ScmUser {
  const account = identity.properties?.Account?.$value;
  const mail = identity.properties?.Mail?.$value;
  const displayName = identity.customDisplayName ?? identity.providerDisplayName ?? identity.id;
  const login =
    typeof account === 'string' && account ? account : typeof mail === 'string' && mail ? mail : displayName;
  const descriptor = identity.descriptor ?? '';
  return {
    externalUserId: identity.id,
    login,
    displayName,
    isBot:
      descriptor.startsWith('Microsoft.TeamFoundation.ServiceIdentity') ||
      descriptor.startsWith('Microsoft.VisualStudio.Services.Claims.AadServicePrincipal'),
  };
}

/** `completed` is merged; anything else that is not `active` counts as closed. */
export function pullRequestStatus(status: string): PullRequestStatus {
  if (status === 'active') return 'open';
  if (status === 'completed') return 'merged';
  return 'closed';
}

export function toRevision(iteration: AdoIteration, fallback: { head: string; base: string }): Revision {
  return {
    revisionId: String(iteration.id),
    headSha: iteration.sourceRefCommit?.commitId ?? fallback.head,
    baseSha: iteration.targetRefCommit?.commitId ?? fallback.base,
    mergeBaseSha: iteration.commonRefCommit?.commitId,
    createdAt: iteration.createdDate,
  };
}

/**
 * `changeType` is a flags enum rendered as a comma list (`"edit, rename"`). A delete wins, then an
 * add, then a rename; everything else (`edit`, `encoding`, `property`, …) is a modification.
 */
export function changeTypeOf(raw: string): ChangeType {
  const flags = new Set(raw.split(',').map((flag) => flag.trim().toLowerCase()));
  if (flags.has('delete')) return 'deleted';
  if (flags.has('add') || flags.has('undelete') || flags.has('branch')) return 'added';
  if (flags.has('rename') || flags.has('sourcerename') || flags.has('targetrename')) return 'renamed';
  return 'modified';
}

/** `undefined` for folder entries, which are not files to review. */
export function toChangedFile(entry: AdoChangeEntry): ChangedFile | undefined {
  const path = entry.item?.path;
  if (!path || entry.item?.isFolder || entry.item?.gitObjectType === 'tree') return undefined;
  const changeType = changeTypeOf(entry.changeType);
  const original = entry.originalPath ?? entry.sourceServerItem;
  return {
    path: relativePath(path),
    previousPath: changeType === 'renamed' && original ? relativePath(original) : undefined,
    changeType,
    rawChangeType: entry.changeType,
  };
}

/** `active` and `pending` (and `unknown`) are open; `fixed`, `wontFix`, `closed`, `byDesign` resolved. */
export function threadStatus(status: string | undefined): ThreadStatus {
  return status === 'fixed' || status === 'wontFix' || status === 'closed' || status === 'byDesign'
    ? 'resolved'
    : 'open';
}

/**
 * A review thread as the port sees it, or `undefined` for what is not a conversation: deleted
 * threads and the system threads Azure DevOps writes for votes, pushes and status changes.
 */
export function toReviewThread(thread: AdoThread): ReviewThread | undefined {
  if (thread.isDeleted) return undefined;
  const comments = thread.comments
    .filter((c) => !c.isDeleted && c.commentType !== 'system')
    .map((c) => ({
      commentId: String(c.id),
      author: toUser(c.author),
      body: c.content ?? '',
      createdAt: c.publishedDate ?? '',
    }));
  if (comments.length === 0) return undefined;
  return { threadId: String(thread.id), status: threadStatus(thread.status), anchor: anchorOf(thread), comments };
}

/** Only new-side (right) positions make an anchor; old-side or file-level threads have none in the port. */
function anchorOf(thread: AdoThread): ThreadAnchor | undefined {
  const context = thread.threadContext;
  const start = context?.rightFileStart;
  if (!context?.filePath || !start) return undefined;
  return {
    filePath: relativePath(context.filePath),
    startLine: start.line,
    endLine: context.rightFileEnd?.line ?? start.line,
  };
}

/**
 * An inline thread on the new side, pinned to the iteration pair `1 → revision` so Azure DevOps shows
 * it against the whole pull request diff and tracks its position through later pushes.
 */
export function inlineThreadBody(input: {
  body: string;
  anchor: ThreadAnchor;
  iterationId: number | undefined;
  changeTrackingId: number | undefined;
  status: ThreadStatus | undefined;
}): AdoNewThread {
  const thread: AdoNewThread = {
    comments: [{ parentCommentId: 0, content: input.body, commentType: 'text' }],
    status: input.status === 'resolved' ? 'fixed' : 'active',
    threadContext: {
      filePath: `/${relativePath(input.anchor.filePath)}`,
      rightFileStart: { line: input.anchor.startLine, offset: 1 },
      rightFileEnd: { line: input.anchor.endLine, offset: 1 },
    },
  };
  if (input.iterationId !== undefined) {
    thread.pullRequestThreadContext = {
      ...(input.changeTrackingId !== undefined ? { changeTrackingId: input.changeTrackingId } : {}),
      iterationContext: { firstComparingIteration: 1, secondComparingIteration: input.iterationId },
    };
  }
  return thread;
}

/** A pull-request-level thread; resolved means `closed`, which keeps it off the active-comments count. */
export function pullRequestThreadBody(body: string, status: ThreadStatus | undefined): AdoNewThread {
  return {
    comments: [{ parentCommentId: 0, content: body, commentType: 'text' }],
    status: status === 'resolved' ? 'closed' : 'active',
  };
}

/** The iteration id a port revision carries (`revisionId`), when it is one. */
export function iterationIdOf(revisionId: string): number | undefined {
  return /^[1-9]\d*$/.test(revisionId) ? Number(revisionId) : undefined;
}
