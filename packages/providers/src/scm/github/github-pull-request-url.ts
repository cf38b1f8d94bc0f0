import type { ScmPullRequestUrlsV1 } from '@margin/core/spec';
import { pullRequestNumber } from '../shared/index.js';

/**
 * GitHub's pull request addresses, `https://HOST/OWNER/REPO/pull/N` and the pages below it
 * (`/files`, `/commits`), on any host: github.com, GHE.com and GitHub Enterprise Server alike.
 */
export const gitHubPullRequestUrls: ScmPullRequestUrlsV1 = {
  example: 'https://github.com/OWNER/REPO/pull/7',
  read(url, segments) {
    if (segments.length < 4 || segments[2] !== 'pull') return undefined;
    const id = pullRequestNumber(segments[3]);
    if (typeof id !== 'number') return id;
    const [owner, repository] = segments as [string, string];
    return {
      hostBaseUrl: url.origin,
      scopePath: `${url.origin}/${owner}`,
      projectKey: owner,
      repositoryName: repository,
      repositoryPath: `${owner}/${repository}`,
      pullRequestId: id,
    };
  },
};
