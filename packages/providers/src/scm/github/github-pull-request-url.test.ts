import { parsePullRequestUrl } from '@margin/core';
import { describe, expect, it } from 'vitest';
import { createProviderRegistry } from '../../registry.js';

/** Every built-in family is asked, as `margin review --pr` asks them: the address must be GitHub's alone. */
const read = (url: string) => parsePullRequestUrl(url, createProviderRegistry());

describe('GitHub pull request addresses', () => {
  it.each([
    [
      'https://github.com/acme/app/pull/7',
      {
        family: 'gitHostA',
        hostBaseUrl: 'https://github.com',
        scopePath: 'https://github.com/acme',
        projectKey: 'acme',
        repositoryName: 'app',
        repositoryPath: 'acme/app',
        pullRequestId: 7,
      },
    ],
    [
      'http://127.0.0.1:4321/acme/uploader/pull/901/files',
      {
        family: 'gitHostA',
        hostBaseUrl: 'http://127.0.0.1:4321',
        scopePath: 'http://127.0.0.1:4321/acme',
        projectKey: 'acme',
        repositoryName: 'uploader',
        pullRequestId: 901,
      },
    ],
    [
      // GitHub Enterprise Server: any host, upper case folded as the URL parser folds it.
      'HTTPS://GHE.Acme.Example/Platform/api/pull/3/commits/abc123',
      {
        family: 'gitHostA',
        hostBaseUrl: 'https://ghe.acme.example',
        scopePath: 'https://ghe.acme.example/Platform',
        projectKey: 'Platform',
        repositoryName: 'api',
        pullRequestId: 3,
      },
    ],
  ])('reads %s', (url, expected) => {
    expect(read(url)).toEqual(expect.objectContaining(expected));
  });

  it('reads its own example', () => {
    expect(read('https://github.com/OWNER/REPO/pull/7')).toMatchObject({ family: 'gitHostA', pullRequestId: 7 });
  });

  it.each([
    ['https://github.com/acme/app/issues/7', 'is not a pull request or merge request address'],
    ['https://github.com/acme/app/pull/x', 'does not end in a pull request number'],
    ['https://github.com/acme/app/pull/0', 'does not end in a pull request number'],
    ['https://github.com/acme/app/pull', 'is not a pull request or merge request address'],
  ])('refuses %s', (url, message) => {
    expect(() => read(url)).toThrow(message);
  });
});
