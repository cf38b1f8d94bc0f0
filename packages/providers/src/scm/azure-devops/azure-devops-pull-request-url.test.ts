import { parsePullRequestUrl } from '@margin/core';
import { describe, expect, it } from 'vitest';
import { createProviderRegistry } from '../../registry.js';

/** Every built-in family is asked, as `margin review --pr` asks them: the address must be Azure DevOps' alone. */
const read = (url: string) => parsePullRequestUrl(url, createProviderRegistry());

describe('Azure DevOps pull request addresses', () => {
  it.each([
    [
      'https://dev.azure.com/contoso/Web%20Shop/_git/shop-api/pullrequest/55',
      {
        family: 'suiteDevOps',
        hostBaseUrl: 'https://dev.azure.com/contoso',
        scopePath: 'https://dev.azure.com/contoso',
        projectKey: 'Web Shop',
        repositoryName: 'shop-api',
        repositoryPath: 'Web Shop/shop-api',
        pullRequestId: 55,
      },
    ],
    [
      'https://contoso.visualstudio.com/Shop/_git/api/pullrequest/3',
      {
        family: 'suiteDevOps',
        hostBaseUrl: 'https://contoso.visualstudio.com',
        projectKey: 'Shop',
        repositoryName: 'api',
        pullRequestId: 3,
      },
    ],
    [
      'https://tfs.acme.example/tfs/DefaultCollection/Shop/_git/api/pullrequest/9',
      {
        family: 'suiteDevOps',
        hostBaseUrl: 'https://tfs.acme.example/tfs/DefaultCollection',
        projectKey: 'Shop',
        pullRequestId: 9,
      },
    ],
    [
      // Segments are decoded to read and encoded again in the connection's host.
      'https://tfs.acme.example/tfs/Default%20Collection/Shop/_git/api/PullRequest/10?_a=files',
      {
        family: 'suiteDevOps',
        hostBaseUrl: 'https://tfs.acme.example/tfs/Default%20Collection',
        scopePath: 'https://tfs.acme.example/tfs/Default%20Collection',
        pullRequestId: 10,
      },
    ],
    [
      // A project whose only repository shares its name may be left out of the address.
      'https://dev.azure.com/contoso/_git/solo/pullrequest/4',
      {
        family: 'suiteDevOps',
        hostBaseUrl: 'https://dev.azure.com/contoso',
        projectKey: 'solo',
        repositoryName: 'solo',
      },
    ],
    [
      // Bitbucket's `WORKSPACE/REPO/pull-requests/` shape, refused off bitbucket.org, gives way.
      'https://contoso.visualstudio.com/Shop/_git/pull-requests/pullrequest/5',
      { family: 'suiteDevOps', projectKey: 'Shop', repositoryName: 'pull-requests', pullRequestId: 5 },
    ],
  ])('reads %s', (url, expected) => {
    expect(read(url)).toEqual(expect.objectContaining(expected));
  });

  it('reads its own example', () => {
    expect(read('https://dev.azure.com/ORG/PROJECT/_git/REPO/pullrequest/7')).toMatchObject({ family: 'suiteDevOps' });
  });

  it.each([
    ['https://dev.azure.com/contoso/Shop/_git/api/pullrequests', 'is not a pull request or merge request address'],
    ['https://dev.azure.com/contoso/Shop/_git/api/pullrequest/create', 'does not end in a pull request number'],
  ])('refuses %s', (url, message) => {
    expect(() => read(url)).toThrow(message);
  });
});
