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
  createGitLabClient,
  type GitLabClient,
  gitLabApiBase,
  groupPathFromScope,
  type HttpTuning,
  seg,
} from './gitlab-client.js';
import { GitLabDiffs, mrPath } from './gitlab-diffs.js';
import {
  currentRevision,
  namespaceOf,
  repositoryNameOf,
  revisionFromVersion,
  toChangedFile,
  toFileContent,
  toStatus,
  toThread,
  toUser,
} from './gitlab-mapping.js';
import { lineMapFromDiff, textPosition } from './gitlab-position.js';
import type {
  GlBranch,
  GlDiscussion,
  GlGroup,
  GlMergeRequest,
  GlNote,
  GlProject,
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

  constructor(
    private readonly client: GitLabClient,
    private readonly hostBaseUrl: string,
  ) {
    this.diffs = new GitLabDiffs(client);
  }

  async verify(): Promise<ScmAccount> {
    const user = await this.client.get<GlUser>('/user');
    return { login: user.username, displayName: user.name || user.username };
  }

  async getPullRequest(ref: PullRequestRef): Promise<PullRequestSnapshot> {
    const mr = await this.client.get<GlMergeRequest>(mrPath(ref));
    const revision = currentRevision(mr, await this.newestVersion(ref));
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
  async listRevisions(ref: PullRequestRef): Promise<Revision[]> {
    const revisions: Revision[] = [];
    for await (const page of this.client.pages<GlVersion>(`${mrPath(ref)}/versions`)) {
      revisions.push(...page.map(revisionFromVersion));
    }
    return revisions.reverse();
  }

  async *listChangedFiles(ref: PullRequestRef, revision: Revision): AsyncIterable<ChangedFile> {
    for await (const diff of this.diffs.changedDiffs(ref, revision)) yield toChangedFile(diff);
  }

  async getFileContent(ref: RepositoryRef, path: string, commitSha: string): Promise<FileContent | undefined> {
    const res = await this.client.request<Uint8Array>({
      path: `/projects/${seg(ref.repositoryId)}/repository/files/${seg(path)}/raw`,
      query: { ref: commitSha },
      responseType: 'bytes',
      allowStatuses: [404],
    });
    return res.status === 404 ? undefined : toFileContent(res.data);
  }

  async getFileDiff(ref: PullRequestRef, file: ChangedFile, revision: Revision): Promise<string> {
    const entry = await this.diffs.find(ref, revision, file.path);
    return this.diffs.unifiedDiff(file, revision, entry, (path, sha) => this.getFileContent(ref, path, sha));
  }

  async *listThreads(ref: PullRequestRef): AsyncIterable<ReviewThread> {
    for await (const page of this.client.pages<GlDiscussion>(`${mrPath(ref)}/discussions`)) {
      for (const discussion of page) {
        const thread = toThread(discussion);
        if (thread) yield thread;
      }
    }
  }

  async createThread(ref: PullRequestRef, input: CreateThreadInput): Promise<CreatedThread> {
    if (!input.anchor) return this.createNote(ref, input.body);
    const anchor = input.anchor;
    const entry = await this.diffs.find(ref, input.revision, anchor.filePath);
    const file: ChangedFile = entry ? toChangedFile(entry) : { path: anchor.filePath, changeType: 'modified' };
    const diffText = await this.diffs.unifiedDiff(file, input.revision, entry, (path, sha) =>
      this.getFileContent(ref, path, sha),
    );
    const position = textPosition(
      anchor,
      input.revision,
      entry?.old_path ?? anchor.filePath,
      lineMapFromDiff(diffText),
    );
    let discussion: GlDiscussion;
    try {
      discussion = await this.postDiscussion(ref, { body: input.body, position });
    } catch (error) {
      // GitLab answers 400 for a position it cannot place (a line outside the diff, a stale head).
      // The finding still reaches the author, as an unanchored discussion naming the place.
      if (!MarginError.isInstance(error) || error.details.providerStatus !== 400) throw error;
      const where = `\`${anchor.filePath}\` line ${anchor.startLine === anchor.endLine ? anchor.endLine : `${anchor.startLine}–${anchor.endLine}`}`;
      discussion = await this.postDiscussion(ref, { body: `${where}\n\n${input.body}` });
    }
    if (input.status === 'resolved') await this.setThreadStatus(ref, discussion.id, 'resolved');
    return { threadId: discussion.id, commentId: String(discussion.notes[0]?.id ?? '') };
  }

  async reply(ref: PullRequestRef, threadId: string, body: string): Promise<{ commentId: string }> {
    const note = await this.post<GlNote>(`${mrPath(ref)}/discussions/${seg(threadId)}/notes`, { body });
    return { commentId: String(note.id) };
  }

  async setThreadStatus(ref: PullRequestRef, threadId: string, status: ThreadStatus): Promise<void> {
    await this.client.request({
      method: 'PUT',
      path: `${mrPath(ref)}/discussions/${seg(threadId)}`,
      json: { resolved: status === 'resolved' },
    });
  }

  async *listOpenPullRequests(
    scope: ScmScopeRef & { repositoryId?: string | undefined },
  ): AsyncIterable<PullRequestSummary> {
    const path = scope.repositoryId
      ? `/projects/${seg(scope.repositoryId)}/merge_requests`
      : `/groups/${seg(scope.projectKey)}/merge_requests`;
    for await (const page of this.client.pages<GlMergeRequest>(path, { state: 'opened', scope: 'all' })) {
      for (const mr of page) {
        const summary = await this.summaryOf(scope, mr);
        if (summary) yield summary;
      }
    }
  }

  /** The group the scope names, then every subgroup beneath it. */
  async *listProjects(scopePath: string): AsyncIterable<ScmProject> {
    const group = await this.client.get<GlGroup>(`/groups/${seg(groupPathFromScope(scopePath, this.hostBaseUrl))}`);
    yield { projectKey: group.full_path, name: group.full_name ?? group.name };
    for await (const page of this.client.pages<GlGroup>(`/groups/${group.id}/descendant_groups`)) {
      for (const sub of page) yield { projectKey: sub.full_path, name: sub.full_name ?? sub.name };
    }
  }

  async *listRepositories(scope: ScmScopeRef): AsyncIterable<ScmRepository> {
    const query = { include_subgroups: true, archived: false, simple: true, order_by: 'id', sort: 'asc' };
    for await (const page of this.client.pages<GlProject>(`/groups/${seg(scope.projectKey)}/projects`, query)) {
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

  async *listBranches(ref: RepositoryRef): AsyncIterable<string> {
    for await (const page of this.client.pages<GlBranch>(`/projects/${seg(ref.repositoryId)}/repository/branches`)) {
      for (const branch of page) yield branch.name;
    }
  }

  /** GitLab's own user search (username, name, public email); one page is plenty for a picker. */
  async searchUsers(_scopePath: string, search: string): Promise<ScmUser[]> {
    const users = await this.client.get<GlUser[]>('/users', { search, active: true, per_page: USER_SEARCH_LIMIT });
    return users.map(toUser);
  }

  private async newestVersion(ref: PullRequestRef): Promise<GlVersion | undefined> {
    const [newest] = await this.client.get<GlVersion[]>(`${mrPath(ref)}/versions`, { per_page: 1, page: 1 });
    return newest;
  }

  /**
   * List answers carry no `diff_refs`, so the newest version supplies the revision (one call per open
   * merge request; it keeps revision ids the same as `getPullRequest` gives).
   */
  private async summaryOf(scope: ScmScopeRef, mr: GlMergeRequest): Promise<PullRequestSummary | undefined> {
    if (!mr.sha) return undefined; // no commits yet: nothing to review
    const ref: PullRequestRef = {
      scopePath: scope.scopePath,
      projectKey: scope.projectKey,
      repositoryId: String(mr.project_id),
      pullRequestId: mr.iid,
    };
    const revision = currentRevision(mr, await this.newestVersion(ref)) ?? {
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

  /**
   * A pull-request-level comment is a plain note: GitLab does not count it as an unresolved thread,
   * so a summary never blocks "all threads must be resolved". The note answer has no discussion id,
   * so the discussion holding it is looked up, from the last page back (it is the newest).
   */
  private async createNote(ref: PullRequestRef, body: string): Promise<CreatedThread> {
    const note = await this.post<GlNote>(`${mrPath(ref)}/notes`, { body });
    const path = `${mrPath(ref)}/discussions`;
    const first = await this.client.request<GlDiscussion[]>({ path, query: { per_page: 100, page: 1 } });
    const holds = (page: GlDiscussion[]) => page.find((d) => d.notes.some((n) => n.id === note.id));
    const totalPages = Number(first.headers.get('x-total-pages'));
    let found: GlDiscussion | undefined;
    if (Number.isInteger(totalPages) && totalPages > 1) {
      for (let page = totalPages; page > 1 && !found; page -= 1) {
        found = holds(await this.client.get<GlDiscussion[]>(path, { per_page: 100, page }));
      }
    } else if (!first.headers.has('x-total-pages')) {
      // GitLab leaves totals out above 10,000 items: walk forward instead.
      for await (const page of this.client.pages<GlDiscussion>(path, {}, 2)) {
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

  private postDiscussion(ref: PullRequestRef, json: unknown): Promise<GlDiscussion> {
    return this.post<GlDiscussion>(`${mrPath(ref)}/discussions`, json);
  }

  private async post<T>(path: string, json: unknown): Promise<T> {
    return (await this.client.request<T>({ method: 'POST', path, json })).data;
  }
}
