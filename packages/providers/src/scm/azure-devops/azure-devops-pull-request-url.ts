import type { ScmPullRequestUrlsV1 } from '@margin/core/spec';
import { pullRequestNumber } from '../shared/index.js';

/**
 * Azure DevOps pull request addresses, `…/_git/REPO/pullrequest/N`, on any host:
 * `dev.azure.com/ORG/PROJECT`, `ORG.visualstudio.com/PROJECT` and Azure DevOps Server's
 * `HOST/tfs/COLLECTION/PROJECT`. The connection's host is the organization or collection.
 */
export const azureDevOpsPullRequestUrls: ScmPullRequestUrlsV1 = {
  example: 'https://dev.azure.com/ORG/PROJECT/_git/REPO/pullrequest/7',
  read(url, segments) {
    const git = segments.indexOf('_git');
    if (git < 0 || segments[git + 2]?.toLowerCase() !== 'pullrequest') return undefined;
    const id = pullRequestNumber(segments[git + 3]);
    if (typeof id !== 'number') return id;
    const repository = segments[git + 1] as string;
    const before = segments.slice(0, git);
    // dev.azure.com names the organization in the path, the other hosts in the host name. A
    // project whose only repository shares its name may be left out of the address.
    const organizationSegments = url.hostname === 'dev.azure.com' ? 1 : 0;
    const hasProject = before.length > organizationSegments;
    const collection = hasProject ? before.slice(0, -1) : before;
    const project = hasProject ? (before.at(-1) as string) : repository;
    const hostBaseUrl = [url.origin, ...collection.map(encodeURIComponent)].join('/');
    return {
      hostBaseUrl,
      scopePath: hostBaseUrl,
      projectKey: project,
      repositoryName: repository,
      repositoryPath: `${project}/${repository}`,
      pullRequestId: id,
    };
  },
};
