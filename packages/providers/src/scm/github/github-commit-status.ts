import type { CommitStatusState, ScmProviderV1 } from '@margin/core/spec';
import { statusCommit, statusDescription } from '../shared/index.js';
import { type GitHubConnection, repositoryPath } from './github-connection.js';

/** GitHub's commit-status states are the port's own. */
const GITHUB_STATE: Record<CommitStatusState, string> = {
  pending: 'pending',
  success: 'success',
  failure: 'failure',
  error: 'error',
};

/** GitHub refuses a description over 140 characters. */
const DESCRIPTION_LIMIT = 140;

/**
 * A commit status on the head (`POST /repositories/{id}/statuses/{sha}`, the id form of
 * `/repos/{owner}/{repo}/statuses/{sha}`). The `context` is the status's name, so a later status of
 * the same name replaces the earlier one in the pull request's checks.
 */
export function gitHubCommitStatus(github: GitHubConnection): Required<Pick<ScmProviderV1, 'setCommitStatus'>> {
  return {
    async setCommitStatus(ref, input, options) {
      await github.client.rest({
        method: 'POST',
        path: `${repositoryPath(ref)}/statuses/${statusCommit(input.revision.headSha)}`,
        json: {
          state: GITHUB_STATE[input.state],
          context: input.name,
          description: statusDescription(input.description, DESCRIPTION_LIMIT),
          ...(input.targetUrl ? { target_url: input.targetUrl } : {}),
        },
        signal: options?.signal,
      });
    },
  };
}
