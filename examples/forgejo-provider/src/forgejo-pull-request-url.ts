import type { ScmPullRequestUrlsV1 } from '@margin/core/spec';

const NUMBER = /^\d+$/;

/**
 * Forgejo's and Gitea's pull request addresses, `https://HOST[/PREFIX]/OWNER/REPO/pulls/N` and the
 * pages below one (`/files`, `/commits`), on any host. A repository is always `OWNER/REPO`, so what
 * comes before it is the path prefix the host is served under: part of the connection's
 * `hostBaseUrl`, as `forgejoApiBase` reads it, and of the scope, `<hostBaseUrl>/OWNER`.
 */
export const forgejoPullRequestUrls: ScmPullRequestUrlsV1 = {
  example: 'https://codeberg.org/OWNER/REPO/pulls/7',
  read(url, segments) {
    // The first `pulls` followed by a number: a repository may itself be called `pulls`.
    const pulls = segments.findIndex((s, i) => i >= 2 && s === 'pulls' && NUMBER.test(segments[i + 1] ?? ''));
    if (pulls < 0) {
      // `OWNER/REPO/pulls` alone is the list: ours, but no pull request. Refused, not read, so a
      // family whose shape the address really has still may.
      return segments.indexOf('pulls', 2) < 0 ? undefined : { refused: 'does not end in a pull request number' };
    }
    const [owner, repository] = segments.slice(pulls - 2, pulls) as [string, string];
    const hostBaseUrl = [url.origin, ...segments.slice(0, pulls - 2).map(encodeURIComponent)].join('/');
    return {
      hostBaseUrl,
      scopePath: `${hostBaseUrl}/${encodeURIComponent(owner)}`,
      projectKey: owner,
      repositoryName: repository,
      repositoryPath: `${owner}/${repository}`,
      pullRequestId: Number(segments[pulls + 1]),
    };
  },
};
