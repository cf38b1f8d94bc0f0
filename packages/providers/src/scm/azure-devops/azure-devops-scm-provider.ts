import { MarginError } from '@margin/core';
import type {
  ChangedFile,
  CommitComparison,
  CreatedThread,
  CreateThreadInput,
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
  ThreadStatus,
} from '@margin/core/spec';
import { BoundedCache, continuationToken, paginate, readString, rememberOnce } from '../../utils/index.js';
import { branchName, createThreadsOneByOne, decodeFile, diffFromVersions } from '../shared/index.js';
import { AzureDevOpsClient } from './azure-devops-client.js';
import type { AzureDevOpsOptions } from './azure-devops-options.js';
import {
  type AdoChange,
  type AdoChangeEntry,
  type AdoComment,
  type AdoCommitDiffs,
  type AdoIdentity,
  type AdoIteration,
  type AdoIterationChanges,
  type AdoList,
  type AdoPullRequest,
  type AdoThread,
  identityToUser,
  inlineThreadBody,
  iterationIdOf,
  pullRequestStatus,
  pullRequestThreadBody,
  relationOf,
  toChangedFile,
  toReviewThread,
  toRevision,
  toUser,
} from './azure-devops-wire.js';

const PAGE = 100;
type Signal = AbortSignal | undefined;

/**
 * `ScmProviderV1` for Azure DevOps Services and Server over explicit REST routes. Coordinates: scope
 * path = organization or collection URL, project key = project name, repository id = repository GUID,
 * revision id = iteration id. Diffs are computed here (there is no diff endpoint) and take comments on
 * any line; hidden thread markers live in the thread's property bag.
 */
export function createAzureDevOpsProvider(
  connection: ScmConnectionConfig,
  options: AzureDevOpsOptions = {},
): ScmProviderV1 {
  const client = new AzureDevOpsClient(connection, options);
  // path → changeTrackingId per (repository, pull request, iteration): threads pin to it, and a
  // review lists the files before it comments, so the lookup is usually free.
  const trackingIds = new BoundedCache<string, Map<string, number>>(32);

  /** The identity the credentials act as (`connectionData`), to tell this connection's threads from others'. */
  const connectionUser = rememberOnce(async () =>
    accountOf(
      (await client.request<unknown>({ url: `${client.hostBaseUrl}/_apis/connectionData`, unversioned: true })).data,
    ),
  );

  const projectUrl = (scope: ScmScopeRef) =>
    `${client.organizationUrl(scope.scopePath)}/${encodeURIComponent(scope.projectKey)}`;
  const repoUrl = (ref: RepositoryRef) =>
    `${projectUrl(ref)}/_apis/git/repositories/${encodeURIComponent(ref.repositoryId)}`;
  const prUrl = (ref: PullRequestRef) => `${repoUrl(ref)}/pullRequests/${ref.pullRequestId}`;

  const get = async <T>(url: string, signal: Signal, query?: Record<string, string | number | undefined>) =>
    (await client.request<T>({ url, query, signal })).data;

  const iterations = async (ref: PullRequestRef, signal: Signal) =>
    (await get<AdoList<AdoIteration>>(`${prUrl(ref)}/iterations`, signal)).value.sort((a, b) => a.id - b.id);

  const revisionsOf = (pr: AdoPullRequest, list: AdoIteration[]): Revision[] => {
    const fallback = { head: pr.lastMergeSourceCommit?.commitId ?? '', base: pr.lastMergeTargetCommit?.commitId ?? '' };
    if (list.length === 0) return [{ revisionId: fallback.head, headSha: fallback.head, baseSha: fallback.base }];
    return list.map((iteration) => toRevision(iteration, fallback));
  };

  const newestRevision = async (ref: PullRequestRef, pr: AdoPullRequest, signal: Signal): Promise<Revision> => {
    const all = revisionsOf(pr, await iterations(ref, signal));
    const newest = all.at(-1);
    if (!newest) throw MarginError.provider('invalidResponse', 'Azure DevOps listed no iterations.');
    return newest;
  };

  const webUrl = (scope: ScmScopeRef, pr: AdoPullRequest) =>
    `${projectUrl(scope)}/_git/${encodeURIComponent(pr.repository.name)}/pullrequest/${pr.pullRequestId}`;

  const summaryOf = async (scope: ScmScopeRef, pr: AdoPullRequest, signal: Signal): Promise<PullRequestSummary> => {
    const ref: PullRequestRef = { ...scope, repositoryId: pr.repository.id, pullRequestId: pr.pullRequestId };
    return {
      ref,
      title: pr.title,
      status: pullRequestStatus(pr.status),
      isDraft: pr.isDraft ?? false,
      sourceBranch: branchName(pr.sourceRefName),
      targetBranch: branchName(pr.targetRefName),
      revision: await newestRevision(ref, pr, signal),
      repositoryName: pr.repository.name,
      reviewers: pr.reviewers?.map(toUser),
    };
  };

  /** Iteration changes, page by page (`$top`/`$skip`, continued while `nextTop` says so). */
  const changeEntries = (ref: PullRequestRef, iterationId: number, signal: Signal) =>
    paginate<AdoChangeEntry, number>(0, async (skip) => {
      const page = await get<AdoIterationChanges>(`${prUrl(ref)}/iterations/${iterationId}/changes`, signal, {
        $top: PAGE,
        $skip: skip ?? 0,
      });
      const more = (page.nextTop ?? 0) > 0 && page.changeEntries.length > 0;
      return { items: page.changeEntries, next: more ? page.nextSkip : undefined };
    });

  const resolveIterationId = async (
    ref: PullRequestRef,
    revision: Revision,
    signal: Signal,
  ): Promise<number | undefined> => {
    const direct = iterationIdOf(revision.revisionId);
    if (direct !== undefined) return direct;
    // A revision keyed by head SHA (e.g. from a webhook): find the iteration that ends there.
    const list = await iterations(ref, signal);
    return list.findLast((it) => it.sourceRefCommit?.commitId === revision.headSha)?.id ?? list.at(-1)?.id;
  };

  const trackingKey = (ref: PullRequestRef, iterationId: number) =>
    `${ref.repositoryId}#${ref.pullRequestId}@${iterationId}`;

  const changeTrackingIdOf = async (ref: PullRequestRef, iterationId: number, path: string, signal: Signal) => {
    const key = trackingKey(ref, iterationId);
    // A complete listing is cached once; a path missing from it is simply not in the diff.
    let known = trackingIds.get(key);
    if (!known) {
      known = new Map();
      for await (const entry of changeEntries(ref, iterationId, signal)) {
        const file = toChangedFile(entry);
        if (file) known.set(file.path, entry.changeTrackingId);
      }
      trackingIds.set(key, known);
    }
    return known.get(path);
  };

  /** A file's bytes at a commit or the tip of a branch; `undefined` when it does not exist there. */
  const fileBytes = async (ref: RepositoryRef, path: string, version: string | { branch: string }, signal: Signal) => {
    const response = await client.request<Uint8Array>({
      url: `${repoUrl(ref)}/items`,
      query: {
        path: `/${path.replace(/^\/+/, '')}`,
        'versionDescriptor.version': typeof version === 'string' ? version : branchName(version.branch),
        'versionDescriptor.versionType': typeof version === 'string' ? 'commit' : 'branch',
        $format: 'octetStream',
        download: false,
      },
      headers: { accept: 'application/octet-stream' },
      responseType: 'bytes',
      allowStatuses: [404],
      signal,
    });
    if (response.status !== 404) return response.data;
    // 404 covers both a missing path (TF401174, GitItemNotFoundException) and a missing repository;
    // only the first means "no such file at this commit".
    const body = response.data instanceof Uint8Array ? new TextDecoder().decode(response.data) : '';
    if (/GitItemNotFoundException|TF401174/.test(body)) return undefined;
    throw MarginError.notFound(`Azure DevOps has no repository ${ref.repositoryId} in project ${ref.projectKey}.`);
  };

  /** `diffs/commits` page by page (`$top`/`$skip`), from `fromSha` itself rather than the common commit. */
  const commitDiffs = async (ref: RepositoryRef, fromSha: string, toSha: string, signal: Signal) => {
    const changes: AdoChange[] = [];
    let first: AdoCommitDiffs | undefined;
    for (let skip = 0; ; skip += PAGE) {
      const page = await get<AdoCommitDiffs>(`${repoUrl(ref)}/diffs/commits`, signal, {
        baseVersion: fromSha,
        baseVersionType: 'commit',
        targetVersion: toSha,
        targetVersionType: 'commit',
        diffCommonCommit: 'false',
        $top: PAGE,
        $skip: skip,
      });
      first ??= page;
      changes.push(...(page.changes ?? []));
      // Paged by count alone: what `allChangesIncluded` promises across pages is not documented.
      if ((page.changes?.length ?? 0) < PAGE) break;
    }
    return { diffs: first ?? {}, changes };
  };

  const createThread = async (
    ref: PullRequestRef,
    input: CreateThreadInput,
    signal: Signal,
  ): Promise<CreatedThread> => {
    let body: ReturnType<typeof pullRequestThreadBody>;
    if (input.anchor) {
      const iterationId = await resolveIterationId(ref, input.revision, signal);
      const changeTrackingId =
        iterationId === undefined
          ? undefined
          : await changeTrackingIdOf(ref, iterationId, input.anchor.filePath, signal);
      body = inlineThreadBody({
        body: input.body,
        anchor: input.anchor,
        iterationId,
        changeTrackingId,
        status: input.status,
        marker: input.marker,
      });
    } else {
      body = pullRequestThreadBody(input.body, input.status, input.marker);
    }
    const { data } = await client.request<AdoThread>({
      method: 'POST',
      url: `${prUrl(ref)}/threads`,
      json: body,
      signal,
    });
    const first = data.comments[0];
    if (!first) throw MarginError.provider('invalidResponse', 'Azure DevOps created a thread without a comment.');
    return { threadId: String(data.id), commentId: String(first.id) };
  };

  const provider: ScmProviderV1 = {
    specificationVersion: 'v1',
    family: 'suiteDevOps',

    async verify(options): Promise<ScmAccount> {
      // Unversioned, cheap, and it names whoever the credentials act as.
      const { data } = await client.request<unknown>({
        url: `${client.hostBaseUrl}/_apis/connectionData`,
        unversioned: true,
        signal: options?.signal,
      });
      const account = accountOf(data);
      connectionUser.set(account);
      return { login: account.login, displayName: account.displayName };
    },

    async getPullRequest(ref, options) {
      const signal = options?.signal;
      const pr = await get<AdoPullRequest>(prUrl(ref), signal);
      const snapshot: PullRequestSnapshot = {
        ref: { ...ref, repositoryId: pr.repository.id, pullRequestId: pr.pullRequestId },
        title: pr.title,
        description: pr.description ?? '',
        status: pullRequestStatus(pr.status),
        isDraft: pr.isDraft ?? false,
        sourceBranch: branchName(pr.sourceRefName),
        targetBranch: branchName(pr.targetRefName),
        author: toUser(pr.createdBy),
        revision: await newestRevision(ref, pr, signal),
        repositoryName: pr.repository.name,
        webUrl: webUrl(ref, pr),
        reviewers: pr.reviewers?.map(toUser),
      };
      return snapshot;
    },

    async listRevisions(ref, options) {
      const signal = options?.signal;
      const [pr, list] = await Promise.all([get<AdoPullRequest>(prUrl(ref), signal), iterations(ref, signal)]);
      return revisionsOf(pr, list);
    },

    async *listChangedFiles(ref, revision, options): AsyncGenerator<ChangedFile> {
      const signal = options?.signal;
      const iterationId = await resolveIterationId(ref, revision, signal);
      if (iterationId === undefined) return;
      const known = new Map<string, number>();
      for await (const entry of changeEntries(ref, iterationId, signal)) {
        const file = toChangedFile(entry);
        if (!file) continue;
        // Remember tracking ids for threads only while the set stays small enough to be cheap.
        if (known.size < 20_000) known.set(file.path, entry.changeTrackingId);
        yield file;
      }
      if (known.size < 20_000) trackingIds.set(trackingKey(ref, iterationId), known);
    },

    async compareCommits(ref, fromSha, toSha, options): Promise<CommitComparison> {
      const { diffs, changes } = await commitDiffs(ref, fromSha, toSha, options?.signal);
      const files = changes.flatMap((change) => toChangedFile(change) ?? []);
      return { relation: relationOf(diffs, fromSha, toSha), files };
    },

    async getFileContent(ref, path, version, options): Promise<FileContent | undefined> {
      const bytes = await fileBytes(ref, path, version, options?.signal);
      return bytes === undefined ? undefined : decodeFile(bytes);
    },

    async getFileDiff(ref, file, revision, options) {
      // Azure DevOps has no diff endpoint: both versions are fetched and diffed here, against the
      // merge base as the pull request view does.
      const signal = options?.signal;
      const base = revision.mergeBaseSha ?? revision.baseSha;
      const text = await diffFromVersions(file, base, revision.headSha, (path, sha) =>
        fileBytes(ref, path, sha, signal),
      );
      return { text, commentable: 'anyLine' };
    },

    async *listThreads(ref, options): AsyncGenerator<ReviewThread> {
      const signal = options?.signal;
      const self = await connectionUser.get();
      // The threads endpoint is not paged: one answer holds every thread of the pull request.
      const { value } = await get<AdoList<AdoThread>>(`${prUrl(ref)}/threads`, signal);
      for (const thread of value) {
        const mapped = toReviewThread(thread, self.id);
        if (mapped) yield mapped;
      }
    },

    async createThread(ref, input: CreateThreadInput, options): Promise<CreatedThread> {
      return createThread(ref, input, options?.signal);
    },

    async createThreads(ref, { revision, threads }, options) {
      // Azure DevOps has no batch: one thread per request, each refused on its own.
      const signal = options?.signal;
      return createThreadsOneByOne(threads, (thread) => createThread(ref, { ...thread, revision }, signal), signal);
    },

    /** Only the comment's content changes: the marker sits in the thread's properties and stays. */
    async editComment(ref, input, options) {
      await client.request({
        method: 'PATCH',
        url: `${prUrl(ref)}/threads/${encodeURIComponent(input.threadId)}/comments/${encodeURIComponent(input.commentId)}`,
        json: { content: input.body },
        responseType: 'none',
        signal: options?.signal,
      });
    },

    async reply(ref, threadId, body, options) {
      // Replies hang off the thread's first comment, which Azure DevOps always numbers 1.
      const { data } = await client.request<AdoComment>({
        method: 'POST',
        url: `${prUrl(ref)}/threads/${encodeURIComponent(threadId)}/comments`,
        json: { content: body, parentCommentId: 1, commentType: 'text' },
        signal: options?.signal,
      });
      return { commentId: String(data.id) };
    },

    async setThreadStatus(ref, threadId, status: ThreadStatus, options) {
      await client.request({
        method: 'PATCH',
        url: `${prUrl(ref)}/threads/${encodeURIComponent(threadId)}`,
        json: { status: status === 'resolved' ? 'fixed' : 'active' },
        responseType: 'none',
        signal: options?.signal,
      });
    },

    async *listOpenPullRequests(scope, options): AsyncGenerator<PullRequestSummary> {
      const signal = options?.signal;
      const url = scope.repositoryId
        ? `${repoUrl({ ...scope, repositoryId: scope.repositoryId })}/pullrequests`
        : `${projectUrl(scope)}/_apis/git/pullrequests`;
      const prs = paginate<AdoPullRequest, number>(0, async (skip) => {
        const { value } = await get<AdoList<AdoPullRequest>>(url, signal, {
          'searchCriteria.status': 'active',
          $top: PAGE,
          $skip: skip ?? 0,
        });
        return { items: value, next: value.length < PAGE ? undefined : (skip ?? 0) + value.length };
      });
      // One more call per pull request: the summary's revision is the newest iteration, as in getPullRequest.
      for await (const pr of prs) yield await summaryOf(scope, pr, signal);
    },

    async *listProjects(scopePath, options): AsyncGenerator<ScmProject> {
      const url = `${client.organizationUrl(scopePath)}/_apis/projects`;
      yield* paginate<ScmProject, string>(undefined, async (token) => {
        const response = await client.request<AdoList<{ id: string; name: string }>>({
          url,
          query: { $top: PAGE, continuationToken: token },
          signal: options?.signal,
        });
        return {
          items: response.data.value.map((p) => ({ projectKey: p.name, name: p.name })),
          next: continuationToken(response.headers),
        };
      });
    },

    async *listRepositories(scope, options): AsyncGenerator<ScmRepository> {
      const { value } = await get<AdoList<AdoRepositoryWithState>>(
        `${projectUrl(scope)}/_apis/git/repositories`,
        options?.signal,
      );
      for (const repo of value) {
        // A disabled repository answers every call with an error; it cannot be reviewed.
        if (repo.isDisabled) continue;
        yield {
          repositoryId: repo.id,
          name: repo.name,
          projectKey: repo.project?.name ?? scope.projectKey,
          defaultBranch: repo.defaultBranch ? branchName(repo.defaultBranch) : undefined,
          webUrl: repo.webUrl ?? repo.remoteUrl,
        };
      }
    },

    async *listBranches(ref, options): AsyncGenerator<string> {
      const url = `${repoUrl(ref)}/refs`;
      yield* paginate<string, string>(undefined, async (token) => {
        const response = await client.request<AdoList<{ name: string }>>({
          url,
          query: { filter: 'heads/', $top: PAGE, continuationToken: token },
          signal: options?.signal,
        });
        return { items: response.data.value.map((r) => branchName(r.name)), next: continuationToken(response.headers) };
      });
    },

    async searchUsers(scopePath, search, options): Promise<ScmUser[]> {
      const base = client.identityUrl(client.organizationUrl(scopePath));
      const { value } = await get<AdoList<AdoIdentity>>(`${base}/_apis/identities`, options?.signal, {
        searchFilter: 'General',
        filterValue: search,
        queryMembership: 'None',
      });
      return value.filter((identity) => identity.isActive !== false).map(identityToUser);
    },
  };
  return provider;
}

interface AdoRepositoryWithState {
  id: string;
  name: string;
  project?: { name: string };
  defaultBranch?: string;
  webUrl?: string;
  remoteUrl?: string;
  isDisabled?: boolean;
}

/**
 * `connectionData.authenticatedUser`: the account name is in `properties.Account.$value`; its `id` is
 * the one comments carry as `author.id`.
 */
function accountOf(data: unknown): ScmAccount & { id: string | undefined } {
  const id = readString(data, 'authenticatedUser', 'id');
  const displayName =
    readString(data, 'authenticatedUser', 'customDisplayName') ??
    readString(data, 'authenticatedUser', 'providerDisplayName');
  const login = readString(data, 'authenticatedUser', 'properties', 'Account', '$value') ?? displayName ?? id;
  if (!login) throw MarginError.provider('invalidResponse', 'Azure DevOps connectionData named no user.');
  return { id, login, displayName: displayName ?? login };
}
