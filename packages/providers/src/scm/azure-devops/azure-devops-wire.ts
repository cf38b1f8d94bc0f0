import type {
  ChangedFile,
  ChangeType,
  CommitComparison,
  PullRequestStatus,
  ReviewThread,
  Revision,
  ScmUser,
  ThreadAnchor,
  ThreadClosure,
  ThreadStatus,
} from '@margin/core/spec';
import { assertThreadMarker, relationFromMergeBase, relativePath } from '../shared/index.js';

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

/** An entry of `diffs/commits`: a change without iteration tracking. */
export type AdoChange = Omit<AdoChangeEntry, 'changeTrackingId' | 'changeId'>;

/** `GET …/diffs/commits`: `aheadCount` counts commits of the target past the common commit, `behindCount` those of the base. */
export interface AdoCommitDiffs {
  aheadCount?: number;
  behindCount?: number;
  commonCommit?: string;
  baseCommit?: string;
  targetCommit?: string;
  allChangesIncluded?: boolean;
  changes?: AdoChange[];
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

/** A thread's property bag: `{ key: { $type, $value } }`. */
export type AdoProperties = Record<string, { $type?: string; $value?: unknown } | undefined>;

export interface AdoThreadContext {
  filePath: string;
  rightFileStart?: AdoFilePosition | null;
  rightFileEnd?: AdoFilePosition | null;
  leftFileStart?: AdoFilePosition | null;
  leftFileEnd?: AdoFilePosition | null;
}

export interface AdoThread {
  id: number;
  status?: string;
  isDeleted?: boolean;
  threadContext?: AdoThreadContext | null;
  properties?: AdoProperties | null;
  pullRequestThreadContext?: {
    changeTrackingId?: number;
    iterationContext?: { firstComparingIteration: number; secondComparingIteration: number };
  } | null;
  comments: AdoComment[];
}

/** One wiki of `GET {P}/_apis/wiki/wikis` (WikiV2). */
export interface AdoWiki {
  id: string;
  name: string;
  /** `projectWiki` or `codeWiki`. */
  type: string;
  /** The git repository behind the wiki. */
  repositoryId: string;
  /** The folder shown as the wiki, `/` for a project wiki. */
  mappedPath?: string | undefined;
  /** Branches the wiki is published from (`GitVersionDescriptor`s; a project wiki: `wikiMaster`). */
  versions?: Array<{ version?: string | undefined; versionType?: string | undefined }> | undefined;
  projectId?: string | undefined;
  remoteUrl?: string | undefined;
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
  threadContext?: AdoThreadContext;
  pullRequestThreadContext?: {
    changeTrackingId?: number;
    iterationContext: { firstComparingIteration: number; secondComparingIteration: number };
  };
  properties?: AdoProperties;
}

/**
 * Where the hidden marker lives: a thread property, which Azure DevOps keeps with the thread and never
 * shows, so comment bodies stay exactly what readers see.
 */
export const MARKER_PROPERTY = 'margin.marker';

function markerProperties(marker: string | undefined): { properties?: AdoProperties } {
  if (marker === undefined) return {};
  assertThreadMarker(marker);
  return { properties: { [MARKER_PROPERTY]: { $type: 'System.String', $value: marker } } };
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
export function toChangedFile(entry: AdoChange): ChangedFile | undefined {
  const path = entry.item?.path;
  if (!path || entry.item?.isFolder || entry.item?.gitObjectType === 'tree') return undefined;
  const changeType = changeTypeOf(entry.changeType);
  const original = entry.originalPath ?? entry.sourceServerItem;
  return {
    path: relativePath(path),
    previousPath: changeType === 'renamed' && original ? relativePath(original) : undefined,
    changeType,
    rawChangeType: entry.changeType,
    oldBlobId: changeType === 'added' ? undefined : entry.item?.originalObjectId,
    newBlobId: changeType === 'deleted' ? undefined : entry.item?.objectId,
  };
}

/** `diffs/commits` counts as a relation; from = base version, to = target version. */
export function relationOf(diffs: AdoCommitDiffs, fromSha: string, toSha: string): CommitComparison['relation'] {
  if (fromSha === toSha) return 'identical';
  const { aheadCount: ahead, behindCount: behind } = diffs;
  if (ahead === undefined || behind === undefined) {
    // Without counts only the common commit tells, and only when it is one of the two: a third
    // commit or none is left `unknown` rather than called diverged.
    const relation = relationFromMergeBase(fromSha, toSha, diffs.commonCommit ?? null);
    return relation === 'diverged' ? 'unknown' : relation;
  }
  if (ahead > 0) return behind > 0 ? 'diverged' : 'ahead';
  return behind > 0 ? 'behind' : 'identical';
}

const CLOSURES: readonly string[] = ['fixed', 'wontFix', 'byDesign', 'closed'] satisfies ThreadClosure[];

/** `fixed`, `wontFix`, `byDesign` and `closed` say how a thread was closed; anything else is open. */
export function closureOf(status: string | undefined): ThreadClosure | undefined {
  return status !== undefined && CLOSURES.includes(status) ? (status as ThreadClosure) : undefined;
}

/** `active` and `pending` (and `unknown`) are open; `fixed`, `wontFix`, `closed`, `byDesign` resolved. */
export function threadStatus(status: string | undefined): ThreadStatus {
  return closureOf(status) ? 'resolved' : 'open';
}

/**
 * A review thread as the port sees it, or `undefined` for what is not a conversation: deleted
 * threads and the system threads Azure DevOps writes for votes, pushes and status changes.
 */
export function toReviewThread(thread: AdoThread, connectionUserId: string | undefined): ReviewThread | undefined {
  if (thread.isDeleted) return undefined;
  const written = thread.comments.filter((c) => !c.isDeleted && c.commentType !== 'system');
  const comments = written.map((c) => ({
    commentId: String(c.id),
    author: toUser(c.author),
    body: c.content ?? '',
    createdAt: c.publishedDate ?? '',
  }));
  if (comments.length === 0) return undefined;
  const marker = thread.properties?.[MARKER_PROPERTY]?.$value;
  return {
    threadId: String(thread.id),
    status: threadStatus(thread.status),
    anchor: anchorOf(thread),
    comments,
    marker: typeof marker === 'string' ? marker : undefined,
    providerStatus: thread.status,
    closedAs: closureOf(thread.status),
    authoredByConnection: connectionUserId !== undefined && written[0]?.author.id === connectionUserId,
  };
}

/** Right positions anchor on the new side, left ones on the old; a file-level thread has no anchor. */
function anchorOf(thread: AdoThread): ThreadAnchor | undefined {
  const context = thread.threadContext;
  if (!context?.filePath) return undefined;
  const side = context.rightFileStart ? 'new' : context.leftFileStart ? 'old' : undefined;
  const start = side === 'new' ? context.rightFileStart : context.leftFileStart;
  if (!side || !start) return undefined;
  const end = side === 'new' ? context.rightFileEnd : context.leftFileEnd;
  return { filePath: relativePath(context.filePath), startLine: start.line, endLine: end?.line ?? start.line, side };
}

/**
 * An inline thread on the right (new) or left (old) side, pinned to the iteration pair `1 → revision`
 * so Azure DevOps shows it against the whole pull request diff and tracks its position through later
 * pushes. Azure DevOps takes a comment on any line of the file, not only on lines of the diff.
 */
export function inlineThreadBody(input: {
  body: string;
  anchor: ThreadAnchor;
  iterationId: number | undefined;
  changeTrackingId: number | undefined;
  status: ThreadStatus | undefined;
  marker?: string | undefined;
}): AdoNewThread {
  const { anchor } = input;
  const start = { line: anchor.startLine, offset: 1 };
  const end = { line: anchor.endLine, offset: 1 };
  const thread: AdoNewThread = {
    comments: [{ parentCommentId: 0, content: input.body, commentType: 'text' }],
    status: input.status === 'resolved' ? 'fixed' : 'active',
    threadContext: {
      filePath: `/${relativePath(anchor.filePath)}`,
      ...(anchor.side === 'old'
        ? { leftFileStart: start, leftFileEnd: end }
        : { rightFileStart: start, rightFileEnd: end }),
    },
    ...markerProperties(input.marker),
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
export function pullRequestThreadBody(
  body: string,
  status: ThreadStatus | undefined,
  marker?: string | undefined,
): AdoNewThread {
  return {
    comments: [{ parentCommentId: 0, content: body, commentType: 'text' }],
    status: status === 'resolved' ? 'closed' : 'active',
    ...markerProperties(marker),
  };
}

/** The iteration id a port revision carries (`revisionId`), when it is one. */
export function iterationIdOf(revisionId: string): number | undefined {
  return /^[1-9]\d*$/.test(revisionId) ? Number(revisionId) : undefined;
}
