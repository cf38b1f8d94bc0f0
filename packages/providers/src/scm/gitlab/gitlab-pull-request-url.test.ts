import { parsePullRequestUrl } from '@margin/core';
import { describe, expect, it } from 'vitest';
import { createProviderRegistry } from '../../registry.js';

/** Every built-in family is asked, as `margin review --pr` asks them: the address must be GitLab's alone. */
const read = (url: string) => parsePullRequestUrl(url, createProviderRegistry());

describe('GitLab merge request addresses', () => {
  it.each([
    [
      'https://gitlab.example.com/acme/platform/api/-/merge_requests/12/diffs',
      {
        family: 'gitHostB',
        hostBaseUrl: 'https://gitlab.example.com',
        scopePath: 'https://gitlab.example.com/acme/platform',
        projectKey: 'acme/platform',
        repositoryName: 'api',
        repositoryPath: 'acme/platform/api',
        pullRequestId: 12,
      },
    ],
    [
      'https://gitlab.com/acme/uploader/-/merge_requests/702',
      {
        family: 'gitHostB',
        hostBaseUrl: 'https://gitlab.com',
        scopePath: 'https://gitlab.com/acme',
        projectKey: 'acme',
        repositoryName: 'uploader',
        repositoryPath: 'acme/uploader',
        pullRequestId: 702,
      },
    ],
    [
      // A project named `pull` in a subgroup has GitHub's `OWNER/REPO/pull/` in its path: GitHub gives way.
      'https://gitlab.com/acme/tools/pull/-/merge_requests/4',
      { family: 'gitHostB', projectKey: 'acme/tools', repositoryName: 'pull', repositoryPath: 'acme/tools/pull' },
    ],
  ])('reads %s', (url, expected) => {
    expect(read(url)).toEqual(expect.objectContaining(expected));
  });

  it('reads its own example', () => {
    expect(read('https://gitlab.com/GROUP/PROJECT/-/merge_requests/7')).toMatchObject({ family: 'gitHostB' });
  });

  it.each([
    ['https://gitlab.com/acme/api/-/merge_requests/new', 'does not end in a pull request number'],
    ['https://gitlab.com/acme/api/-/issues/3', 'is not a pull request or merge request address'],
    // A project needs a group: `/-/` right below the host names none.
    ['https://gitlab.com/api/-/merge_requests/3', 'is not a pull request or merge request address'],
  ])('refuses %s', (url, message) => {
    expect(() => read(url)).toThrow(message);
  });
});
