import { MarginError } from '@margin/core';
import type {
  ChangedFile,
  CommitComparison,
  CreatedThread,
  CreateThreadInput,
  CreateThreadOutcome,
  FileContent,
  PullRequestRef,
  PullRequestSnapshot,
  PullRequestSummary,
  RepositoryRef,
  ReviewThread,
  Revision,
  ScmAccount,
  ScmConnectionConfig,
  ScmProject,
  ScmProviderV1,
  ScmRepository,
  ScmScopeRef,
  ScmUser,
  ThreadAnchor,
} from '@margin/core/spec';
import { BoundedCache, encodePathSegments, paginate, rememberOnce } from '../../utils/index.js';
import {
  createThreadsOneByOne,
  decodeFile,
  diffFromVersions,
  readHiddenMarker,
  withFileHeaders,
  withHiddenMarker,
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
  type GhComparison,
  type GhIssueComment,
  type GhPullRequest,
  type GhPullRequestFile,
  type GhRepository,
  type GhReview,
  type GhReviewComment,
  type GhUser,
  type GqlComment,
  type GqlPageInfo,
  type GqlReviewThread,
  ISSUE_COMMENT_PREFIX,
  type IsConnectionAuthor,
  inlineCommentBody,
  issueCommentThread,
  parseThreadId,
  pullRequestStatus,
  REVIEW_THREAD_PREFIX,
  relationOf,
  reviewCommentBody,
  reviewThreadOf,
  toChangedFile,
  toUser,
} from './github-wire.js';

/** Patches larger than this are not kept between listing files and asking for their diff. */
const MAX_CACHED_PATCH = 256 * 1024;
/** GitHub lists at most this many files of a pull request, and compares at most 300 between commits. */
const PULL_REQUEST_FILE_LIMIT = 3000;
const COMPARE_FILE_LIMIT = 300;

type ThreadsAnswer = {
  node: {
    pullRequest: { reviewThreads: { pageInfo: GqlPageInfo; nodes: GqlReviewThread[] } } | null;
  } | null;
};
type ThreadCommentsAnswer = { node: { comments: { pageInfo: GqlPageInfo; nodes: GqlComment[] } } | null };
type Signal = AbortSignal | undefined;
type InlineThread = Omit<CreateThreadInput, 'revision'> & { anchor: ThreadAnchor };

/** A patch GitHub sent with a file listing, with the paths of the listing it came from. */
interface CachedPatch {
  hunks: string;
  oldPath: string | undefined;
  newPath: string | undefined;
}

/**
 * `ScmProviderV1` for GitHub and GitHub Enterprise Server. Repositories are addressed by numeric id
 * (`/repositories/{id}/…`), so a renamed or transferred repository keeps working; GraphQL reaches
 * the same repository through its node id, looked up once and cached. Revisions are commits keyed
 * by head SHA, since GitHub has no iterations. Hidden thread markers travel as HTML comments at the
 * end of the first comment's body.
 */
export function createGitHubProvider(connection: ScmConnectionConfig, options: GitHubOptions = {}): ScmProviderV1 {
  const client = new GitHubClient(connection, options);
  const nodeIds = new BoundedCache<string, string>(512);
  const patches = new BoundedCache<string, CachedPatch>(4096);
  const mergeBases = new BoundedCache<string, string>(256);
  const threadNodeIds = new BoundedCache<string, string>(4096);
  const ownerTypes = new BoundedCache<string, string>(256);

  /** Who the credentials act as: the PAT's user, or the App's `<slug>[bot]`. */
  const account = rememberOnce(async (): Promise<ScmAccount> => {
    if (client.isApp) {
      const app = await client.asApp<{ slug?: string; name?: string }>('/app');
      const login = `${app.slug ?? 'app'}[bot]`;
      return { login, displayName: app.name ?? login };
    }
    const { data } = await client.rest<GhUser>({ path: '/user' });
    return { login: data.login, displayName: data.name ?? data.login };
  });

  /** GraphQL names a bot `slug`, REST `slug[bot]`; an App's comments are always a bot's. */
  const connectionAuthor = async (): Promise<IsConnectionAuthor> => {
    const own = botless((await account.get()).login);
    return (author) => botless(author.login) === own && (!client.isApp || author.isBot);
  };

  const repo = (ref: RepositoryRef) => {
    if (!/^\d+$/.test(ref.repositoryId)) {
      throw MarginError.validation('A GitHub repository id is the numeric repository id, as a string.');
    }
    return `/repositories/${ref.repositoryId}`;
  };
  const pull = (ref: PullRequestRef) => `${repo(ref)}/pulls/${ref.pullRequestId}`;

  /**
   * Patches are keyed by what they diff, base and head: the pull request against its target (GitHub
   * diffs from their merge base), or an explicit base to a head. An interdiff between two pushes
   * therefore never gets the pull request's patch of the same head.
   */
  const rangePatchKey = (ref: RepositoryRef, baseSha: string, headSha: string, path: string) =>
    `${ref.repositoryId}:${baseSha}...${headSha}:${path}`;
  const patchKey = (ref: PullRequestRef, revision: Revision, path: string) =>
    revision.mergeBaseSha === undefined
      ? `${ref.repositoryId}#${ref.pullRequestId}:${revision.baseSha}...${revision.headSha}:${path}`
      : rangePatchKey(ref, revision.mergeBaseSha, revision.headSha, path);
  const rememberPatch = (key: string, file: GhPullRequestFile) => {
    if (file.patch === undefined || file.patch.length > MAX_CACHED_PATCH) return;
    const changed = toChangedFile(file);
    patches.set(key, {
      hunks: file.patch,
      oldPath: changed.changeType === 'added' ? undefined : (changed.previousPath ?? changed.path),
      newPath: changed.changeType === 'deleted' ? undefined : changed.path,
    });
  };

  const getPull = async (ref: PullRequestRef, signal: Signal) =>
    (await client.rest<GhPullRequest>({ path: pull(ref), signal })).data;

  const repositoryNodeId = async (ref: RepositoryRef, signal: Signal) => {
    const known = nodeIds.get(ref.repositoryId);
    if (known) return known;
    const { data } = await client.rest<GhRepository>({ path: repo(ref), signal });
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

  /** A file's bytes at a commit SHA or branch name; `undefined` when it does not exist there. */
  const fileBytes = async (ref: RepositoryRef, path: string, version: string, signal: Signal) => {
    const response = await client.rest<Uint8Array>({
      path: `${repo(ref)}/contents/${encodePathSegments(path)}`,
      query: { ref: version },
      headers: { accept: 'application/vnd.github.raw+json' },
      responseType: 'bytes',
      allowStatuses: [404],
      signal,
    });
    return response.status === 404 ? undefined : response.data;
  };

  /** The merge base GitHub diffs a pull request against; `compare` is the one call that names it. */
  const mergeBaseOf = async (ref: RepositoryRef, revision: Revision, signal: Signal) => {
    if (revision.mergeBaseSha) return revision.mergeBaseSha;
    const key = `${ref.repositoryId}:${revision.baseSha}...${revision.headSha}`;
    const known = mergeBases.get(key);
    if (known) return known;
    const { data } = await client.rest<GhComparison>({
      path: `${repo(ref)}/compare/${revision.baseSha}...${revision.headSha}`,
      query: { per_page: 1 },
      signal,
    });
    const sha = data.merge_base_commit?.sha ?? revision.baseSha;
    mergeBases.set(key, sha);
    return sha;
  };

  /**
   * `compare/{from}...{to}` diffs from the two commits' merge base, so its patches are the diff from
   * `from` only when `to` descends from it; only then are they kept for `getFileDiff`.
   */
  const compare = async (ref: RepositoryRef, fromSha: string, toSha: string, signal: Signal) => {
    const { data } = await client.rest<GhComparison>({ path: `${repo(ref)}/compare/${fromSha}...${toSha}`, signal });
    const relation = relationOf(data.status);
    const files = data.files ?? [];
    if (relation === 'ahead' || relation === 'identical') {
      for (const file of files) rememberPatch(rangePatchKey(ref, fromSha, toSha, file.filename), file);
    }
    const comparison: CommitComparison = { relation, files: files.map(toChangedFile) };
    // GitHub sends no total: a full list may have been cut at the limit.
    if (files.length >= COMPARE_FILE_LIMIT) {
      comparison.truncation = {
        limit: COMPARE_FILE_LIMIT,
        reason: 'GitHub compares at most 300 files between two commits.',
      };
    }
    return comparison;
  };

  /** Every comment of a thread: the first 100 come with the thread, the rest page by node id. */
  const threadComments = async (thread: GqlReviewThread, signal: Signal) => {
    const comments = [...thread.comments.nodes];
    let page = thread.comments.pageInfo;
    while (page.hasNextPage && page.endCursor) {
      const answer = await client.graphql<ThreadCommentsAnswer>(
        THREAD_COMMENTS_QUERY,
        { thread: thread.id, after: page.endCursor },
        signal,
      );
      if (!answer.node) break;
      comments.push(...answer.node.comments.nodes);
      page = answer.node.comments.pageInfo;
    }
    return comments;
  };

  const reviewThreads = async function* (ref: PullRequestRef, signal: Signal): AsyncGenerator<GqlReviewThread> {
    const repository = await repositoryNodeId(ref, signal);
    yield* paginate<GqlReviewThread, string>(undefined, async (after) => {
      const answer = await client.graphql<ThreadsAnswer>(
        REVIEW_THREADS_QUERY,
        { repository, number: ref.pullRequestId, after: after ?? null },
        signal,
      );
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
  const threadNodeIdOf = async (ref: PullRequestRef, rootCommentId: number, signal: Signal) => {
    const key = `${ref.repositoryId}#${ref.pullRequestId}:${rootCommentId}`;
    const known = threadNodeIds.get(key);
    if (known) return known;
    for await (const thread of reviewThreads(ref, signal)) {
      rememberThread(ref, thread);
      if (thread.comments.nodes[0]?.databaseId === rootCommentId) return thread.id;
    }
    throw MarginError.notFound(`GitHub has no review thread starting with comment ${rootCommentId}.`);
  };

  const setReviewThreadStatus = async (
    ref: PullRequestRef,
    rootCommentId: number,
    resolved: boolean,
    signal: Signal,
  ) => {
    const thread = await threadNodeIdOf(ref, rootCommentId, signal);
    await client.graphql(resolved ? RESOLVE_THREAD_MUTATION : UNRESOLVE_THREAD_MUTATION, { thread }, signal);
  };

  /**
   * One review (`event: COMMENT`) carrying every inline comment of a batch: one request, and one
   * notification for the author instead of one per finding. The created comments are found again
   * among the review's comments by marker (or by place and body). `undefined` when GitHub refused
   * the review with 422, which it does as a whole when one comment is outside the diff.
   */
  const postReview = async (
    ref: PullRequestRef,
    revision: Revision,
    threads: readonly InlineThread[],
    signal: Signal,
  ): Promise<CreateThreadOutcome[] | undefined> => {
    let review: GhReview;
    try {
      const { data } = await client.rest<GhReview>({
        method: 'POST',
        path: `${pull(ref)}/reviews`,
        json: {
          commit_id: revision.headSha,
          event: 'COMMENT',
          // GitHub documents a body as required for a COMMENT review; a short one, the summary is elsewhere.
          body: `${threads.length === 1 ? '1 comment' : `${threads.length} comments`} on ${revision.headSha.slice(0, 7)}.`,
          comments: threads.map(reviewCommentBody),
        },
        signal,
      });
      review = data;
    } catch (error) {
      if (MarginError.isInstance(error) && error.details.providerStatus === 422) return undefined;
      throw error;
    }
    const posted: GhReviewComment[] = [];
    for await (const comment of client.pages<GhReviewComment>(
      `${pull(ref)}/reviews/${review.id}/comments`,
      {},
      { signal },
    )) {
      posted.push(comment);
    }
    const used = new Set<number>();
    const outcomes: CreateThreadOutcome[] = [];
    for (const thread of threads) {
      const match = posted.find((comment) => !used.has(comment.id) && isCommentOf(comment, thread));
      if (!match) {
        const where = `${thread.anchor.filePath}:${thread.anchor.endLine}`;
        outcomes.push({
          ok: false,
          error: MarginError.provider('invalidResponse', `GitHub did not list the comment on ${where} in its review.`),
        });
        continue;
      }
      used.add(match.id);
      if (thread.status === 'resolved') await setReviewThreadStatus(ref, match.id, true, signal);
      outcomes.push({ ok: true, thread: createdFrom(match) });
    }
    return outcomes;
  };

  const ownerType = async (owner: string, signal: Signal) => {
    const known = ownerTypes.get(owner.toLowerCase());
    if (known) return known;
    const { data } = await client.rest<GhUser>({ path: `/users/${encodeURIComponent(owner)}`, signal });
    ownerTypes.set(owner.toLowerCase(), data.type ?? 'User');
    return data.type ?? 'User';
  };

  const toRepository = (r: GhRepository): ScmRepository => ({
    repositoryId: String(r.id),
    name: r.name,
    projectKey: r.owner.login,
    defaultBranch: r.default_branch,
    webUrl: r.html_url,
  });

  const commentPath = (ref: PullRequestRef, threadId: string, commentId: string) => {
    const parsed = parseThreadId(threadId);
    if (!parsed) throw MarginError.validation(`"${threadId}" is not a GitHub thread id of this adapter.`);
    if (!/^\d+$/.test(commentId)) throw MarginError.validation(`"${commentId}" is not a GitHub comment id.`);
    return parsed.kind === 'issue'
      ? `${repo(ref)}/issues/comments/${commentId}`
      : `${repo(ref)}/pulls/comments/${commentId}`;
  };

  const provider: ScmProviderV1 = {
    specificationVersion: 'v1',
    family: 'gitHostA',

    async verify(options): Promise<ScmAccount> {
      const signal = options?.signal;
      let verified: ScmAccount;
      if (client.isApp) {
        // Minting an installation token proves key, App id and installation; `/user` is not for Apps.
        await client.rest({ path: '/installation/repositories', query: { per_page: 1 }, signal });
        const app = await client.asApp<{ slug?: string; name?: string }>('/app', signal);
        const login = `${app.slug ?? 'app'}[bot]`;
        verified = { login, displayName: app.name ?? login };
      } else {
        const { data } = await client.rest<GhUser>({ path: '/user', signal });
        verified = { login: data.login, displayName: data.name ?? data.login };
      }
      account.set(verified);
      return verified;
    },

    async getPullRequest(ref, options) {
      const pr = await getPull(ref, options?.signal);
      const snapshot: PullRequestSnapshot = {
        ...summaryOf(ref, pr),
        ref: { ...ref, repositoryId: String(pr.base.repo.id), pullRequestId: pr.number },
        description: pr.body ?? '',
        author: toUser(pr.user),
        webUrl: pr.html_url,
      };
      return snapshot;
    },

    async listRevisions(ref, options) {
      const signal = options?.signal;
      const pr = await getPull(ref, signal);
      const revisions: Revision[] = [];
      // GitHub lists at most 250 commits here, oldest first; the head is appended if it was cut off.
      for await (const commit of client.pages<GhCommit>(`${pull(ref)}/commits`, {}, { signal })) {
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

    /**
     * The pull request's own files (GitHub lists those of its current head, at most 3,000), or, for a
     * revision with an explicit `mergeBaseSha`, the files of `compare` from it (at most 300).
     */
    async *listChangedFiles(ref, revision, options): AsyncGenerator<ChangedFile> {
      const signal = options?.signal;
      if (revision.mergeBaseSha !== undefined) {
        const comparison = await compare(ref, revision.mergeBaseSha, revision.headSha, signal);
        yield* comparison.files;
        if (comparison.truncation) options?.onTruncated?.(comparison.truncation);
        return;
      }
      let count = 0;
      for await (const file of client.pages<GhPullRequestFile>(`${pull(ref)}/files`, {}, { signal })) {
        count++;
        rememberPatch(patchKey(ref, revision, file.filename), file);
        yield toChangedFile(file);
      }
      // Only a listing that reached the cap can be cut; the pull request's own count tells.
      if (count >= PULL_REQUEST_FILE_LIMIT && options?.onTruncated) {
        const pr = await getPull(ref, signal);
        if ((pr.changed_files ?? 0) > count) {
          options.onTruncated({
            limit: PULL_REQUEST_FILE_LIMIT,
            reason: 'GitHub lists at most 3,000 changed files of a pull request.',
          });
        }
      }
    },

    async compareCommits(ref, fromSha, toSha, options) {
      return compare(ref, fromSha, toSha, options?.signal);
    },

    async getFileContent(ref, path, version, options): Promise<FileContent | undefined> {
      const bytes = await fileBytes(ref, path, typeof version === 'string' ? version : version.branch, options?.signal);
      return bytes === undefined ? undefined : decodeFile(bytes);
    },

    async getFileDiff(ref, file, revision, options) {
      const signal = options?.signal;
      const cached = patches.get(patchKey(ref, revision, file.path));
      if (cached)
        return { text: withFileHeaders(cached.hunks, cached.oldPath, cached.newPath), commentable: 'diffLines' };
      // A pure rename of the pull request: GitHub counts no changed lines, sends no patch, and there is nothing to diff.
      const pureRename =
        revision.mergeBaseSha === undefined &&
        file.changeType === 'renamed' &&
        file.additions === 0 &&
        file.deletions === 0;
      if (pureRename)
        return { text: withFileHeaders('', file.previousPath ?? file.path, file.path), commentable: 'diffLines' };
      // GitHub leaves `patch` out for large and binary files, and an interdiff has none: diff both versions here.
      const base = await mergeBaseOf(ref, revision, signal);
      const text = await diffFromVersions(file, base, revision.headSha, (path, sha) =>
        fileBytes(ref, path, sha, signal),
      );
      return { text, commentable: 'diffLines' };
    },

    async *listThreads(ref, options): AsyncGenerator<ReviewThread> {
      const signal = options?.signal;
      const isConnectionAuthor = await connectionAuthor();
      for await (const thread of reviewThreads(ref, signal)) {
        rememberThread(ref, thread);
        const mapped = reviewThreadOf(thread, await threadComments(thread, signal), isConnectionAuthor);
        if (mapped) yield mapped;
      }
      // Conversation comments have no threads on GitHub: each is a thread of one.
      for await (const comment of client.pages<GhIssueComment>(
        `${repo(ref)}/issues/${ref.pullRequestId}/comments`,
        {},
        { signal },
      )) {
        yield issueCommentThread(comment, isConnectionAuthor);
      }
    },

    async createThread(ref, input: CreateThreadInput, options): Promise<CreatedThread> {
      const signal = options?.signal;
      if (!input.anchor) {
        const { data } = await client.rest<GhIssueComment>({
          method: 'POST',
          path: `${repo(ref)}/issues/${ref.pullRequestId}/comments`,
          json: { body: withHiddenMarker(input.body, input.marker, 'htmlComment') },
          signal,
        });
        return { threadId: `${ISSUE_COMMENT_PREFIX}${data.id}`, commentId: String(data.id), webUrl: data.html_url };
      }
      const { data } = await client.rest<GhReviewComment>({
        method: 'POST',
        path: `${pull(ref)}/comments`,
        json: inlineCommentBody({ ...input, anchor: input.anchor, headSha: input.revision.headSha }),
        signal,
      });
      if (input.status === 'resolved') await setReviewThreadStatus(ref, data.id, true, signal);
      return createdFrom(data);
    },

    async createThreads(ref, { revision, threads }, options) {
      const signal = options?.signal;
      const one = (thread: Omit<CreateThreadInput, 'revision'>) =>
        provider.createThread(ref, { ...thread, revision }, options);
      const inline: InlineThread[] = [];
      const inlineAt: number[] = [];
      const conversation: Array<Omit<CreateThreadInput, 'revision'>> = [];
      const conversationAt: number[] = [];
      threads.forEach((thread, index) => {
        if (thread.anchor) {
          inline.push({ ...thread, anchor: thread.anchor });
          inlineAt.push(index);
        } else {
          conversation.push(thread);
          conversationAt.push(index);
        }
      });
      const outcomes: CreateThreadOutcome[] = new Array(threads.length);
      const place = (at: number[], results: CreateThreadOutcome[]) =>
        results.forEach((result, k) => {
          outcomes[at[k] as number] = result;
        });
      // Pull-request-level comments are conversation comments, one request each.
      place(conversationAt, await createThreadsOneByOne(conversation, one, signal));
      if (inline.length > 0) {
        // One comment outside the diff refuses the review: then each goes alone, so only it fails.
        place(
          inlineAt,
          (await postReview(ref, revision, inline, signal)) ?? (await createThreadsOneByOne(inline, one, signal)),
        );
      }
      return outcomes;
    },

    async editComment(ref, input, options) {
      const signal = options?.signal;
      const path = commentPath(ref, input.threadId, input.commentId);
      let marker = input.marker;
      if (marker === undefined) {
        // The marker lives in the body: an edit that names none keeps the one already there.
        const { data } = await client.rest<{ body?: string | null }>({ path, signal });
        marker = readHiddenMarker(data.body ?? '').marker;
      }
      await client.rest({
        method: 'PATCH',
        path,
        json: { body: withHiddenMarker(input.body, marker, 'htmlComment') },
        responseType: 'none',
        signal,
      });
    },

    async reply(ref, threadId, body, options) {
      const signal = options?.signal;
      const parsed = parseThreadId(threadId);
      if (!parsed) throw MarginError.validation(`"${threadId}" is not a GitHub thread id of this adapter.`);
      if (parsed.kind === 'issue') {
        // Conversation comments cannot be replied to; the answer is a new comment on the pull request.
        const { data } = await client.rest<GhIssueComment>({
          method: 'POST',
          path: `${repo(ref)}/issues/${ref.pullRequestId}/comments`,
          json: { body },
          signal,
        });
        return { commentId: String(data.id) };
      }
      const { data } = await client.rest<GhReviewComment>({
        method: 'POST',
        path: `${pull(ref)}/comments/${parsed.rootCommentId}/replies`,
        json: { body },
        signal,
      });
      return { commentId: String(data.id) };
    },

    async setThreadStatus(ref, threadId, status, options) {
      const parsed = parseThreadId(threadId);
      if (!parsed) throw MarginError.validation(`"${threadId}" is not a GitHub thread id of this adapter.`);
      // Conversation comments have no resolution state on GitHub; there is nothing to set.
      if (parsed.kind === 'issue') return;
      await setReviewThreadStatus(ref, parsed.rootCommentId, status === 'resolved', options?.signal);
    },

    async *listOpenPullRequests(scope, options): AsyncGenerator<PullRequestSummary> {
      const signal = options?.signal;
      const repositories: Iterable<{ repositoryId: string }> | AsyncIterable<{ repositoryId: string }> =
        scope.repositoryId ? [{ repositoryId: scope.repositoryId }] : provider.listRepositories(scope, options);
      for await (const { repositoryId } of repositories) {
        const path = `${repo({ ...scope, repositoryId })}/pulls`;
        for await (const pr of client.pages<GhPullRequest>(
          path,
          { state: 'open', sort: 'created', direction: 'asc' },
          { signal },
        )) {
          yield summaryOf(scope, pr);
        }
      }
    },

    async *listProjects(scopePath, options): AsyncGenerator<ScmProject> {
      const signal = options?.signal;
      const owner = ownerOf(scopePath);
      if (owner) {
        const { data } = await client.rest<GhUser>({ path: `/users/${encodeURIComponent(owner)}`, signal });
        yield { projectKey: data.login, name: data.name ?? data.login };
        return;
      }
      if (client.isApp) {
        const installation = await client.asApp<{ account?: GhUser }>(
          `/app/installations/${connection.hostedAppInstallationId}`,
          signal,
        );
        if (installation.account) yield { projectKey: installation.account.login, name: installation.account.login };
        return;
      }
      // No owner in the scope path: the token's own account and every organization it belongs to.
      const login = (await account.get()).login;
      yield { projectKey: login, name: login };
      for await (const org of client.pages<GhUser>('/user/orgs', {}, { signal })) {
        yield { projectKey: org.login, name: org.login };
      }
    },

    async *listRepositories(scope, options): AsyncGenerator<ScmRepository> {
      const signal = options?.signal;
      const owner = scope.projectKey;
      const sameOwner = (r: GhRepository) => r.owner.login.toLowerCase() === owner.toLowerCase();
      let source: AsyncIterable<GhRepository>;
      if (client.isApp) {
        source = client.pages<GhRepository, { repositories: GhRepository[] }>(
          '/installation/repositories',
          {},
          { signal, pick: (data) => data.repositories },
        );
      } else if ((await ownerType(owner, signal)) === 'Organization') {
        source = client.pages<GhRepository>(`/orgs/${encodeURIComponent(owner)}/repos`, { type: 'all' }, { signal });
      } else if (owner.toLowerCase() === (await account.get()).login.toLowerCase()) {
        source = client.pages<GhRepository>('/user/repos', { affiliation: 'owner', visibility: 'all' }, { signal });
      } else {
        source = client.pages<GhRepository>(`/users/${encodeURIComponent(owner)}/repos`, { type: 'owner' }, { signal });
      }
      for await (const r of source) {
        // Archived and disabled repositories are read-only: nothing there can be reviewed.
        if (sameOwner(r) && !r.archived && !r.disabled) yield toRepository(r);
      }
    },

    async *listBranches(ref, options): AsyncGenerator<string> {
      for await (const branch of client.pages<{ name: string }>(
        `${repo(ref)}/branches`,
        {},
        { signal: options?.signal },
      )) {
        yield branch.name;
      }
    },

    async searchUsers(_scopePath, search, options): Promise<ScmUser[]> {
      const { data } = await client.rest<{ items: GhUser[] }>({
        path: '/search/users',
        query: { q: `${search} in:login`, per_page: 30 },
        signal: options?.signal,
      });
      return data.items.map(toUser);
    },
  };
  return provider;
}

function createdFrom(comment: GhReviewComment): CreatedThread {
  return { threadId: `${REVIEW_THREAD_PREFIX}${comment.id}`, commentId: String(comment.id), webUrl: comment.html_url };
}

/** A review's comment is the one posted for a thread when it carries the thread's marker, else its place and body. */
function isCommentOf(
  comment: GhReviewComment,
  thread: Pick<CreateThreadInput, 'body' | 'marker'> & { anchor: ThreadAnchor },
) {
  const { body, marker } = readHiddenMarker(comment.body);
  if (thread.marker !== undefined) return marker === thread.marker;
  return (
    marker === undefined &&
    comment.path === thread.anchor.filePath &&
    comment.line === thread.anchor.endLine &&
    body.trim() === thread.body.trim()
  );
}

function botless(login: string): string {
  return login.replace(/\[bot\]$/i, '').toLowerCase();
}

/** `https://github.com/acme` → `acme`; a scope path without an owner gives `undefined`. */
export function ownerOf(scopePath: string): string | undefined {
  if (!URL.canParse(scopePath)) return scopePath && !scopePath.includes('/') ? scopePath : undefined;
  const first = new URL(scopePath).pathname.split('/').filter(Boolean)[0];
  return first ? decodeURIComponent(first) : undefined;
}
