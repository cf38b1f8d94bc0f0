import type { ScmPullRequestUrlsV1 } from '@margin/core/spec';
import { pullRequestNumber } from '../shared/index.js';

const BITBUCKET_CLOUD = 'https://bitbucket.org';

/**
 * Bitbucket Cloud's pull request addresses, `https://bitbucket.org/WORKSPACE/REPO/pull-requests/N`.
 * The same shape on another host is a Bitbucket Server or Data Center, which this family does not
 * speak to: refused, so that a family that does may read it.
 */
export const bitbucketPullRequestUrls: ScmPullRequestUrlsV1 = {
  example: `${BITBUCKET_CLOUD}/WORKSPACE/REPO/pull-requests/7`,
  read(url, segments) {
    if (segments.length < 4 || segments[2] !== 'pull-requests') return undefined;
    if (url.hostname !== 'bitbucket.org') {
      return { refused: 'names a Bitbucket Server or Data Center pull request, which Margin does not support' };
    }
    const id = pullRequestNumber(segments[3]);
    if (typeof id !== 'number') return id;
    const [workspace, slug] = segments as [string, string];
    return {
      hostBaseUrl: BITBUCKET_CLOUD,
      scopePath: `${BITBUCKET_CLOUD}/${workspace}`,
      projectKey: workspace,
      repositoryName: slug,
      repositoryPath: `${workspace}/${slug}`,
      pullRequestId: id,
    };
  },
};
