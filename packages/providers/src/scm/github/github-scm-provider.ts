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
  type ScmConnectionConfig,
  type ScmProject,
  type ScmProviderV1,
  type ScmRepository,
  type ScmScopeRef,
  type ScmUser,
} from '@margin/core';
import {
  BoundedCache,
  computeUnifiedDiff,
  decodeFile,
  encodePathSegments,
  paginate,
  withFileHeaders,
} from '../shared/index.js';
import { GitHubClient } from './github-client.js';
import {
  RESOLVE_THREAD_MUTATION,
  REVIEW_THREADS_QUERY,
  THREAD_COMMENTS_QUERY,
  UNRESOLVE_THREAD_MUTATION,
} from './github-graphql.js';
import type { GitHubOptions } from './github-options.js';
import {
  type GhCommit,
  type GhIssueComment,
  type GhPullRequest,
  type GhPullRequestFile,
  type GhRepository,
  type GhReviewComment,
  type GhUser,
  type GqlComment,
  type GqlPageInfo,
  type GqlReviewThread,
  ISSUE_COMMENT_PREFIX,
  inlineCommentBody,
  issueCommentThread,
  parseThreadId,
  pullRequestStatus,
  REVIEW_THREAD_PREFIX,
  reviewThreadOf,
  toChangedFile,
  toUser,
} from './github-wire.js';

/** Patches larger than this are not kept between listing files and asking for their diff. */
const MAX_CACHED_PATCH = 256 * 1024;

type ThreadsAnswer = {
  node: {
    pullRequest: { reviewThreads: { pageInfo: GqlPageInfo; nodes: GqlReviewThread[] } } | null;
  } | null;
};
type ThreadCommentsAnswer = { node: { comments: { pageInfo: GqlPageInfo; nodes: GqlComment[] } } | null };

/**
 * `ScmProviderV1` for GitHub and GitHub Enterprise Server. Repositories are addressed by numeric id
 * (`/repositories/{id}/…`), so a renamed or transferred repository keeps working; GraphQL reaches
 * the same repository through its node id, looked up once and cached. Revisions are commits keyed
 * by head SHA, since GitHub has no iterations.
 */
export function createGitHubProvider(connection: ScmConnectionConfig, options: GitHubOptions = {}): ScmProviderV1 {
  const client = new GitHubClient(connection, options);
  const nodeIds = new BoundedCache<string, string>(512);
  const patches = new BoundedCache<string, string>(4096);
  const mergeBases = new BoundedCache<string, string>(256);
  const threadNodeIds = new BoundedCache<string, string>(4096);
  const ownerTypes = new BoundedCache<string, string>(256);
  let viewerLogin: string | undefined;

  const repo = (ref: RepositoryRef) => {
    if (!/^\d+$/.test(ref.repositoryId)) {
      throw MarginError.validation('A GitHub repository id is the numeric repository id, as a string.');
    }
    return `/repositories/${ref.repositoryId}`;
  };
  const pull = (ref: PullRequestRef) => `${repo(ref)}/pulls/${ref.pullRequestId}`;
  const patchKey = (ref: PullRequestRef, headSha: string, path: string) =>
    `${ref.repositoryId}#${ref.pullRequestId}@${headSha}:${path}`;

  const getPull = async (ref: PullRequestRef) => (await client.rest<GhPullRequest>({ path: pull(ref) })).data;

  const repositoryNodeId = async (ref: RepositoryRef) => {
    const known = nodeIds.get(ref.repositoryId);
    if (known) return known;
    const { data } = await client.rest<GhRepository>({ path: repo(ref) });
    if (!data.node_id) throw MarginError.provider('invalidResponse', 'GitHub named no node id for the repository.');
    nodeIds.set(ref.repositoryId, data.node_id);
    return data.node_id;
  };

  const revisionOf = (pr: GhPullRequest): Revision => ({
    revisionId: pr.head.sha,
    headSha: pr.head.sha,
    baseSha: pr.base.sha,
  });

  const summaryOf = (scope: ScmScopeRef, pr: GhPullRequest): PullRequestSummary => ({
    ref: { ...scope, repositoryId: String(pr.base.repo.id), pullRequestId: pr.number },
    title: pr.title,
    status: pullRequestStatus(pr),
    isDraft: pr.draft ?? false,
    sourceBranch: pr.head.ref,
    targetBranch: pr.base.ref,
    revision: revisionOf(pr),
    repositoryName: pr.base.repo.name,
    repositoryOwner: pr.base.repo.owner?.login,
    reviewers: pr.requested_reviewers?.map(toUser),
  });

  const fileBytes = async (ref: RepositoryRef, path: string, commitSha: string) => {
    const response = await client.rest<Uint8Array>({
      path: `${repo(ref)}/contents/${encodePathSegments(path)}`,
      query: { ref: commitSha },
      headers: { accept: 'application/vnd.github.raw+json' },
      responseType: 'bytes',
      allowStatuses: [404],
    });
    return response.status === 404 ? undefined : response.data;
  };

  /** The merge base GitHub diffs a pull request against; `compare` is the one call that names it. */
  const mergeBaseOf = async (ref: RepositoryRef, revision: Revision) => {
    if (revision.mergeBaseSha) return revision.mergeBaseSha;
    const key = `${ref.repositoryId}:${revision.baseSha}...${revision.headSha}`;
    const known = mergeBases.get(key);
    if (known) return known;
    const { data } = await client.rest<{ merge_base_commit?: { sha?: string } }>({
      path: `${repo(ref)}/compare/${revision.baseSha}...${revision.headSha}`,
      query: { per_page: 1 },
    });
    const sha = data.merge_base_commit?.sha ?? revision.baseSha;
    mergeBases.set(key, sha);
    return sha;
  };

  /** Every comment of a thread: the first 100 come with the thread, the rest page by node id. */
  const threadComments = async (thread: GqlReviewThread) => {
    const comments = [...thread.comments.nodes];
    let page = thread.comments.pageInfo;
    while (page.hasNextPage && page.endCursor) {
      const answer = await client.graphql<ThreadCommentsAnswer>(THREAD_COMMENTS_QUERY, {
        thread: thread.id,
        after: page.endCursor,
      });
      if (!answer.node) break;
      comments.push(...answer.node.comments.nodes);
      page = answer.node.comments.pageInfo;
    }
    return comments;
  };

  const reviewThreads = async function* (ref: PullRequestRef): AsyncGenerator<GqlReviewThread> {
    const repository = await repositoryNodeId(ref);
    yield* paginate<GqlReviewThread, string>(undefined, async (after) => {
      const answer = await client.graphql<ThreadsAnswer>(REVIEW_THREADS_QUERY, {
        repository,
        number: ref.pullRequestId,
        after: after ?? null,
      });
      const threads = answer.node?.pullRequest?.reviewThreads;
      if (!threads) throw MarginError.notFound(`GitHub has no pull request #${ref.pullRequestId} in this repository.`);
      return {
        items: threads.nodes,
        next: threads.pageInfo.hasNextPage ? (threads.pageInfo.endCursor ?? undefined) : undefined,
      };
    });
  };

  const rememberThread = (ref: PullRequestRef, thread: GqlReviewThread) => {
    const root = thread.comments.nodes[0];
    if (root) threadNodeIds.set(`${ref.repositoryId}#${ref.pullRequestId}:${root.databaseId}`, thread.id);
  };

  /** REST knows review comments, GraphQL knows threads: find the thread whose first comment is this one. */
  const threadNodeIdOf = async (ref: PullRequestRef, rootCommentId: number) => {
    const key = `${ref.repositoryId}#${ref.pullRequestId}:${rootCommentId}`;
    const known = threadNodeIds.get(key);
    if (known) return known;
    for await (const thread of reviewThreads(ref)) {
      rememberThread(ref, thread);
      if (thread.comments.nodes[0]?.databaseId === rootCommentId) return thread.id;
    }
    throw MarginError.notFound(`GitHub has no review thread starting with comment ${rootCommentId}.`);
  };

  const setReviewThreadStatus = async (ref: PullRequestRef, rootCommentId: number, resolved: boolean) => {
    const thread = await threadNodeIdOf(ref, rootCommentId);
    await client.graphql(resolved ? RESOLVE_THREAD_MUTATION : UNRESOLVE_THREAD_MUTATION, { thread });
  };

  const ownerType = async (owner: string) => {
    const known = ownerTypes.get(owner.toLowerCase());
    if (known) return known;
    const { data } = await client.rest<GhUser>({ path: `/users/${encodeURIComponent(owner)}` });
    ownerTypes.set(owner.toLowerCase(), data.type ?? 'User');
    return data.type ?? 'User';
  };

  const viewer = async () => {
    viewerLogin ??= (await client.rest<GhUser>({ path: '/user' })).data.login;
    return viewerLogin;
  };

  const toRepository = (r: GhRepository): ScmRepository => ({
    repositoryId: String(r.id),
    name: r.name,
    projectKey: r.owner.login,
    defaultBranch: r.default_branch,
    webUrl: r.html_url,
  });

  const provider: ScmProviderV1 = {
    specificationVersion: 'v1',
    family: 'gitHostA',

    async verify(): Promise<ScmAccount> {
      if (client.isApp) {
        // Minting an installation token proves key, App id and installation; `/user` is not for Apps.
        await client.rest({ path: '/installation/repositories', query: { per_page: 1 } });
        const app = await client.asApp<{ slug?: string; name?: string }>('/app');
        const login = `${app.slug ?? 'app'}[bot]`;
        return { login, displayName: app.name ?? login };
      }
      const { data } = await client.rest<GhUser>({ path: '/user' });
      viewerLogin = data.login;
      return { login: data.login, displayName: data.name ?? data.login };
    },

    async getPullRequest(ref) {
      const pr = await getPull(ref);
      const snapshot: PullRequestSnapshot = {
        ...summaryOf(ref, pr),
        ref: { ...ref, repositoryId: String(pr.base.repo.id), pullRequestId: pr.number },
        description: pr.body ?? '',
        author: toUser(pr.user),
        webUrl: pr.html_url,
      };
      return snapshot;
    },

    async listRevisions(ref) {
      const pr = await getPull(ref);
      const revisions: Revision[] = [];
      // GitHub lists at most 250 commits here, oldest first; the head is appended if it was cut off.
      for await (const commit of client.pages<GhCommit>(`${pull(ref)}/commits`, {})) {
        revisions.push({
          revisionId: commit.sha,
          headSha: commit.sha,
          baseSha: pr.base.sha,
          createdAt: commit.commit?.committer?.date ?? commit.commit?.author?.date,
        });
      }
      if (revisions.at(-1)?.headSha !== pr.head.sha) revisions.push(revisionOf(pr));
      return revisions;
    },

    async *listChangedFiles(ref, revision): AsyncGenerator<ChangedFile> {
      // GitHub lists the files of the pull request's current head (up to 3,000).
      for await (const file of client.pages<GhPullRequestFile>(`${pull(ref)}/files`, {})) {
        if (file.patch !== undefined && file.patch.length <= MAX_CACHED_PATCH) {
          patches.set(patchKey(ref, revision.headSha, file.filename), file.patch);
        }
        yield toChangedFile(file);
      }
    },

    async getFileContent(ref, path, commitSha): Promise<FileContent | undefined> {
      const bytes = await fileBytes(ref, path, commitSha);
      return bytes === undefined ? undefined : decodeFile(bytes);
    },

    async getFileDiff(ref, file, revision) {
      const oldPath = file.changeType === 'added' ? undefined : (file.previousPath ?? file.path);
      const newPath = file.changeType === 'deleted' ? undefined : file.path;
      const patch = patches.get(patchKey(ref, revision.headSha, file.path));
      if (patch !== undefined) return withFileHeaders(patch, oldPath, newPath);
      // A pure rename: GitHub counts no changed lines and sends no patch, and there is nothing to diff.
      if (file.changeType === 'renamed' && file.additions === 0 && file.deletions === 0) {
        return withFileHeaders('', oldPath, newPath);
      }
      // GitHub leaves `patch` out for large and binary files: diff both versions here instead.
      const base = oldPath === undefined ? undefined : await mergeBaseOf(ref, revision);
      const [oldBytes, newBytes] = await Promise.all([
        oldPath === undefined || base === undefined ? undefined : fileBytes(ref, oldPath, base),
        newPath === undefined ? undefined : fileBytes(ref, newPath, revision.headSha),
      ]);
      const oldFile = oldBytes ? decodeFile(oldBytes) : undefined;
      const newFile = newBytes ? decodeFile(newBytes) : undefined;
      return computeUnifiedDiff({
        oldPath: oldFile ? oldPath : undefined,
        newPath: newFile ? newPath : undefined,
        oldText: oldFile?.text ?? '',
        newText: newFile?.text ?? '',
        isBinary: (oldFile?.isBinary ?? false) || (newFile?.isBinary ?? false),
      });
    },

    async *listThreads(ref): AsyncGenerator<ReviewThread> {
      for await (const thread of reviewThreads(ref)) {
        rememberThread(ref, thread);
        const mapped = reviewThreadOf(thread, await threadComments(thread));
        if (mapped) yield mapped;
      }
      // Conversation comments have no threads on GitHub: each is a thread of one.
      for await (const comment of client.pages<GhIssueComment>(
        `${repo(ref)}/issues/${ref.pullRequestId}/comments`,
        {},
      )) {
        yield issueCommentThread(comment);
      }
    },

    async createThread(ref, input: CreateThreadInput): Promise<CreatedThread> {
      if (!input.anchor) {
        const { data } = await client.rest<GhIssueComment>({
          method: 'POST',
          path: `${repo(ref)}/issues/${ref.pullRequestId}/comments`,
          json: { body: input.body },
        });
        return { threadId: `${ISSUE_COMMENT_PREFIX}${data.id}`, commentId: String(data.id), webUrl: data.html_url };
      }
      const { data } = await client.rest<GhReviewComment>({
        method: 'POST',
        path: `${pull(ref)}/comments`,
        json: inlineCommentBody({ body: input.body, anchor: input.anchor, headSha: input.revision.headSha }),
      });
      if (input.status === 'resolved') await setReviewThreadStatus(ref, data.id, true);
      return { threadId: `${REVIEW_THREAD_PREFIX}${data.id}`, commentId: String(data.id), webUrl: data.html_url };
    },

    async reply(ref, threadId, body) {
      const parsed = parseThreadId(threadId);
      if (!parsed) throw MarginError.validation(`"${threadId}" is not a GitHub thread id of this adapter.`);
      if (parsed.kind === 'issue') {
        // Conversation comments cannot be replied to; the answer is a new comment on the pull request.
        const { data } = await client.rest<GhIssueComment>({
          method: 'POST',
          path: `${repo(ref)}/issues/${ref.pullRequestId}/comments`,
          json: { body },
        });
        return { commentId: String(data.id) };
      }
      const { data } = await client.rest<GhReviewComment>({
        method: 'POST',
        path: `${pull(ref)}/comments/${parsed.rootCommentId}/replies`,
        json: { body },
      });
      return { commentId: String(data.id) };
    },

    async setThreadStatus(ref, threadId, status) {
      const parsed = parseThreadId(threadId);
      if (!parsed) throw MarginError.validation(`"${threadId}" is not a GitHub thread id of this adapter.`);
      // Conversation comments have no resolution state on GitHub; there is nothing to set.
      if (parsed.kind === 'issue') return;
      await setReviewThreadStatus(ref, parsed.rootCommentId, status === 'resolved');
    },

    async *listOpenPullRequests(scope): AsyncGenerator<PullRequestSummary> {
      const repositories: Iterable<{ repositoryId: string }> | AsyncIterable<{ repositoryId: string }> =
        scope.repositoryId ? [{ repositoryId: scope.repositoryId }] : provider.listRepositories(scope);
      for await (const { repositoryId } of repositories) {
        const path = `${repo({ ...scope, repositoryId })}/pulls`;
        for await (const pr of client.pages<GhPullRequest>(path, {
          state: 'open',
          sort: 'created',
          direction: 'asc',
        })) {
          yield summaryOf(scope, pr);
        }
      }
    },

    async *listProjects(scopePath): AsyncGenerator<ScmProject> {
      const owner = ownerOf(scopePath);
      if (owner) {
        const { data } = await client.rest<GhUser>({ path: `/users/${encodeURIComponent(owner)}` });
        yield { projectKey: data.login, name: data.name ?? data.login };
        return;
      }
      if (client.isApp) {
        const installation = await client.asApp<{ account?: GhUser }>(
          `/app/installations/${connection.hostedAppInstallationId}`,
        );
        if (installation.account) yield { projectKey: installation.account.login, name: installation.account.login };
        return;
      }
      // No owner in the scope path: the token's own account and every organization it belongs to.
      const login = await viewer();
      yield { projectKey: login, name: login };
      for await (const org of client.pages<GhUser>('/user/orgs', {})) yield { projectKey: org.login, name: org.login };
    },

    async *listRepositories(scope): AsyncGenerator<ScmRepository> {
      const owner = scope.projectKey;
      const sameOwner = (r: GhRepository) => r.owner.login.toLowerCase() === owner.toLowerCase();
      let source: AsyncIterable<GhRepository>;
      if (client.isApp) {
        source = client.pages<GhRepository, { repositories: GhRepository[] }>(
          '/installation/repositories',
          {},
          (data) => data.repositories,
        );
      } else if ((await ownerType(owner)) === 'Organization') {
        source = client.pages<GhRepository>(`/orgs/${encodeURIComponent(owner)}/repos`, { type: 'all' });
      } else if (owner.toLowerCase() === (await viewer()).toLowerCase()) {
        source = client.pages<GhRepository>('/user/repos', { affiliation: 'owner', visibility: 'all' });
      } else {
        source = client.pages<GhRepository>(`/users/${encodeURIComponent(owner)}/repos`, { type: 'owner' });
      }
      for await (const r of source) {
        // Archived and disabled repositories are read-only: nothing there can be reviewed.
        if (sameOwner(r) && !r.archived && !r.disabled) yield toRepository(r);
      }
    },

    async *listBranches(ref): AsyncGenerator<string> {
      for await (const branch of client.pages<{ name: string }>(`${repo(ref)}/branches`, {})) yield branch.name;
    },

    async searchUsers(_scopePath, search): Promise<ScmUser[]> {
      const { data } = await client.rest<{ items: GhUser[] }>({
        path: '/search/users',
        query: { q: `${search} in:login`, per_page: 30 },
      });
      return data.items.map(toUser);
    },
  };
  return provider;
}

/** `https://github.com/acme` → `acme`; a scope path without an owner gives `undefined`. */
export function ownerOf(scopePath: string): string | undefined {
  if (!URL.canParse(scopePath)) return scopePath && !scopePath.includes('/') ? scopePath : undefined;
  const first = new URL(scopePath).pathname.split('/').filter(Boolean)[0];
  return first ? decodeURIComponent(first) : undefined;
}
