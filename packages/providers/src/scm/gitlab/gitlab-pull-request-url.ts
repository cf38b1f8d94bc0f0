import type { ScmPullRequestUrlsV1 } from '@margin/core/spec';
import { pullRequestNumber } from '../shared/index.js';

/**
 * GitLab's merge request addresses, `https://HOST/GROUP[/SUBGROUP…]/PROJECT/-/merge_requests/N`,
 * on gitlab.com or any self-managed host. The project is the last segment before `/-/`, its group
 * every one before it. GitLab installed under a relative root is not told apart from a group of
 * that name.
 */
export const gitLabPullRequestUrls: ScmPullRequestUrlsV1 = {
  example: 'https://gitlab.com/GROUP/PROJECT/-/merge_requests/7',
  read(url, segments) {
    const dash = segments.indexOf('-');
    if (dash < 2 || segments[dash + 1] !== 'merge_requests') return undefined;
    const id = pullRequestNumber(segments[dash + 2]);
    if (typeof id !== 'number') return id;
    const path = segments.slice(0, dash);
    const namespace = path.slice(0, -1).join('/');
    return {
      hostBaseUrl: url.origin,
      scopePath: `${url.origin}/${namespace}`,
      projectKey: namespace,
      repositoryName: path.at(-1) as string,
      repositoryPath: path.join('/'),
      pullRequestId: id,
    };
  },
};
