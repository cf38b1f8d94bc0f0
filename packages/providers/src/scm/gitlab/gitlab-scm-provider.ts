import {
  type ChangedFile,
  type CommitComparison,
  type CommitStatusInput,
  type CreatedThread,
  type CreateThreadInput,
  type CreateThreadOutcome,
  type EditCommentInput,
  type FileContent,
  type FileDiff,
  type ListChangedFilesOptions,
  MarginError,
  type PullRequestRef,
  type PullRequestSnapshot,
  type PullRequestSummary,
  type RepositoryRef,
  type ReviewThread,
  type Revision,
  type ScmAccount,
  type ScmCallOptions,
  type ScmProject,
  type ScmProviderV1,
  type ScmRepository,
  type ScmScopeRef,
  type ScmUser,
  type ThreadAnchor,
  type ThreadStatus,
  type TreeEntry,
} from '@margin/core/spec';
import { encodeSegment, type HttpTuning, normalizeTreePrefix } from '../../utils/index.js';
import {
  createThreadsOneByOne,
  decodeFile,
  refusedThread,
  relationFromMergeBase,
  sameCommit,
  withHiddenMarker,
} from '../shared/index.js';
import { createGitLabClient, type GitLabClient, gitLabApiBase, groupPathFromScope } from './gitlab-client.js';
import { setGitLabCommitStatus } from './gitlab-commit-status.js';
import { compareTruncation, GitLabDiffs, mrPath } from './gitlab-diffs.js';
import {
  currentRevision,
  namespaceOf,
  repositoryNameOf,
  revisionFromVersion,
  type ThreadContext,
  toChangedFile,
  toStatus,
  toThread,
  toUser,
} from './gitlab-mapping.js';
import { lineMapFromDiff, type PlaceLine, textPosition } from './gitlab-position.js';
import type {
  GlBranch,
  GlCommit,
  GlDiscussion,
  GlGroup,
  GlMergeRequest,
  GlNote,
  GlProject,
  GlTreeEntry,
  GlUser,
  GlVersion,
} from './gitlab-wire.js';

export interface GitLabProviderOptions {
  /** `https://gitlab.com` or a self-managed instance, e.g. `https://gitlab.example.com/gitlab`. */
  hostBaseUrl: string;
  /** Personal, project or group access token (scope `api`). */
  token: string;
  /** REST base; default `<hostBaseUrl>/api/v4`. */
  apiBaseUrl?: string | undefined;
  fetch?: typeof fetch | undefined;
  http?: HttpTuning | undefined;
}

const USER_SEARCH_LIMIT = 20;

/** `ScmProviderV1` for GitLab.com and self-managed GitLab, REST v4. */
export function createGitLabProvider(options: GitLabProviderOptions): ScmProviderV1 {
  const client = createGitLabClient({
    apiBaseUrl: options.apiBaseUrl ?? gitLabApiBase(options.hostBaseUrl),
    token: options.token,
    fetch: options.fetch,
    http: options.http,
  });
  return new GitLabScmProvider(client, options.hostBaseUrl);
}

class GitLabScmProvider implements ScmProviderV1 {
  readonly specificationVersion = 'v1' as const;
  readonly family = 'gitHostB' as const;
  private readonly diffs: GitLabDiffs;
  /** The connection's own account, read once from `GET /user` (the token never changes owner). */
  private ownUser: GlUser | undefined;

  constructor(
    private readonly client: GitLabClient,
    private readonly hostBaseUrl: string,
  ) {
    this.diffs = new GitLabDiffs(client);
  }

  async verify(options?: ScmCallOptions): Promise<ScmAccount> {
    const user = await this.client.get<GlUser>('/user', undefined, options?.signal);
    this.ownUser = user;
    return { login: user.username, displayName: user.name || user.username };
  }

  async getPullRequest(ref: PullRequestRef, options?: ScmCallOptions): Promise<PullRequestSnapshot> {
    const signal = options?.signal;
    const mr = await this.client.get<GlMergeRequest>(mrPath(ref), undefined, signal);
    const revision = currentRevision(mr, await this.newestVersion(ref, signal));
    if (!revision) {
      throw MarginError.provider('unavailable', `GitLab has not prepared the diff of merge request !${mr.iid} yet.`);
    }
    return {
      ref: { ...ref, pullRequestId: mr.iid },
      title: mr.title,
      description: mr.description ?? '',
      status: toStatus(mr.state),
      isDraft: mr.draft ?? mr.work_in_progress ?? false,
      sourceBranch: mr.source_branch,
      targetBranch: mr.target_branch,
      author: toUser(mr.author),
      revision,
      repositoryName: repositoryNameOf(mr),
      repositoryOwner: namespaceOf(mr),
      webUrl: mr.web_url,
      reviewers: mr.reviewers?.map(toUser),
    };
  }

  /** Merge request versions, oldest first (GitLab lists them newest first). */
  async listRevisions(ref: PullRequestRef, options?: ScmCallOptions): Promise<Revision[]> {
    const revisions: Revision[] = [];
    for await (const page of this.client.pages<GlVersion>(`${mrPath(ref)}/versions`, {}, 1, options?.signal)) {
      revisions.push(...page.map(revisionFromVersion));
    }
    return revisions.reverse();
  }

  /**
   * GitLab names no blob ids in `/diffs` or compare answers, so `oldBlobId`/`newBlobId` stay unset.
   * A version GitLab cut at its diff limits (`state: overflow`) or a comparison that timed out is
   * reported through `onTruncated`; a single file's `too_large`/`collapsed` diff is not a cap on the
   * listing (the file is listed, and `getFileDiff` deals with its diff).
   */
  async *listChangedFiles(
    ref: PullRequestRef,
    revision: Revision,
    options?: ListChangedFilesOptions,
  ): AsyncIterable<ChangedFile> {
    for await (const diff of this.diffs.changedDiffs(ref, revision, options?.signal, options?.onTruncated)) {
      yield toChangedFile(diff);
    }
  }

  /**
   * The files that differ between the two commits come from a direct comparison (`straight=true`):
   * after a force push, what GitLab's default merge-base comparison lists is what the new head added
   * since the two heads parted, not what differs between them. The relation comes from their merge
   * base (`repository/merge_base`; a 404 there means the two share no history).
   */
  async compareCommits(
    ref: RepositoryRef,
    fromSha: string,
    toSha: string,
    options?: ScmCallOptions,
  ): Promise<CommitComparison> {
    if (sameCommit(fromSha, toSha)) return { relation: 'identical', files: [] };
    const signal = options?.signal;
    const [compare, mergeBase] = await Promise.all([
      this.diffs.compare(ref.repositoryId, fromSha, toSha, signal),
      this.client.request<GlCommit>({
        path: `/projects/${encodeSegment(ref.repositoryId)}/repository/merge_base?refs[]=${encodeSegment(fromSha)}&refs[]=${encodeSegment(toSha)}`,
        allowStatuses: [404],
        signal,
      }),
    ]);
    const files = (compare.diffs ?? []).map(toChangedFile);
    const comparison: CommitComparison = {
      relation: relationFromMergeBase(fromSha, toSha, mergeBase.status === 404 ? null : mergeBase.data.id),
      files,
    };
    if (compare.compare_timeout) comparison.truncation = compareTruncation(files.length);
    return comparison;
  }

  async getFileContent(
    ref: RepositoryRef,
    path: string,
    version: string | { branch: string },
    options?: ScmCallOptions,
  ): Promise<FileContent | undefined> {
    const res = await this.client.request<Uint8Array>({
      path: `/projects/${encodeSegment(ref.repositoryId)}/repository/files/${encodeSegment(path)}/raw`,
      // `ref` takes a commit SHA or a branch name alike.
      query: { ref: typeof version === 'string' ? version : version.branch },
      responseType: 'bytes',
      allowStatuses: [404],
      signal: options?.signal,
    });
    return res.status === 404 ? undefined : decodeFile(res.data);
  }

  async getFileDiff(
    ref: PullRequestRef,
    file: ChangedFile,
    revision: Revision,
    options?: ScmCallOptions,
  ): Promise<FileDiff> {
    const signal = options?.signal;
    const entry = await this.diffs.find(ref, revision, file.path, signal);
    return this.diffs.unifiedDiff(file, revision, entry, (path, sha) => this.getFileContent(ref, path, sha, options));
  }

  async *listThreads(ref: PullRequestRef, options?: ScmCallOptions): AsyncIterable<ReviewThread> {
    const signal = options?.signal;
    let context: ThreadContext | undefined;
    for await (const page of this.client.pages<GlDiscussion>(`${mrPath(ref)}/discussions`, {}, 1, signal)) {
      for (const discussion of page) {
        // Read once, and only for a merge request that has human or bot comments to judge.
        context ??= await this.threadContext(ref, signal);
        const thread = toThread(discussion, context);
        if (thread) yield thread;
      }
    }
  }

  /**
   * An inline thread is a discussion with a full text position built from GitLab's own diff of the
   * file at the revision. A position GitLab refuses (400: a line outside the diff, old/new lines that
   * do not match the line) is a refused thread, never quietly posted without its place.
   */
  async createThread(ref: PullRequestRef, input: CreateThreadInput, options?: ScmCallOptions): Promise<CreatedThread> {
    return this.createOne(ref, input, new Map(), options?.signal);
  }

  async createThreads(
    ref: PullRequestRef,
    input: { revision: Revision; threads: Array<Omit<CreateThreadInput, 'revision'>> },
    options?: ScmCallOptions,
  ): Promise<CreateThreadOutcome[]> {
    // One diff read per file for the whole batch.
    const placed = new Map<string, Promise<Placement>>();
    return createThreadsOneByOne(
      input.threads,
      (thread) => this.createOne(ref, { ...thread, revision: input.revision }, placed, options?.signal),
      options?.signal,
    );
  }

  /** `PUT {M}/notes/:id` edits any note of the merge request, a discussion's included. */
  async editComment(ref: PullRequestRef, input: EditCommentInput, options?: ScmCallOptions): Promise<void> {
    await this.client.request({
      method: 'PUT',
      path: `${mrPath(ref)}/notes/${encodeSegment(noteNumber(input.commentId))}`,
      json: { body: withHiddenMarker(input.body, input.marker, MARKER_STYLE) },
      responseType: 'none',
      signal: options?.signal,
    });
  }

  async reply(
    ref: PullRequestRef,
    threadId: string,
    body: string,
    options?: ScmCallOptions,
  ): Promise<{ commentId: string }> {
    const note = await this.post<GlNote>(
      `${mrPath(ref)}/discussions/${encodeSegment(threadId)}/notes`,
      { body },
      options?.signal,
    );
    return { commentId: String(note.id) };
  }

  async setThreadStatus(
    ref: PullRequestRef,
    threadId: string,
    status: ThreadStatus,
    options?: ScmCallOptions,
  ): Promise<void> {
    await this.client.request({
      method: 'PUT',
      path: `${mrPath(ref)}/discussions/${encodeSegment(threadId)}`,
      json: { resolved: status === 'resolved' },
      signal: options?.signal,
    });
  }

  async *listOpenPullRequests(
    scope: ScmScopeRef & { repositoryId?: string | undefined },
    options?: ScmCallOptions,
  ): AsyncIterable<PullRequestSummary> {
    const signal = options?.signal;
    const path = scope.repositoryId
      ? `/projects/${encodeSegment(scope.repositoryId)}/merge_requests`
      : `/groups/${encodeSegment(scope.projectKey)}/merge_requests`;
    for await (const page of this.client.pages<GlMergeRequest>(path, { state: 'opened', scope: 'all' }, 1, signal)) {
      for (const mr of page) {
        const summary = await this.summaryOf(scope, mr, signal);
        if (summary) yield summary;
      }
    }
  }

  /** The group the scope names, then every subgroup beneath it. */
  async *listProjects(scopePath: string, options?: ScmCallOptions): AsyncIterable<ScmProject> {
    const signal = options?.signal;
    const group = await this.client.get<GlGroup>(
      `/groups/${encodeSegment(groupPathFromScope(scopePath, this.hostBaseUrl))}`,
      undefined,
      signal,
    );
    yield { projectKey: group.full_path, name: group.full_name ?? group.name };
    for await (const page of this.client.pages<GlGroup>(`/groups/${group.id}/descendant_groups`, {}, 1, signal)) {
      for (const sub of page) yield { projectKey: sub.full_path, name: sub.full_name ?? sub.name };
    }
  }

  async *listRepositories(scope: ScmScopeRef, options?: ScmCallOptions): AsyncIterable<ScmRepository> {
    const query = { include_subgroups: true, archived: false, simple: true, order_by: 'id', sort: 'asc' };
    const path = `/groups/${encodeSegment(scope.projectKey)}/projects`;
    for await (const page of this.client.pages<GlProject>(path, query, 1, options?.signal)) {
      for (const project of page) {
        yield {
          repositoryId: String(project.id),
          name: project.path,
          projectKey: scope.projectKey,
          defaultBranch: project.default_branch ?? undefined,
          webUrl: project.web_url,
        };
      }
    }
  }

  async *listBranches(ref: RepositoryRef, options?: ScmCallOptions): AsyncIterable<string> {
    const path = `/projects/${encodeSegment(ref.repositoryId)}/repository/branches`;
    for await (const page of this.client.pages<GlBranch>(path, {}, 1, options?.signal)) {
      for (const branch of page) yield branch.name;
    }
  }

  async getBranchHead(ref: RepositoryRef, branch: string, options?: ScmCallOptions): Promise<string | undefined> {
    const res = await this.client.request<GlBranch>({
      path: `/projects/${encodeSegment(ref.repositoryId)}/repository/branches/${encodeSegment(branch)}`,
      allowStatuses: [404],
      signal: options?.signal,
    });
    return res.status === 404 ? undefined : res.data.commit?.id;
  }

  /**
   * The recursive tree at a commit, keyset-paged. GitLab answers 404 for a path that is not a
   * directory at that commit, which is an empty listing here. Submodules (`commit`) and directories
   * (`tree`) are left out; GitLab names no sizes.
   */
  async *listTree(
    ref: RepositoryRef,
    commitSha: string,
    options?: ScmCallOptions & { pathPrefix?: string | undefined },
  ): AsyncIterable<TreeEntry> {
    const prefix = normalizeTreePrefix(options?.pathPrefix);
    const query = { recursive: true, ref: commitSha, ...(prefix ? { path: prefix } : {}) };
    const path = `/projects/${encodeSegment(ref.repositoryId)}/repository/tree`;
    const pages = this.client.keysetPages<GlTreeEntry>(path, query, {
      signal: options?.signal,
      emptyOnStatuses: [404],
    });
    for await (const page of pages) {
      for (const entry of page) if (entry.type === 'blob') yield { path: entry.path, blobId: entry.id };
    }
  }

  /** GitLab's own user search (username, name, public email); one page is plenty for a picker. */
  async searchUsers(_scopePath: string, search: string, options?: ScmCallOptions): Promise<ScmUser[]> {
    const query = { search, active: true, per_page: USER_SEARCH_LIMIT };
    const users = await this.client.get<GlUser[]>('/users', query, options?.signal);
    return users.map(toUser);
  }

  async setCommitStatus(ref: PullRequestRef, input: CommitStatusInput, options?: ScmCallOptions): Promise<void> {
    await setGitLabCommitStatus(this.client, ref, input, options?.signal);
  }

  private async newestVersion(ref: PullRequestRef, signal: AbortSignal | undefined): Promise<GlVersion | undefined> {
    const [newest] = await this.client.get<GlVersion[]>(`${mrPath(ref)}/versions`, { per_page: 1, page: 1 }, signal);
    return newest;
  }

  /**
   * List answers carry no `diff_refs`, so the newest version supplies the revision (one call per open
   * merge request; it keeps revision ids the same as `getPullRequest` gives).
   */
  private async summaryOf(
    scope: ScmScopeRef,
    mr: GlMergeRequest,
    signal: AbortSignal | undefined,
  ): Promise<PullRequestSummary | undefined> {
    if (!mr.sha) return undefined; // no commits yet: nothing to review
    const ref: PullRequestRef = {
      scopePath: scope.scopePath,
      projectKey: scope.projectKey,
      repositoryId: String(mr.project_id),
      pullRequestId: mr.iid,
    };
    const revision = currentRevision(mr, await this.newestVersion(ref, signal)) ?? {
      revisionId: mr.sha,
      headSha: mr.sha,
      baseSha: '',
    };
    return {
      ref,
      title: mr.title,
      status: toStatus(mr.state),
      isDraft: mr.draft ?? mr.work_in_progress ?? false,
      sourceBranch: mr.source_branch,
      targetBranch: mr.target_branch,
      revision,
      repositoryName: repositoryNameOf(mr),
      repositoryOwner: namespaceOf(mr),
      reviewers: mr.reviewers?.map(toUser),
    };
  }

  /** The current head (for outdated DiffNotes) and the connection's own user, read once per listing. */
  private async threadContext(ref: PullRequestRef, signal: AbortSignal | undefined): Promise<ThreadContext> {
    const [mr, own] = await Promise.all([
      this.client.get<GlMergeRequest>(mrPath(ref), undefined, signal),
      this.ownAccount(signal),
    ]);
    return { currentHeadSha: mr.diff_refs?.head_sha ?? mr.sha ?? undefined, ownUserId: own.id };
  }

  private async ownAccount(signal: AbortSignal | undefined): Promise<GlUser> {
    this.ownUser ??= await this.client.get<GlUser>('/user', undefined, signal);
    return this.ownUser;
  }

  private async createOne(
    ref: PullRequestRef,
    input: CreateThreadInput,
    placed: Map<string, Promise<Placement>>,
    signal: AbortSignal | undefined,
  ): Promise<CreatedThread> {
    const body = withHiddenMarker(input.body, input.marker, MARKER_STYLE);
    let created: CreatedThread;
    if (!input.anchor) created = await this.createNote(ref, body, signal);
    else {
      const anchor = input.anchor;
      const key = `${anchor.filePath}\u0000${anchor.previousPath ?? ''}`;
      let placement = placed.get(key);
      if (!placement) {
        placement = this.placement(ref, input.revision, anchor, signal);
        placed.set(key, placement);
      }
      const { oldPath, place } = await placement;
      const position = textPosition(anchor, input.revision, oldPath, place);
      let discussion: GlDiscussion;
      try {
        discussion = await this.post<GlDiscussion>(`${mrPath(ref)}/discussions`, { body, position }, signal);
      } catch (error) {
        throw refusedThread('GitLab', anchor, error);
      }
      created = { threadId: discussion.id, commentId: String(discussion.notes[0]?.id ?? '') };
    }
    if (input.status === 'resolved') await this.setThreadStatus(ref, created.threadId, 'resolved', { signal });
    return created;
  }

  /** The file's old path and its line map, from GitLab's diff of the file at the revision. */
  private async placement(
    ref: PullRequestRef,
    revision: Revision,
    anchor: ThreadAnchor,
    signal: AbortSignal | undefined,
  ): Promise<Placement> {
    const entry = await this.diffs.find(ref, revision, anchor.filePath, signal);
    const file: ChangedFile = entry
      ? toChangedFile(entry)
      : { path: anchor.filePath, previousPath: anchor.previousPath, changeType: 'modified' };
    const diff = await this.diffs.unifiedDiff(file, revision, entry, (path, sha) =>
      this.getFileContent(ref, path, sha, { signal }),
    );
    return { oldPath: anchor.previousPath ?? entry?.old_path ?? anchor.filePath, place: lineMapFromDiff(diff.text) };
  }

  /**
   * A pull-request-level comment is a plain note: GitLab does not count it as an unresolved thread,
   * so a summary never blocks "all threads must be resolved", and `PUT {M}/notes/:id` edits it. The
   * note answer has no discussion id, so the discussion holding it is looked up, from the last page
   * back (it is the newest).
   */
  private async createNote(ref: PullRequestRef, body: string, signal: AbortSignal | undefined): Promise<CreatedThread> {
    const note = await this.post<GlNote>(`${mrPath(ref)}/notes`, { body }, signal);
    const path = `${mrPath(ref)}/discussions`;
    const first = await this.client.request<GlDiscussion[]>({ path, query: { per_page: 100, page: 1 }, signal });
    const holds = (page: GlDiscussion[]) => page.find((d) => d.notes.some((n) => n.id === note.id));
    const totalPages = Number(first.headers.get('x-total-pages'));
    let found: GlDiscussion | undefined;
    if (Number.isInteger(totalPages) && totalPages > 1) {
      for (let page = totalPages; page > 1 && !found; page -= 1) {
        found = holds(await this.client.get<GlDiscussion[]>(path, { per_page: 100, page }, signal));
      }
    } else if (!first.headers.has('x-total-pages')) {
      // GitLab leaves totals out above 10,000 items: walk forward instead.
      for await (const page of this.client.pages<GlDiscussion>(path, {}, 2, signal)) {
        found = holds(page);
        if (found) break;
      }
    }
    found ??= holds(first.data);
    if (!found) {
      throw MarginError.provider('invalidResponse', `GitLab did not list the note ${note.id} it just created.`);
    }
    return { threadId: found.id, commentId: String(note.id) };
  }

  private async post<T>(path: string, json: unknown, signal: AbortSignal | undefined): Promise<T> {
    return (await this.client.request<T>({ method: 'POST', path, json, signal })).data;
  }
}

interface Placement {
  oldPath: string;
  place: PlaceLine;
}

/** Hidden markers go into GitLab's Markdown as an HTML comment, which it never renders. */
const MARKER_STYLE = 'htmlComment';

function noteNumber(commentId: string): number {
  const id = Number(commentId);
  if (!Number.isSafeInteger(id) || id <= 0) throw MarginError.validation(`'${commentId}' is not a GitLab note id.`);
  return id;
}
