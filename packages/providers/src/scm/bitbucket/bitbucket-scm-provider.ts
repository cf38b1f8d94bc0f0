import {
  type ChangedFile,
  type CreatedThread,
  type CreateThreadInput,
  type FileContent,
  MarginError,
  type PullRequestRef,
  type PullRequestSnapshot,
  type PullRequestSummary,
  type RepositoryRef,
  type ReviewThread,
  type Revision,
  type ScmAccount,
  type ScmProject,
  type ScmProviderV1,
  type ScmRepository,
  type ScmScopeRef,
  type ScmUser,
  type ThreadStatus,
} from '@margin/core';
import {
  type BitbucketClient,
  bitbucketApiBase,
  createBitbucketClient,
  type HttpTuning,
  repoPath,
  seg,
  workspaceOf,
} from './bitbucket-client.js';
import { slugOf, toChangedFile, toFileContent, toStatus, toUser } from './bitbucket-mapping.js';
import { threadsFromComments } from './bitbucket-threads.js';
import type {
  BbBranch,
  BbComment,
  BbCommit,
  BbDiffstat,
  BbEndpoint,
  BbMembership,
  BbProject,
  BbPullRequest,
  BbRepository,
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

  constructor(private readonly client: BitbucketClient) {}

  /**
   * `/user` names who the credentials act as. Workspace and repository access tokens may not read
   * `/user`; a 403 for them still proves the token was accepted (a bad token answers 401).
   */
  async verify(): Promise<ScmAccount> {
    const res = await this.client.request<BbUser>({
      path: '/user',
      allowStatuses: this.client.credential.kind === 'accessToken' ? [403] : [],
    });
    if (res.status === 403) return { login: 'access-token', displayName: 'Bitbucket access token' };
    const user = toUser(res.data);
    return { login: user.login, displayName: user.displayName };
  }

  async getPullRequest(ref: PullRequestRef): Promise<PullRequestSnapshot> {
    const pr = await this.client.get<BbPullRequest>(`${this.repo(ref)}/pullrequests/${seg(ref.pullRequestId)}`);
    return {
      ...(await this.summaryOf(ref, ref.repositoryId, pr)),
      ref: { ...ref, pullRequestId: pr.id },
      description: pr.description ?? '',
      author: toUser(pr.author),
      webUrl: pr.links?.html?.href,
    };
  }

  /** The pull request's commits, oldest first, each against the current destination tip. */
  async listRevisions(ref: PullRequestRef): Promise<Revision[]> {
    const pr = await this.getPullRequest(ref);
    const revisions: Revision[] = [];
    for await (const page of this.client.pages<BbCommit>(
      `${this.repo(ref)}/pullrequests/${seg(ref.pullRequestId)}/commits`,
    )) {
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

  /** The topic diffstat `head..base`: what the head adds on top of its merge base with the target. */
  async *listChangedFiles(ref: PullRequestRef, revision: Revision): AsyncIterable<ChangedFile> {
    const spec = `${revision.headSha}..${revision.baseSha}`;
    for await (const page of this.client.pages<BbDiffstat>(`${this.repo(ref)}/diffstat/${seg(spec)}`)) {
      for (const entry of page) yield toChangedFile(entry);
    }
  }

  async getFileContent(ref: RepositoryRef, path: string, commitSha: string): Promise<FileContent | undefined> {
    const encodedPath = path.split('/').filter(Boolean).map(seg).join('/');
    const res = await this.client.request<Uint8Array>({
      path: `${this.repo(ref)}/src/${seg(commitSha)}/${encodedPath}`,
      responseType: 'bytes',
      allowStatuses: [404],
    });
    return res.status === 404 ? undefined : toFileContent(res.data);
  }

  /**
   * Bitbucket's own git-style diff of one file (`path` filters it; both paths for a rename). Bitbucket
   * answers diff requests with a 302 to a canonical diff URL; the transport follows it on the same
   * origin, where fetch keeps the Authorization header.
   */
  async getFileDiff(ref: PullRequestRef, file: ChangedFile, revision: Revision): Promise<string> {
    const query = new URLSearchParams();
    query.append('path', file.path);
    if (file.previousPath && file.previousPath !== file.path) query.append('path', file.previousPath);
    const spec = `${revision.headSha}..${revision.baseSha}`;
    const res = await this.client.request<string>({
      path: `${this.repo(ref)}/diff/${seg(spec)}?${query.toString()}`,
      responseType: 'text',
    });
    return res.data;
  }

  /** Replies can sit on any page after their parent, so every page is read before threads are built. */
  async *listThreads(ref: PullRequestRef): AsyncIterable<ReviewThread> {
    const comments: BbComment[] = [];
    for await (const page of this.client.pages<BbComment>(this.commentsPath(ref))) comments.push(...page);
    yield* threadsFromComments(comments);
  }

  async createThread(ref: PullRequestRef, input: CreateThreadInput): Promise<CreatedThread> {
    const body: Record<string, unknown> = { content: { raw: input.body } };
    if (input.anchor) {
      const { filePath, startLine, endLine } = input.anchor;
      body.inline =
        startLine < endLine ? { path: filePath, to: endLine, start_to: startLine } : { path: filePath, to: endLine };
    }
    const comment = await this.post<BbComment>(this.commentsPath(ref), body);
    const threadId = String(comment.id);
    if (input.status === 'resolved') await this.setThreadStatus(ref, threadId, 'resolved');
    return { threadId, commentId: threadId, webUrl: comment.links?.html?.href };
  }

  async reply(ref: PullRequestRef, threadId: string, body: string): Promise<{ commentId: string }> {
    const comment = await this.post<BbComment>(this.commentsPath(ref), {
      content: { raw: body },
      parent: { id: commentNumber(threadId) },
    });
    return { commentId: String(comment.id) };
  }

  /** Resolution is set on the thread's top-level comment; setting the state it already has is fine (409). */
  async setThreadStatus(ref: PullRequestRef, threadId: string, status: ThreadStatus): Promise<void> {
    await this.client.request({
      method: status === 'resolved' ? 'POST' : 'DELETE',
      path: `${this.commentsPath(ref)}/${commentNumber(threadId)}/resolve`,
      responseType: 'none',
      allowStatuses: [409],
    });
  }

  async *listOpenPullRequests(
    scope: ScmScopeRef & { repositoryId?: string | undefined },
  ): AsyncIterable<PullRequestSummary> {
    if (scope.repositoryId) {
      yield* this.openPullRequestsOf(scope, scope.repositoryId);
      return;
    }
    for await (const page of this.client.pages<BbRepository>(`/repositories/${seg(workspaceOf(scope))}`)) {
      for (const repository of page) yield* this.openPullRequestsOf(scope, repository.uuid);
    }
  }

  /** The workspace itself (the scope's project key), then the Bitbucket projects inside it. */
  async *listProjects(scopePath: string): AsyncIterable<ScmProject> {
    const workspace = await this.client.get<BbWorkspace>(`/workspaces/${seg(workspaceOf({ scopePath }))}`);
    yield { projectKey: workspace.slug, name: workspace.name };
    for await (const page of this.client.pages<BbProject>(`/workspaces/${seg(workspace.slug)}/projects`)) {
      for (const project of page) yield { projectKey: project.key, name: project.name };
    }
  }

  /** Every repository of the workspace, or of one Bitbucket project when the key names one. */
  async *listRepositories(scope: ScmScopeRef): AsyncIterable<ScmRepository> {
    const workspace = workspaceOf(scope);
    const query = scope.projectKey === workspace ? {} : { q: `project.key="${scope.projectKey.replace(/"/g, '')}"` };
    for await (const page of this.client.pages<BbRepository>(`/repositories/${seg(workspace)}`, query)) {
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

  async *listBranches(ref: RepositoryRef): AsyncIterable<string> {
    for await (const page of this.client.pages<BbBranch>(`${this.repo(ref)}/refs/branches`)) {
      for (const branch of page) yield branch.name;
    }
  }

  /** Bitbucket has no user search: the workspace's members, matched on name and nickname here. */
  async searchUsers(scopePath: string, search: string): Promise<ScmUser[]> {
    const needle = search.trim().toLowerCase();
    const found: ScmUser[] = [];
    const members = this.client.pages<BbMembership>(`/workspaces/${seg(workspaceOf({ scopePath }))}/members`);
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

  private async *openPullRequestsOf(scope: ScmScopeRef, repositoryId: string): AsyncGenerator<PullRequestSummary> {
    const ref: RepositoryRef = { ...scope, repositoryId };
    const pages = this.client.pages<BbPullRequest>(`${this.repo(ref)}/pullrequests`, {
      state: 'OPEN',
      pagelen: OPEN_PAGE_SIZE,
    });
    for await (const page of pages) {
      for (const pr of page) yield this.summaryOf(scope, repositoryId, pr);
    }
  }

  /** Pull request answers carry 12-character hashes; revisions need full SHAs. */
  private async summaryOf(scope: ScmScopeRef, repositoryId: string, pr: BbPullRequest): Promise<PullRequestSummary> {
    const [headSha, baseSha] = await Promise.all([
      this.fullHash(scope, pr.source),
      this.fullHash(scope, pr.destination),
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
  private async fullHash(scope: ScmScopeRef, endpoint: BbEndpoint): Promise<string> {
    const short = endpoint.commit?.hash;
    if (!short) throw MarginError.provider('invalidResponse', 'Bitbucket named no commit for a pull request branch.');
    if (FULL_SHA.test(short)) return short;
    const fullName = endpoint.repository?.full_name;
    const path = fullName
      ? `/repositories/${fullName.split('/').map(seg).join('/')}`
      : repoPath(workspaceOf(scope), endpoint.repository?.uuid ?? '');
    const key = `${path}@${short}`;
    const known = this.fullHashes.get(key);
    if (known) return known;
    const commit = await this.client.get<BbCommit>(`${path}/commit/${seg(short)}`);
    if (this.fullHashes.size >= REMEMBERED_HASHES) this.fullHashes.clear();
    this.fullHashes.set(key, commit.hash);
    return commit.hash;
  }

  private repo(ref: RepositoryRef): string {
    return repoPath(workspaceOf(ref), ref.repositoryId);
  }

  private commentsPath(ref: PullRequestRef): string {
    return `${this.repo(ref)}/pullrequests/${seg(ref.pullRequestId)}/comments`;
  }

  private async post<T>(path: string, json: unknown): Promise<T> {
    return (await this.client.request<T>({ method: 'POST', path, json })).data;
  }
}

function commentNumber(threadId: string): number {
  const id = Number(threadId);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw MarginError.validation(`'${threadId}' is not a Bitbucket comment id.`);
  return id;
}
