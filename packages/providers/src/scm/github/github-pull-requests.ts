import type {
  PullRequestRef,
  PullRequestSnapshot,
  PullRequestSummary,
  Revision,
  ScmProviderV1,
  ScmScopeRef,
} from '@margin/core/spec';
import { type GitHubConnection, pullRequestPath, type Signal } from './github-connection.js';
import { type GhCommit, type GhPullRequest, pullRequestStatus, toUser } from './github-wire.js';

/** A pull request and its revisions. GitHub has no iterations: a revision is a commit, keyed by head SHA. */
export function gitHubPullRequests(github: GitHubConnection): Pick<ScmProviderV1, 'getPullRequest' | 'listRevisions'> {
  const { client } = github;
  return {
    async getPullRequest(ref, options) {
      const pr = await readPullRequest(github, ref, options?.signal);
      const snapshot: PullRequestSnapshot = {
        ...pullRequestSummaryOf(ref, pr),
        ref: { ...ref, repositoryId: String(pr.base.repo.id), pullRequestId: pr.number },
        description: pr.body ?? '',
        author: toUser(pr.user),
        webUrl: pr.html_url,
      };
      return snapshot;
    },

    async listRevisions(ref, options) {
      const signal = options?.signal;
      const pr = await readPullRequest(github, ref, signal);
      const revisions: Revision[] = [];
      // GitHub lists at most 250 commits here, oldest first; the head is appended if it was cut off.
      for await (const commit of client.pages<GhCommit>(`${pullRequestPath(ref)}/commits`, {}, { signal })) {
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
  };
}

export async function readPullRequest(github: GitHubConnection, ref: PullRequestRef, signal: Signal) {
  return (await github.client.rest<GhPullRequest>({ path: pullRequestPath(ref), signal })).data;
}

export function pullRequestSummaryOf(scope: ScmScopeRef, pr: GhPullRequest): PullRequestSummary {
  return {
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
  };
}

function revisionOf(pr: GhPullRequest): Revision {
  return { revisionId: pr.head.sha, headSha: pr.head.sha, baseSha: pr.base.sha };
}
