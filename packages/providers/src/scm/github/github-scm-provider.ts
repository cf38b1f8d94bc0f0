import type { ScmConnectionConfig, ScmProviderV1 } from '@margin/core/spec';
import { gitHubCommitStatus } from './github-commit-status.js';
import { connectGitHub, verifyGitHubAccount } from './github-connection.js';
import { gitHubDiffs } from './github-diffs.js';
import { gitHubDiscovery } from './github-discovery.js';
import type { GitHubOptions } from './github-options.js';
import { gitHubPullRequests } from './github-pull-requests.js';
import { gitHubThreads } from './github-threads.js';
import { gitHubTrees } from './github-trees.js';

/**
 * `ScmProviderV1` for GitHub and GitHub Enterprise Server, assembled from one part per concern over
 * a shared connection. Repositories are addressed by numeric id (`/repositories/{id}/…`), so a
 * renamed or transferred repository keeps working; GraphQL reaches the same repository through its
 * node id. Revisions are commits keyed by head SHA, since GitHub has no iterations.
 */
export function createGitHubProvider(connection: ScmConnectionConfig, options: GitHubOptions = {}): ScmProviderV1 {
  const github = connectGitHub(connection, options);
  return {
    specificationVersion: 'v1',
    family: 'gitHostA',
    verify: (callOptions) => verifyGitHubAccount(github, callOptions?.signal),
    ...gitHubPullRequests(github),
    ...gitHubDiffs(github),
    ...gitHubThreads(github),
    ...gitHubDiscovery(github),
    ...gitHubCommitStatus(github),
    ...gitHubTrees(github),
  };
}
