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
  type ThreadStatus,
  type TreeEntry,
} from '@margin/core/spec';
import { encodePathSegments, encodeSegment, type HttpTuning, normalizeTreePrefix } from '../../utils/index.js';
import {
  createThreadsOneByOne,
  decodeFile,
  refusedThread,
  relationFromMergeBase,
  sameCommit,
  withHiddenMarker,
} from '../shared/index.js';
import {
  type BitbucketClient,
  bitbucketApiBase,
  createBitbucketClient,
  repoPath,
  workspaceOf,
} from './bitbucket-client.js';
import { bitbucketBuildStatus } from './bitbucket-commit-status.js';
import { fileDiffFromGit } from './bitbucket-diff.js';
import { slugOf, toChangedFile, toStatus, toUser } from './bitbucket-mapping.js';
import { threadsFromComments } from './bitbucket-threads.js';
import type {
  BbBranch,
  BbBranchWithTarget,
  BbComment,
  BbCommit,
  BbDiffstat,
  BbEndpoint,
  BbMembership,
  BbProject,
  BbPullRequest,
  BbRepository,
  BbSourceEntry,
  BbUser,
  BbWorkspace,
} from './bitbucket-wire.js';

export interface BitbucketProviderOptions {
  /** `https://bitbucket.org` (or empty) for Bitbucket Cloud. */
  hostBaseUrl?: string | undefined;
  /** `email:api-token` (Basic) or an access token (Bearer); see `bitbucket-credentials.ts`. */
  secret: string;
  /** REST base; default `https://api.bitbucket.org/2.0`. */
  apiBaseUrl?: string | undefined;
  fetch?: typeof fetch | undefined;
  http?: HttpTuning | undefined;
}

const USER_SEARCH_LIMIT = 20;
const OPEN_PAGE_SIZE = 50; // Bitbucket caps pull request lists at 50 a page
const REMEMBERED_HASHES = 2_000;
const FULL_SHA = /^[0-9a-f]{40}$/i;
/** How deep one `src` listing recurses; Bitbucket refuses or times out on much deeper walks of big trees. */
const MAX_TREE_DEPTH = 64;

/** `ScmProviderV1` for Bitbucket Cloud, REST 2.0. */
export function createBitbucketProvider(options: BitbucketProviderOptions): ScmProviderV1 {
  const client = createBitbucketClient({
    apiBaseUrl: options.apiBaseUrl ?? bitbucketApiBase(options.hostBaseUrl),
    secret: options.secret,
    fetch: options.fetch,
    http: options.http,
  });
  return new BitbucketScmProvider(client);
}

class BitbucketScmProvider implements ScmProviderV1 {
  readonly specificationVersion = 'v1' as const;
  readonly family = 'gitHostC' as const;
  /** Short hash → full SHA; commits never change, so this only needs bounding. */
  private readonly fullHashes = new Map<string, string>();
  /**
   * The uuid of the account the credentials act as: from `GET /user`, or, where `/user` is refused
   * (access tokens, and API tokens without the account scope), from the author of the first comment
   * this provider posts. `null` while it cannot be told; threads then leave `authoredByConnection` unset.
   */
  private ownUuid: string | null | undefined;

  constructor(private readonly client: BitbucketClient) {}

  /**
   * `/user` names who the credentials act as. Workspace and repository access tokens may not read
   * `/user`; a 403 for them still proves the token was accepted (a bad token answers 401).
   */
  async verify(options?: ScmCallOptions): Promise<ScmAccount> {
    const res = await this.client.request<BbUser>({
      path: '/user',
      allowStatuses: this.client.credential.kind === 'accessToken' ? [403] : [],
      signal: options?.signal,
    });
    if (res.status === 403) return { login: 'access-token', displayName: 'Bitbucket access token' };
    this.ownUuid = res.data.uuid ?? null;
    const user = toUser(res.data);
    return { login: user.login, displayName: user.displayName };
  }

  async getPullRequest(ref: PullRequestRef, options?: ScmCallOptions): Promise<PullRequestSnapshot> {
    const signal = options?.signal;
    const pr = await this.client.get<BbPullRequest>(
      `${this.repo(ref)}/pullrequests/${encodeSegment(ref.pullRequestId)}`,
      undefined,
      signal,
    );
    return {
      ...(await this.summaryOf(ref, ref.repositoryId, pr, signal)),
      ref: { ...ref, pullRequestId: pr.id },
      description: pr.description ?? '',
      author: toUser(pr.author),
      webUrl: pr.links?.html?.href,
    };
  }

  /** The pull request's commits, oldest first, each against the current destination tip. */
  async listRevisions(ref: PullRequestRef, options?: ScmCallOptions): Promise<Revision[]> {
    const signal = options?.signal;
    const pr = await this.getPullRequest(ref, options);
    const revisions: Revision[] = [];
    const path = `${this.repo(ref)}/pullrequests/${encodeSegment(ref.pullRequestId)}/commits`;
    for await (const page of this.client.pages<BbCommit>(path, {}, signal)) {
      for (const commit of page) {
        revisions.push({
          revisionId: commit.hash,
          headSha: commit.hash,
          baseSha: pr.revision.baseSha,
          createdAt: commit.date,
        });
      }
    }
    return revisions.reverse();
  }

  /**
   * The diffstat of the revision: against its merge base when the revision names one (a plain
   * two-dot diffstat), else Bitbucket's topic diffstat `head..base`, which diffs the head against its
   * merge base with the destination. Bitbucket names no blob ids and puts no cap on the listing that
   * it reports, so neither blob ids nor `onTruncated` apply.
   */
  async *listChangedFiles(
    ref: PullRequestRef,
    revision: Revision,
    options?: ListChangedFilesOptions,
  ): AsyncIterable<ChangedFile> {
    const { spec, topic } = diffSpec(revision);
    const pages = this.client.pages<BbDiffstat>(
      `${this.repo(ref)}/diffstat/${encodeSegment(spec)}`,
      { topic },
      options?.signal,
    );
    for await (const page of pages) {
      for (const entry of page) yield toChangedFile(entry);
    }
  }

  /**
   * The files come from the two-dot diffstat `to..from` (Bitbucket puts the newer commit first):
   * what differs between the two commits, which after a force push is not what the new head added
   * since they parted. The relation comes from `merge-base/{to}..{from}`; a 404 there, once the
   * diffstat found both commits, means they share no history.
   */
  async compareCommits(
    ref: RepositoryRef,
    fromSha: string,
    toSha: string,
    options?: ScmCallOptions,
  ): Promise<CommitComparison> {
    if (sameCommit(fromSha, toSha)) return { relation: 'identical', files: [] };
    const signal = options?.signal;
    const spec = encodeSegment(`${toSha}..${fromSha}`);
    const listFiles = async () => {
      const files: ChangedFile[] = [];
      for await (const page of this.client.pages<BbDiffstat>(
        `${this.repo(ref)}/diffstat/${spec}`,
        { topic: false },
        signal,
      )) {
        files.push(...page.map(toChangedFile));
      }
      return files;
    };
    const [files, mergeBase] = await Promise.all([
      listFiles(),
      this.client.request<BbCommit>({ path: `${this.repo(ref)}/merge-base/${spec}`, allowStatuses: [404], signal }),
    ]);
    return {
      relation: relationFromMergeBase(fromSha, toSha, mergeBase.status === 404 ? null : mergeBase.data.hash),
      files,
    };
  }

  /**
   * `src/{commit}/{path}`, where Bitbucket takes a branch name in place of the commit too. A branch
   * name with a slash is sent with the slash encoded; the recorded shapes do not show Bitbucket's
   * answer to that, so configuration branches are best kept to plain names.
   */
  async getFileContent(
    ref: RepositoryRef,
    path: string,
    version: string | { branch: string },
    options?: ScmCallOptions,
  ): Promise<FileContent | undefined> {
    const encodedPath = path.split('/').filter(Boolean).map(encodeSegment).join('/');
    const at = typeof version === 'string' ? version : version.branch;
    const res = await this.client.request<Uint8Array>({
      path: `${this.repo(ref)}/src/${encodeSegment(at)}/${encodedPath}`,
      responseType: 'bytes',
      allowStatuses: [404],
      signal: options?.signal,
    });
    return res.status === 404 ? undefined : decodeFile(res.data);
  }

  /**
   * Bitbucket's own git-style diff of one file (`path` filters it; both paths for a rename), from the
   * revision's merge base when it names one (two-dot: an interdiff between two heads stays exactly
   * that), else the topic diff against the destination. Bitbucket answers diff requests with a 302
   * to a canonical diff URL; the transport follows it on the same origin, where fetch keeps the
   * Authorization header.
   */
  async getFileDiff(
    ref: PullRequestRef,
    file: ChangedFile,
    revision: Revision,
    options?: ScmCallOptions,
  ): Promise<FileDiff> {
    const { spec, topic } = diffSpec(revision);
    const query = new URLSearchParams();
    query.append('path', file.path);
    if (file.previousPath && file.previousPath !== file.path) query.append('path', file.previousPath);
    query.append('topic', String(topic));
    const res = await this.client.request<string>({
      path: `${this.repo(ref)}/diff/${encodeSegment(spec)}?${query.toString()}`,
      responseType: 'text',
      signal: options?.signal,
    });
    return { text: fileDiffFromGit(res.data, file), commentable: 'diffLines' };
  }

  /** Replies can sit on any page after their parent, so every page is read before threads are built. */
  async *listThreads(ref: PullRequestRef, options?: ScmCallOptions): AsyncIterable<ReviewThread> {
    const signal = options?.signal;
    const comments: BbComment[] = [];
    for await (const page of this.client.pages<BbComment>(this.commentsPath(ref), {}, signal)) comments.push(...page);
    yield* threadsFromComments(comments, await this.ownAccount(signal));
  }

  /**
   * An inline comment is `inline.to` (a new-file line) or `inline.from` (an old-file line). Bitbucket
   * is said to take `start_to`/`start_from` for a range, but no recorded answer shows it accepting or
   * returning them, so a range is anchored on its last line, under which Bitbucket shows the comment.
   * A place Bitbucket refuses (400) is a refused thread.
   */
  async createThread(ref: PullRequestRef, input: CreateThreadInput, options?: ScmCallOptions): Promise<CreatedThread> {
    const signal = options?.signal;
    const body: Record<string, unknown> = {
      content: { raw: withHiddenMarker(input.body, input.marker, MARKER_STYLE) },
    };
    const anchor = input.anchor;
    if (anchor) {
      body.inline =
        anchor.side === 'old'
          ? { path: anchor.filePath, from: anchor.endLine }
          : { path: anchor.filePath, to: anchor.endLine };
    }
    let comment: BbComment;
    try {
      comment = await this.post<BbComment>(this.commentsPath(ref), body, signal);
    } catch (error) {
      throw anchor ? refusedThread('Bitbucket', anchor, error) : error;
    }
    const threadId = String(comment.id);
    if (input.status === 'resolved') await this.setThreadStatus(ref, threadId, 'resolved', options);
    return { threadId, commentId: threadId, webUrl: comment.links?.html?.href };
  }

  async createThreads(
    ref: PullRequestRef,
    input: { revision: Revision; threads: Array<Omit<CreateThreadInput, 'revision'>> },
    options?: ScmCallOptions,
  ): Promise<CreateThreadOutcome[]> {
    return createThreadsOneByOne(
      input.threads,
      (thread) => this.createThread(ref, { ...thread, revision: input.revision }, options),
      options?.signal,
    );
  }

  async editComment(ref: PullRequestRef, input: EditCommentInput, options?: ScmCallOptions): Promise<void> {
    await this.client.request({
      method: 'PUT',
      path: `${this.commentsPath(ref)}/${commentNumber(input.commentId)}`,
      json: { content: { raw: withHiddenMarker(input.body, input.marker, MARKER_STYLE) } },
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
    const comment = await this.post<BbComment>(
      this.commentsPath(ref),
      { content: { raw: body }, parent: { id: commentNumber(threadId) } },
      options?.signal,
    );
    return { commentId: String(comment.id) };
  }

  /** Resolution is set on the thread's top-level comment; setting the state it already has is fine (409). */
  async setThreadStatus(
    ref: PullRequestRef,
    threadId: string,
    status: ThreadStatus,
    options?: ScmCallOptions,
  ): Promise<void> {
    await this.client.request({
      method: status === 'resolved' ? 'POST' : 'DELETE',
      path: `${this.commentsPath(ref)}/${commentNumber(threadId)}/resolve`,
      responseType: 'none',
      allowStatuses: [409],
      signal: options?.signal,
    });
  }

  async *listOpenPullRequests(
    scope: ScmScopeRef & { repositoryId?: string | undefined },
    options?: ScmCallOptions,
  ): AsyncIterable<PullRequestSummary> {
    const signal = options?.signal;
    if (scope.repositoryId) {
      yield* this.openPullRequestsOf(scope, scope.repositoryId, signal);
      return;
    }
    for await (const page of this.client.pages<BbRepository>(
      `/repositories/${encodeSegment(workspaceOf(scope))}`,
      {},
      signal,
    )) {
      for (const repository of page) yield* this.openPullRequestsOf(scope, repository.uuid, signal);
    }
  }

  /** The workspace itself (the scope's project key), then the Bitbucket projects inside it. */
  async *listProjects(scopePath: string, options?: ScmCallOptions): AsyncIterable<ScmProject> {
    const signal = options?.signal;
    const workspace = await this.client.get<BbWorkspace>(
      `/workspaces/${encodeSegment(workspaceOf({ scopePath }))}`,
      {},
      signal,
    );
    yield { projectKey: workspace.slug, name: workspace.name };
    for await (const page of this.client.pages<BbProject>(
      `/workspaces/${encodeSegment(workspace.slug)}/projects`,
      {},
      signal,
    )) {
      for (const project of page) yield { projectKey: project.key, name: project.name };
    }
  }

  /** Every repository of the workspace, or of one Bitbucket project when the key names one. */
  async *listRepositories(scope: ScmScopeRef, options?: ScmCallOptions): AsyncIterable<ScmRepository> {
    const workspace = workspaceOf(scope);
    const query = scope.projectKey === workspace ? {} : { q: `project.key="${scope.projectKey.replace(/"/g, '')}"` };
    for await (const page of this.client.pages<BbRepository>(
      `/repositories/${encodeSegment(workspace)}`,
      query,
      options?.signal,
    )) {
      for (const repository of page) {
        yield {
          repositoryId: repository.uuid,
          name: repository.slug ?? slugOf(repository.full_name) ?? repository.name,
          projectKey: scope.projectKey,
          defaultBranch: repository.mainbranch?.name,
          webUrl: repository.links?.html?.href,
        };
      }
    }
  }

  async *listBranches(ref: RepositoryRef, options?: ScmCallOptions): AsyncIterable<string> {
    for await (const page of this.client.pages<BbBranch>(`${this.repo(ref)}/refs/branches`, {}, options?.signal)) {
      for (const branch of page) yield branch.name;
    }
  }

  async getBranchHead(ref: RepositoryRef, branch: string, options?: ScmCallOptions): Promise<string | undefined> {
    const res = await this.client.request<BbBranchWithTarget>({
      // A branch name's slashes stay path separators, as Bitbucket documents the route.
      path: `${this.repo(ref)}/refs/branches/${encodePathSegments(branch)}`,
      allowStatuses: [404],
      signal: options?.signal,
    });
    return res.status === 404 ? undefined : res.data.target?.hash;
  }

  /**
   * The directory listing of `src` with `max_depth`, so one paged walk covers the whole tree instead
   * of one listing per directory; `next` links are followed as for every other list. Bitbucket
   * lists sizes but no blob ids (a refresh falls back to comparing commits). A prefix that is not a
   * directory at the commit is a 404, an empty listing here; submodules are left out.
   */
  async *listTree(
    ref: RepositoryRef,
    commitSha: string,
    options?: ScmCallOptions & { pathPrefix?: string | undefined },
  ): AsyncIterable<TreeEntry> {
    const prefix = normalizeTreePrefix(options?.pathPrefix);
    const directory = prefix ? `${encodePathSegments(prefix)}/` : '';
    const path = `${this.repo(ref)}/src/${encodeSegment(commitSha)}/${directory}`;
    const pages = this.client.pages<BbSourceEntry>(path, { max_depth: MAX_TREE_DEPTH }, options?.signal, {
      emptyOnStatuses: [404],
    });
    for await (const page of pages) {
      for (const entry of page) {
        if (entry.type !== 'commit_file' || entry.attributes?.includes('subrepository')) continue;
        yield { path: entry.path, sizeBytes: entry.size };
      }
    }
  }

  /** Bitbucket has no user search: the workspace's members, matched on name and nickname here. */
  async searchUsers(scopePath: string, search: string, options?: ScmCallOptions): Promise<ScmUser[]> {
    const needle = search.trim().toLowerCase();
    const found: ScmUser[] = [];
    const members = this.client.pages<BbMembership>(
      `/workspaces/${encodeSegment(workspaceOf({ scopePath }))}/members`,
      {},
      options?.signal,
    );
    for await (const page of members) {
      for (const { user } of page) {
        const names = [user.display_name, user.nickname, user.username]
          .filter(Boolean)
          .map((n) => String(n).toLowerCase());
        if (names.some((name) => name.includes(needle))) found.push(toUser(user));
        if (found.length >= USER_SEARCH_LIMIT) return found;
      }
    }
    return found;
  }

  private async *openPullRequestsOf(
    scope: ScmScopeRef,
    repositoryId: string,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<PullRequestSummary> {
    const ref: RepositoryRef = { ...scope, repositoryId };
    const query = { state: 'OPEN', pagelen: OPEN_PAGE_SIZE };
    for await (const page of this.client.pages<BbPullRequest>(`${this.repo(ref)}/pullrequests`, query, signal)) {
      for (const pr of page) yield this.summaryOf(scope, repositoryId, pr, signal);
    }
  }

  /** Pull request answers carry 12-character hashes; revisions need full SHAs. */
  private async summaryOf(
    scope: ScmScopeRef,
    repositoryId: string,
    pr: BbPullRequest,
    signal: AbortSignal | undefined,
  ): Promise<PullRequestSummary> {
    const [headSha, baseSha] = await Promise.all([
      this.fullHash(scope, pr.source, signal),
      this.fullHash(scope, pr.destination, signal),
    ]);
    return {
      ref: {
        scopePath: scope.scopePath,
        projectKey: scope.projectKey,
        repositoryId: pr.destination.repository?.uuid ?? repositoryId,
        pullRequestId: pr.id,
      },
      title: pr.title,
      status: toStatus(pr.state),
      isDraft: pr.draft ?? false,
      sourceBranch: pr.source.branch?.name ?? '',
      targetBranch: pr.destination.branch?.name ?? '',
      revision: { revisionId: headSha, headSha, baseSha },
      repositoryName: slugOf(pr.destination.repository?.full_name) ?? pr.destination.repository?.name ?? repositoryId,
      reviewers: pr.reviewers?.map(toUser),
    };
  }

  /** A source commit can live in a fork, so it is looked up in the repository the endpoint names. */
  private async fullHash(scope: ScmScopeRef, endpoint: BbEndpoint, signal: AbortSignal | undefined): Promise<string> {
    const short = endpoint.commit?.hash;
    if (!short) throw MarginError.provider('invalidResponse', 'Bitbucket named no commit for a pull request branch.');
    if (FULL_SHA.test(short)) return short;
    const fullName = endpoint.repository?.full_name;
    const path = fullName
      ? `/repositories/${fullName.split('/').map(encodeSegment).join('/')}`
      : repoPath(workspaceOf(scope), endpoint.repository?.uuid ?? '');
    const key = `${path}@${short}`;
    const known = this.fullHashes.get(key);
    if (known) return known;
    const commit = await this.client.get<BbCommit>(`${path}/commit/${encodeSegment(short)}`, {}, signal);
    if (this.fullHashes.size >= REMEMBERED_HASHES) this.fullHashes.clear();
    this.fullHashes.set(key, commit.hash);
    return commit.hash;
  }

  /** A build status on the head; without a target URL it links the pull request, as Bitbucket needs a URL. */
  async setCommitStatus(ref: PullRequestRef, input: CommitStatusInput, options?: ScmCallOptions): Promise<void> {
    const signal = options?.signal;
    const fallbackUrl = input.targetUrl ? '' : ((await this.getPullRequest(ref, { signal })).webUrl ?? '');
    const status = bitbucketBuildStatus(input, fallbackUrl);
    await this.client.request({ method: 'POST', path: `${this.repo(ref)}${status.path}`, json: status.json, signal });
  }

  private repo(ref: RepositoryRef): string {
    return repoPath(workspaceOf(ref), ref.repositoryId);
  }

  private commentsPath(ref: PullRequestRef): string {
    return `${this.repo(ref)}/pullrequests/${encodeSegment(ref.pullRequestId)}/comments`;
  }

  /** The account uuid the credentials act as, or undefined while it cannot be told (see `ownUuid`). */
  private async ownAccount(signal: AbortSignal | undefined): Promise<string | undefined> {
    if (this.ownUuid === undefined) {
      const res = await this.client.request<BbUser>({ path: '/user', allowStatuses: [403], signal });
      this.ownUuid ??= res.status === 403 ? null : (res.data.uuid ?? null);
    }
    return this.ownUuid ?? undefined;
  }

  private async post<T extends BbComment>(path: string, json: unknown, signal: AbortSignal | undefined): Promise<T> {
    const comment = (await this.client.request<T>({ method: 'POST', path, json, signal })).data;
    // Whoever wrote what these credentials posted is the connection's account.
    if (!this.ownUuid && comment.user?.uuid) this.ownUuid = comment.user.uuid;
    return comment;
  }
}

/** Hidden markers go into Bitbucket's Markdown as a link definition: it escapes HTML, so a comment would show. */
const MARKER_STYLE = 'linkDefinition';

/**
 * Bitbucket's spec puts the newer commit first. With a merge base named, the plain two-dot diff from
 * it; without one, the topic (three-dot) diff against the destination tip.
 */
function diffSpec(revision: Revision): { spec: string; topic: boolean } {
  if (revision.mergeBaseSha) return { spec: `${revision.headSha}..${revision.mergeBaseSha}`, topic: false };
  return { spec: `${revision.headSha}..${revision.baseSha}`, topic: true };
}

function commentNumber(threadId: string): number {
  const id = Number(threadId);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw MarginError.validation(`'${threadId}' is not a Bitbucket comment id.`);
  return id;
}
