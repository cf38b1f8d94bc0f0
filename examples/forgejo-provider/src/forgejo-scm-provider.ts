import {
  type ChangedFile,
  type CommitComparison,
  type CreatedThread,
  type CreateThreadInput,
  type CreateThreadOutcome,
  type FileContent,
  type FileDiff,
  MarginError,
  type ProviderFamily,
  type PullRequestRef,
  type PullRequestSnapshot,
  type PullRequestSummary,
  type RepositoryRef,
  type ReviewThread,
  type Revision,
  type ScmAccount,
  type ScmConnectionConfig,
  type ScmProviderV1,
  type ScmRepository,
  type ScmScopeRef,
  type ThreadAnchor,
} from '@margin/core/spec';
import {
  BoundedCache,
  encodePathSegments,
  encodeSegment,
  isUnderTreePrefix,
  normalizeTreePrefix,
  rememberOnce,
  trimTrailingSlashes,
} from '@margin/providers/utils';
import { ForgejoClient } from './forgejo-client.js';
import { forgejoCommitStatus } from './forgejo-commit-status.js';
import { diffVersions, type GitDiffSection, splitGitDiff } from './forgejo-diff.js';
import type { ForgejoOptions } from './forgejo-options.js';
import {
  anchorOf,
  byCreation,
  CODE_THREAD,
  codeThread,
  conversationKey,
  type FjBranch,
  type FjChangedFile,
  type FjCommit,
  type FjCompare,
  type FjContents,
  type FjIssueComment,
  type FjOrganization,
  type FjPullRequest,
  type FjRepository,
  type FjReview,
  type FjReviewComment,
  type FjTree,
  type FjUser,
  type FjVersion,
  filesOfCommits,
  ISSUE_THREAD,
  isDraft,
  issueThread,
  oldestFirst,
  parseThreadId,
  pullRequestStatus,
  readMarker,
  resolutionSupport,
  toChangedFile,
  toUser,
  withMarker,
} from './forgejo-wire.js';

type Signal = AbortSignal | undefined;
type InlineThread = Omit<CreateThreadInput, 'revision'> & { anchor: ThreadAnchor };

/** A pull request's whole `.diff` larger than this is not kept; its files are diffed one by one instead. */
const MAX_CACHED_DIFF = 16 * 1024 * 1024;

/**
 * `ScmProviderV1` for Forgejo and Gitea (REST API v1, personal access token). Repositories are
 * addressed by numeric id, as webhooks name them; the owner and name are looked up once
 * (`GET /repositories/{id}`) and kept. Revisions are commits keyed by head SHA: Forgejo has no
 * iterations. Hidden thread markers travel as HTML comments at the end of a comment's body.
 *
 * Forgejo's wire has no review threads, only code comments: comments on the same file, side and
 * line form one conversation (as its web UI shows them), and a thread's id is its first comment's.
 * Inline comments are posted as a review (`event: COMMENT`); a reply is a one-comment review on the
 * same line. Pull-request-level threads are issue comments.
 */
export function createForgejoProvider(
  connection: ScmConnectionConfig,
  family: ProviderFamily,
  options: ForgejoOptions = {},
): ScmProviderV1 {
  if (connection.family !== family) {
    throw MarginError.validation(`The Forgejo adapter cannot connect a ${connection.family} connection.`);
  }
  if (connection.authenticationKind !== 'personalAccessToken') {
    throw MarginError.validation(`Forgejo accepts personalAccessToken, not ${connection.authenticationKind}.`);
  }
  const client = new ForgejoClient(connection.hostBaseUrl, connection.secret, options);
  const repositories = new BoundedCache<string, string>(512);
  const pullDiffs = new BoundedCache<string, Map<string, GitDiffSection>>(8);
  const roots = new BoundedCache<string, FjReviewComment>(4096);
  const account = rememberOnce(async (signal: Signal): Promise<ScmAccount> => {
    const { data } = await client.request<FjUser>({ path: '/user', signal });
    return { login: data.login, displayName: data.full_name || data.login };
  });
  const resolution = rememberOnce(async (signal: Signal) => {
    const { data } = await client.request<FjVersion>({ path: '/version', signal });
    return resolutionSupport(data?.version ?? '');
  });

  const rememberRepository = (r: FjRepository) =>
    repositories.set(String(r.id), `/repos/${encodeSegment(r.owner.login)}/${encodeSegment(r.name)}`);

  /** `/repos/{owner}/{repo}` of a repository id. */
  const repo = async (ref: RepositoryRef, signal: Signal): Promise<string> => {
    if (!/^\d+$/.test(ref.repositoryId)) {
      throw MarginError.validation('A Forgejo repository id is the numeric repository id, as a string.');
    }
    const known = repositories.get(ref.repositoryId);
    if (known) return known;
    const { data } = await client.request<FjRepository>({ path: `/repositories/${ref.repositoryId}`, signal });
    rememberRepository(data);
    return repositories.get(ref.repositoryId) as string;
  };
  const pull = async (ref: PullRequestRef, signal: Signal) => `${await repo(ref, signal)}/pulls/${ref.pullRequestId}`;

  const getPull = async (ref: PullRequestRef, signal: Signal) =>
    (await client.request<FjPullRequest>({ path: await pull(ref, signal), signal })).data;

  const revisionOf = (pr: FjPullRequest): Revision => ({
    revisionId: pr.head.sha,
    headSha: pr.head.sha,
    baseSha: pr.base.sha,
    mergeBaseSha: pr.merge_base || undefined,
  });

  /** The revision is the pull request as Forgejo diffs it now: its own files and `.diff` apply. */
  const isCurrent = (pr: FjPullRequest, revision: Revision) =>
    revision.headSha === pr.head.sha &&
    (revision.mergeBaseSha === undefined || revision.mergeBaseSha === pr.merge_base);

  const summaryOf = (scope: ScmScopeRef, pr: FjPullRequest): PullRequestSummary => ({
    ref: { ...scope, repositoryId: String(pr.base.repo_id ?? pr.base.repo?.id), pullRequestId: pr.number },
    title: pr.title,
    status: pullRequestStatus(pr),
    isDraft: isDraft(pr),
    sourceBranch: pr.head.ref,
    targetBranch: pr.base.ref,
    revision: revisionOf(pr),
    repositoryName: pr.base.repo?.name ?? '',
    repositoryOwner: pr.base.repo?.owner.login,
    reviewers: pr.requested_reviewers?.map(toUser),
  });

  /** A file's bytes at a commit or branch; `undefined` where it does not exist (or is not a file). */
  const fileBytes = async (ref: RepositoryRef, path: string, version: string, signal: Signal) => {
    const base = await repo(ref, signal);
    const encoded = encodePathSegments(path);
    const { status, data } = await client.request<FjContents | FjContents[]>({
      path: `${base}/contents/${encoded}`,
      query: { ref: version },
      allowStatuses: [404],
      signal,
    });
    if (status === 404 || Array.isArray(data) || data?.type !== 'file') return undefined;
    if (typeof data.content === 'string' && data.encoding === 'base64') return Buffer.from(data.content, 'base64');
    // Large files come without `content`; the raw endpoint serves any size.
    const raw = await client.request<Uint8Array>({
      path: `${base}/raw/${encoded}`,
      query: { ref: version },
      responseType: 'bytes',
      allowStatuses: [404],
      signal,
    });
    return raw.status === 404 ? undefined : raw.data;
  };

  /** Forgejo's own diff of the whole pull request (merge base to head), split per file, kept per head. */
  const pullDiff = async (ref: PullRequestRef, pr: FjPullRequest, signal: Signal) => {
    const key = `${ref.repositoryId}#${ref.pullRequestId}@${pr.merge_base}...${pr.head.sha}`;
    const known = pullDiffs.get(key);
    if (known) return known;
    const { data } = await client.request<string>({
      path: `${await pull(ref, signal)}.diff`,
      responseType: 'text',
      signal,
    });
    const sections = splitGitDiff(data ?? '');
    if ((data ?? '').length <= MAX_CACHED_DIFF) {
      pullDiffs.set(key, sections);
      pullDiffs.set(`${ref.repositoryId}#${ref.pullRequestId}@*...${pr.head.sha}`, sections);
    }
    return sections;
  };

  /** One file's diff computed here from both versions; both sides are read whatever the change type says. */
  const localDiff = async (ref: RepositoryRef, file: ChangedFile, baseSha: string, headSha: string, signal: Signal) => {
    const oldPath = file.previousPath ?? file.path;
    if (file.isBinary) {
      return diffVersions({
        oldPath: file.changeType === 'added' ? undefined : oldPath,
        newPath: file.changeType === 'deleted' ? undefined : file.path,
        oldText: '',
        newText: '',
        isBinary: true,
      });
    }
    const [before, after] = await Promise.all([
      fileBytes(ref, oldPath, baseSha, signal),
      fileBytes(ref, file.path, headSha, signal),
    ]);
    const decodedBefore = before ? decode(before) : undefined;
    const decodedAfter = after ? decode(after) : undefined;
    return diffVersions({
      oldPath: decodedBefore ? oldPath : undefined,
      newPath: decodedAfter ? file.path : undefined,
      oldText: decodedBefore?.text ?? '',
      newText: decodedAfter?.text ?? '',
      isBinary: Boolean(decodedBefore?.isBinary || decodedAfter?.isBinary),
    });
  };

  /** `from...to`: the commits in `to` since the two commits' merge base, oldest first; undefined where Forgejo cannot say. */
  const commitsSince = async (ref: RepositoryRef, fromSha: string, toSha: string, signal: Signal) => {
    const { status, data } = await client.request<FjCompare>({
      path: `${await repo(ref, signal)}/compare/${fromSha}...${toSha}`,
      query: { verification: false, files: true },
      // A commit gone after a force push, or a server older than the compare API.
      allowStatuses: [404],
      signal,
    });
    return status === 404 ? undefined : oldestFirst(data?.commits ?? []);
  };

  /** Every code comment of the pull request, grouped into conversations, oldest first. */
  const conversations = async (ref: PullRequestRef, signal: Signal): Promise<FjReviewComment[][]> => {
    const base = await pull(ref, signal);
    const groups = new Map<string, FjReviewComment[]>();
    for await (const review of client.pages<FjReview>(`${base}/reviews`, {}, { signal })) {
      // A pending review is an unsent draft (ours, left by a refused batch); no one sees its comments.
      if (review.state === 'PENDING' || review.comments_count === 0) continue;
      const { data } = await client.request<FjReviewComment[]>({
        path: `${base}/reviews/${review.id}/comments`,
        signal,
      });
      for (const comment of data ?? []) {
        const key = conversationKey(comment);
        const group = groups.get(key);
        if (group) group.push(comment);
        else groups.set(key, [comment]);
      }
    }
    const sorted = [...groups.values()].map((g) => g.sort(byCreation));
    sorted.sort((a, b) => byCreation(a[0] as FjReviewComment, b[0] as FjReviewComment));
    for (const group of sorted)
      roots.set(`${ref.repositoryId}:${(group[0] as FjReviewComment).id}`, group[0] as FjReviewComment);
    return sorted;
  };

  /** A code comment (the first of its conversation, for a reply; any, for an edit), from memory or the listing. */
  const rootOf = async (ref: PullRequestRef, commentId: number, signal: Signal) => {
    const key = `${ref.repositoryId}:${commentId}`;
    const known = roots.get(key);
    if (known) return known;
    for (const group of await conversations(ref, signal)) {
      const found = group.find((c) => c.id === commentId);
      if (found) return found;
    }
    throw MarginError.notFound(`Forgejo has no review comment ${commentId} on pull request #${ref.pullRequestId}.`);
  };

  /** Deletes our own pending review: Forgejo keeps the comments of a refused review as a draft. */
  const discardPending = async (ref: PullRequestRef, signal: Signal) => {
    const own = (await account.get(signal)).login.toLowerCase();
    const base = await pull(ref, signal);
    const pending: number[] = [];
    for await (const review of client.pages<FjReview>(`${base}/reviews`, {}, { signal })) {
      if (review.state === 'PENDING' && review.user?.login.toLowerCase() === own) pending.push(review.id);
    }
    for (const id of pending) {
      await client.request({
        method: 'DELETE',
        path: `${base}/reviews/${id}`,
        responseType: 'none',
        allowStatuses: [404],
        signal,
      });
    }
  };

  const reviewComment = (thread: Pick<InlineThread, 'anchor' | 'body' | 'marker'>) => {
    const line = thread.anchor.endLine;
    return {
      path: thread.anchor.filePath,
      body: withMarker(thread.body, thread.marker),
      ...(thread.anchor.side === 'old'
        ? { old_position: line, new_position: 0 }
        : { new_position: line, old_position: 0 }),
    };
  };

  /**
   * One review (`event: COMMENT`) carrying the inline comments: one request, one notification.
   * Forgejo's error when it refused it: it refuses a review as a whole, and keeps the comments it
   * had already taken as our pending draft, which is deleted here so they never surface later.
   */
  const postReview = async (
    ref: PullRequestRef,
    commitId: string,
    threads: readonly InlineThread[],
    signal: Signal,
  ): Promise<CreateThreadOutcome[] | MarginError> => {
    const base = await pull(ref, signal);
    let review: FjReview;
    try {
      const { data } = await client.request<FjReview>({
        method: 'POST',
        path: `${base}/reviews`,
        json: { commit_id: commitId, event: 'COMMENT', body: '', comments: threads.map(reviewComment) },
        signal,
      });
      review = data;
    } catch (error) {
      if (signal?.aborted || !isRefusal(error)) throw error;
      await discardPending(ref, signal);
      return error as MarginError;
    }
    const { data: posted } = await client.request<FjReviewComment[]>({
      path: `${base}/reviews/${review.id}/comments`,
      signal,
    });
    const candidates = [...(posted ?? [])].sort(byCreation);
    const used = new Set<number>();
    return threads.map((thread): CreateThreadOutcome => {
      const match = candidates.find((comment) => !used.has(comment.id) && isCommentOf(comment, thread));
      if (!match) {
        return {
          ok: false,
          error: MarginError.provider(
            'invalidResponse',
            `Forgejo did not list the comment on ${where(thread.anchor)} in its review.`,
          ),
        };
      }
      used.add(match.id);
      roots.set(`${ref.repositoryId}:${match.id}`, match);
      return {
        ok: true,
        thread: { threadId: `${CODE_THREAD}${match.id}`, commentId: String(match.id), webUrl: match.html_url },
      };
    });
  };

  const postInline = async (ref: PullRequestRef, commitId: string, thread: InlineThread, signal: Signal) => {
    const posted = await postReview(ref, commitId, [thread], signal);
    if (!Array.isArray(posted)) throw refused(thread.anchor, posted);
    const outcome = posted[0] as CreateThreadOutcome;
    if (!outcome.ok) throw outcome.error;
    if (thread.status === 'resolved')
      await provider.setThreadStatus(ref, outcome.thread.threadId, 'resolved', { signal });
    return outcome.thread;
  };

  const provider: ScmProviderV1 = {
    specificationVersion: 'v1',
    family,

    async verify(options) {
      const signal = options?.signal;
      const { data } = await client.request<FjUser>({ path: '/user', signal });
      const verified = { login: data.login, displayName: data.full_name || data.login };
      account.set(verified);
      return verified;
    },

    async getPullRequest(ref, options) {
      const pr = await getPull(ref, options?.signal);
      const snapshot: PullRequestSnapshot = {
        ...summaryOf(ref, pr),
        description: pr.body ?? '',
        author: toUser(pr.user),
        webUrl: pr.html_url,
      };
      return snapshot;
    },

    async listRevisions(ref, options) {
      const signal = options?.signal;
      const pr = await getPull(ref, signal);
      const commits: FjCommit[] = [];
      for await (const commit of client.pages<FjCommit>(
        `${await pull(ref, signal)}/commits`,
        { verification: false, files: false },
        { signal },
      )) {
        commits.push(commit);
      }
      const revisions: Revision[] = oldestFirst(commits).map((commit) => ({
        revisionId: commit.sha,
        headSha: commit.sha,
        baseSha: pr.base.sha,
        mergeBaseSha: pr.merge_base || undefined,
        createdAt: commit.commit?.committer?.date ?? commit.commit?.author?.date ?? commit.created,
      }));
      if (revisions.at(-1)?.headSha !== pr.head.sha) revisions.push(revisionOf(pr));
      return revisions;
    },

    /**
     * The pull request's own files when the revision is its current state (Forgejo lists them all,
     * from the merge base), otherwise the files of the commits between the revision's base and head.
     */
    async *listChangedFiles(ref, revision, options) {
      const signal = options?.signal;
      const pr = await getPull(ref, signal);
      if (isCurrent(pr, revision)) {
        for await (const file of client.pages<FjChangedFile>(`${await pull(ref, signal)}/files`, {}, { signal })) {
          yield toChangedFile(file);
        }
        return;
      }
      const commits = await commitsSince(ref, revision.mergeBaseSha ?? revision.baseSha, revision.headSha, signal);
      if (!commits) throw MarginError.notFound(`Forgejo cannot compare ${revision.baseSha} with ${revision.headSha}.`);
      yield* filesOfCommits(commits);
    },

    async compareCommits(ref, fromSha, toSha, options): Promise<CommitComparison> {
      const signal = options?.signal;
      if (fromSha === toSha) return { relation: 'identical', files: [] };
      const ahead = await commitsSince(ref, fromSha, toSha, signal);
      if (!ahead) return { relation: 'unknown', files: [] };
      // `to` descends from `from` exactly when one of the new commits has `from` as a parent.
      if (ahead.some((c) => c.parents?.some((p) => p.sha === fromSha))) {
        return { relation: 'ahead', files: filesOfCommits(ahead) };
      }
      // Otherwise the files changed on either side since the merge base differ between the two.
      const behind = (await commitsSince(ref, toSha, fromSha, signal)) ?? [];
      const files = new Map(filesOfCommits(ahead).map((f) => [f.path, f]));
      for (const file of filesOfCommits(behind)) {
        if (!files.has(file.path))
          files.set(file.path, { path: file.path, changeType: 'modified', rawChangeType: 'reverted' });
      }
      return { relation: ahead.length === 0 ? 'behind' : 'diverged', files: [...files.values()] };
    },

    async getFileContent(ref, path, version, options): Promise<FileContent | undefined> {
      const bytes = await fileBytes(ref, path, typeof version === 'string' ? version : version.branch, options?.signal);
      return bytes === undefined ? undefined : decode(bytes);
    },

    async getFileDiff(ref, file, revision, options): Promise<FileDiff> {
      const signal = options?.signal;
      let sections = pullDiffs.get(
        `${ref.repositoryId}#${ref.pullRequestId}@${revision.mergeBaseSha ?? '*'}...${revision.headSha}`,
      );
      let base = revision.mergeBaseSha ?? revision.baseSha;
      if (!sections) {
        const pr = await getPull(ref, signal);
        if (isCurrent(pr, revision)) {
          sections = await pullDiff(ref, pr, signal);
          base = pr.merge_base || base;
        }
      }
      const section = sections?.get(file.path);
      // Without rename detection git shows a rename as a deletion and an addition: diff it here then.
      const usable = section && (file.changeType !== 'renamed' || section.isRename);
      const text = usable ? section.text : await localDiff(ref, file, base, revision.headSha, signal);
      return { text, commentable: 'diffLines' };
    },

    async *listThreads(ref, options): AsyncGenerator<ReviewThread> {
      const signal = options?.signal;
      const own = (await account.get(signal)).login;
      for (const group of await conversations(ref, signal)) yield codeThread(group, own);
      for await (const comment of client.pages<FjIssueComment>(
        `${await repo(ref, signal)}/issues/${ref.pullRequestId}/comments`,
        {},
        { signal },
      )) {
        yield issueThread(comment, own);
      }
    },

    async createThread(ref, input, options): Promise<CreatedThread> {
      const signal = options?.signal;
      if (!input.anchor) {
        const { data } = await client.request<FjIssueComment>({
          method: 'POST',
          path: `${await repo(ref, signal)}/issues/${ref.pullRequestId}/comments`,
          json: { body: withMarker(input.body, input.marker) },
          signal,
        });
        return { threadId: `${ISSUE_THREAD}${data.id}`, commentId: String(data.id), webUrl: data.html_url };
      }
      return postInline(ref, input.revision.headSha, { ...input, anchor: input.anchor }, signal);
    },

    async createThreads(ref, { revision, threads }, options) {
      const signal = options?.signal;
      const outcomes: CreateThreadOutcome[] = new Array(threads.length);
      const inline: InlineThread[] = [];
      const inlineAt: number[] = [];
      const oneByOne = async (indexes: number[], create: (i: number) => Promise<CreatedThread>) => {
        for (const i of indexes) {
          signal?.throwIfAborted();
          try {
            outcomes[i] = { ok: true, thread: await create(i) };
          } catch (error) {
            if (signal?.aborted || !MarginError.isInstance(error)) throw error;
            outcomes[i] = { ok: false, error };
          }
        }
      };
      const conversation: number[] = [];
      threads.forEach((thread, i) => {
        if (thread.anchor) {
          inline.push({ ...thread, anchor: thread.anchor });
          inlineAt.push(i);
        } else {
          conversation.push(i);
        }
      });
      await oneByOne(conversation, (i) =>
        provider.createThread(ref, { ...(threads[i] as CreateThreadInput), revision }, options),
      );
      if (inline.length > 0) {
        const batch = await postReview(ref, revision.headSha, inline, signal);
        if (Array.isArray(batch)) {
          for (const [k, outcome] of batch.entries()) {
            const thread = inline[k] as InlineThread;
            if (outcome.ok && thread.status === 'resolved') {
              await provider.setThreadStatus(ref, outcome.thread.threadId, 'resolved', options);
            }
            outcomes[inlineAt[k] as number] = outcome;
          }
        } else {
          // One refused comment refuses the review: post each alone, so only that one fails.
          const at = new Map(inlineAt.map((index, k) => [index, inline[k] as InlineThread]));
          await oneByOne(inlineAt, (i) => postInline(ref, revision.headSha, at.get(i) as InlineThread, signal));
        }
      }
      return outcomes;
    },

    async editComment(ref, input, options) {
      const signal = options?.signal;
      const thread = parseThreadId(input.threadId);
      if (!/^\d+$/.test(input.commentId))
        throw MarginError.validation(`"${input.commentId}" is not a Forgejo comment id.`);
      const base = await repo(ref, signal);
      let marker = input.marker;
      if (marker === undefined) {
        // The marker lives in the body: an edit that names none keeps the one already there.
        const current =
          thread.kind === 'issue'
            ? (await client.request<FjIssueComment>({ path: `${base}/issues/comments/${input.commentId}`, signal }))
                .data.body
            : (await rootOf(ref, Number(input.commentId), signal)).body;
        marker = readMarker(current ?? '').marker;
      }
      // Forgejo edits code comments through the issue comment route as well.
      await client.request({
        method: 'PATCH',
        path: `${base}/issues/comments/${input.commentId}`,
        json: { body: withMarker(input.body, marker) },
        responseType: 'none',
        signal,
      });
    },

    async reply(ref, threadId, body, options) {
      const signal = options?.signal;
      const thread = parseThreadId(threadId);
      if (thread.kind === 'issue') {
        // A conversation comment cannot be answered in place; the answer is a new comment.
        const { data } = await client.request<FjIssueComment>({
          method: 'POST',
          path: `${await repo(ref, signal)}/issues/${ref.pullRequestId}/comments`,
          json: { body },
          signal,
        });
        return { commentId: String(data.id) };
      }
      const root = await rootOf(ref, thread.commentId, signal);
      const anchor = anchorOf(root);
      const commitId = root.commit_id || (await getPull(ref, signal)).head.sha;
      const posted = await postReview(ref, commitId, [{ body, anchor }], signal);
      if (!Array.isArray(posted)) throw refused(anchor, posted);
      const outcome = posted[0] as CreateThreadOutcome;
      if (!outcome.ok) throw outcome.error;
      return { commentId: outcome.thread.commentId };
    },

    async setThreadStatus(ref, threadId, status, options) {
      const signal = options?.signal;
      const thread = parseThreadId(threadId);
      // Conversation comments have no resolution state on Forgejo; there is nothing to set.
      if (thread.kind === 'issue') return;
      const support = await resolution.get(signal);
      const unsupported = () =>
        MarginError.provider(
          'rejected',
          `${support.server} has no API to ${status === 'resolved' ? 'resolve' : 'reopen'} a review conversation; ` +
            'someone can do it in the web interface (Gitea offers one from 1.26).',
        );
      if (!support.supported) throw unsupported();
      const { status: answered } = await client.request({
        method: 'POST',
        path: `${await repo(ref, signal)}/pulls/comments/${thread.commentId}/${status === 'resolved' ? 'resolve' : 'unresolve'}`,
        responseType: 'none',
        allowStatuses: [405],
        signal,
      });
      if (answered === 405) {
        resolution.set({ ...support, supported: false });
        throw unsupported();
      }
    },

    async *listOpenPullRequests(scope, options) {
      const signal = options?.signal;
      const ids: AsyncIterable<{ repositoryId: string }> | Iterable<{ repositoryId: string }> = scope.repositoryId
        ? [{ repositoryId: scope.repositoryId }]
        : provider.listRepositories(scope, options);
      for await (const { repositoryId } of ids) {
        const base = await repo({ ...scope, repositoryId }, signal);
        for await (const pr of client.pages<FjPullRequest>(
          `${base}/pulls`,
          { state: 'open', sort: 'oldest' },
          { signal },
        )) {
          yield summaryOf(scope, pr);
        }
      }
    },

    async *listProjects(scopePath, options) {
      const signal = options?.signal;
      const owner = ownerOf(scopePath, connection.hostBaseUrl);
      if (owner) {
        const { data } = await client.request<FjUser>({ path: `/users/${encodeSegment(owner)}`, signal });
        yield { projectKey: data.login, name: data.full_name || data.login };
        return;
      }
      // No owner in the scope: the token's own account and every organization it belongs to.
      const own = await account.get(signal);
      yield { projectKey: own.login, name: own.displayName };
      for await (const org of client.pages<FjOrganization>('/user/orgs', {}, { signal })) {
        yield { projectKey: org.username, name: org.full_name || org.username };
      }
    },

    async *listRepositories(scope, options) {
      const signal = options?.signal;
      const owner = scope.projectKey;
      const sameOwner = (r: FjRepository) => r.owner.login.toLowerCase() === owner.toLowerCase();
      const own = (await account.get(signal)).login.toLowerCase() === owner.toLowerCase();
      const sources = own
        ? ['/user/repos']
        : [`/orgs/${encodeSegment(owner)}/repos`, `/users/${encodeSegment(owner)}/repos`];
      for (const [i, source] of sources.entries()) {
        try {
          for await (const r of client.pages<FjRepository>(source, {}, { signal })) {
            rememberRepository(r);
            // Archived repositories are read-only: nothing there can be reviewed.
            if (sameOwner(r) && !r.archived) yield toRepository(r);
          }
          return;
        } catch (error) {
          // Not an organization: a user's repositories are listed under /users.
          const last = i === sources.length - 1;
          if (last || !MarginError.isInstance(error) || error.code !== 'not_found') throw error;
        }
      }
    },

    async *listBranches(ref, options) {
      const signal = options?.signal;
      for await (const branch of client.pages<{ name: string }>(
        `${await repo(ref, signal)}/branches`,
        {},
        { signal },
      )) {
        yield branch.name;
      }
    },

    async getBranchHead(ref, branch, options) {
      const signal = options?.signal;
      // The branch route takes the name's slashes as they are (`/branches/feature/x`).
      const { status, data } = await client.request<FjBranch>({
        path: `${await repo(ref, signal)}/branches/${encodePathSegments(branch)}`,
        allowStatuses: [404],
        signal,
      });
      return status === 404 ? undefined : data.commit?.id;
    },

    /**
     * The recursive git tree of the commit, page by page until the server stops saying `truncated`.
     * The tree API has no path filter, so a prefix is applied here; submodules (`commit`) and
     * directories (`tree`) are left out.
     */
    async *listTree(ref, commitSha, options) {
      const signal = options?.signal;
      const prefix = normalizeTreePrefix(options?.pathPrefix);
      const path = `${await repo(ref, signal)}/git/trees/${encodeSegment(commitSha)}`;
      for (let page = 1; page <= MAX_TREE_PAGES; page++) {
        const { data } = await client.request<FjTree>({
          path,
          query: { recursive: true, page, per_page: TREE_PAGE_SIZE },
          signal,
        });
        for (const entry of data.tree ?? []) {
          if (entry.type === 'blob' && isUnderTreePrefix(entry.path, prefix)) {
            yield { path: entry.path, blobId: entry.sha, sizeBytes: entry.size };
          }
        }
        if (!data.truncated || (data.tree ?? []).length === 0) return;
      }
    },

    async searchUsers(_scopePath, search, options) {
      const { data } = await client.request<{ ok?: boolean; data?: FjUser[] }>({
        path: '/users/search',
        query: { q: search, limit: 20 },
        signal: options?.signal,
      });
      return (data?.data ?? []).map(toUser);
    },

    async setCommitStatus(ref, input, options) {
      const signal = options?.signal;
      const status = forgejoCommitStatus(await repo(ref, signal), input);
      await client.request({ method: 'POST', path: status.path, json: status.json, signal });
    },
  };
  return provider;
}

/** Gitea's and Forgejo's `[api] DEFAULT_GIT_TREES_PER_PAGE`; a server configured lower pages sooner. */
const TREE_PAGE_SIZE = 1000;
/** A tree longer than this many pages is a server that ignores `page`; stop rather than loop. */
const MAX_TREE_PAGES = 2_000;

function toRepository(r: FjRepository): ScmRepository {
  return {
    repositoryId: String(r.id),
    name: r.name,
    projectKey: r.owner.login,
    defaultBranch: r.default_branch,
    webUrl: r.html_url,
  };
}

/** A review's comment is the one posted for a thread when it carries the thread's marker, else its place and body. */
function isCommentOf(comment: FjReviewComment, thread: Pick<InlineThread, 'anchor' | 'body' | 'marker'>): boolean {
  const { body, marker } = readMarker(comment.body);
  if (thread.marker !== undefined) return marker === thread.marker;
  const anchor = anchorOf(comment);
  return (
    marker === undefined &&
    comment.path === thread.anchor.filePath &&
    anchor.endLine === thread.anchor.endLine &&
    (anchor.side ?? 'new') === (thread.anchor.side ?? 'new') &&
    body.trim() === thread.body.trim()
  );
}

/** A failure that means "Forgejo would not take this review", as opposed to "Forgejo cannot be used now". */
function isRefusal(error: unknown): boolean {
  if (!MarginError.isInstance(error) || error.code !== 'provider_unavailable') return false;
  const status = error.details.providerStatus;
  return typeof status === 'number' && status !== 401 && status !== 403 && status !== 429 && status >= 400;
}

/** Forgejo's refusal of one comment, as the refusal it is, naming the place. */
function refused(anchor: ThreadAnchor, error: MarginError): MarginError {
  return MarginError.provider('rejected', `Forgejo refused a comment on ${where(anchor)}: ${error.message}`, {
    providerStatus: error.details.providerStatus as number,
    cause: error,
  });
}

function where(anchor: ThreadAnchor): string {
  return `${anchor.filePath} line ${anchor.endLine}${anchor.side === 'old' ? ' (old side)' : ''}`;
}

/** Git's heuristic: a NUL byte in the first 8,000 bytes makes a file binary. */
function decode(bytes: Uint8Array): FileContent {
  const end = Math.min(bytes.length, 8000);
  let isBinary = false;
  for (let i = 0; i < end && !isBinary; i++) isBinary = bytes[i] === 0;
  return { text: isBinary ? '' : new TextDecoder('utf-8').decode(bytes), sizeBytes: bytes.length, isBinary };
}

/**
 * The owner a scope path names: `https://codeberg.org/acme` → `acme` (also below a path prefix the
 * host is served under); a bare name is taken as it is; no owner gives `undefined`.
 */
export function ownerOf(scopePath: string, hostBaseUrl: string): string | undefined {
  if (!URL.canParse(scopePath)) return scopePath && !scopePath.includes('/') ? scopePath : undefined;
  const host = trimTrailingSlashes(hostBaseUrl);
  const rest = scopePath.startsWith(host) ? scopePath.slice(host.length) : new URL(scopePath).pathname;
  const first = rest.split('/').filter(Boolean)[0];
  return first ? decodeURIComponent(first) : undefined;
}
