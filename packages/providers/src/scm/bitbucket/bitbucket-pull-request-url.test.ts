import { parsePullRequestUrl } from '@margin/core';
import { describe, expect, it } from 'vitest';
import { createProviderRegistry } from '../../registry.js';

/** Every built-in family is asked, as `margin review --pr` asks them: the address must be Bitbucket's alone. */
const read = (url: string) => parsePullRequestUrl(url, createProviderRegistry());

describe('Bitbucket pull request addresses', () => {
  it.each([
    [
      'https://bitbucket.org/acme/site/pull-requests/21',
      {
        family: 'gitHostC',
        hostBaseUrl: 'https://bitbucket.org',
        scopePath: 'https://bitbucket.org/acme',
        projectKey: 'acme',
        repositoryName: 'site',
        repositoryPath: 'acme/site',
        pullRequestId: 21,
      },
    ],
    [
      // Bitbucket Cloud is one host: the connection is to it however the address was written.
      'http://BITBUCKET.org/acme/site/pull-requests/22/diff',
      { family: 'gitHostC', hostBaseUrl: 'https://bitbucket.org', scopePath: 'https://bitbucket.org/acme' },
    ],
  ])('reads %s', (url, expected) => {
    expect(read(url)).toEqual(expect.objectContaining(expected));
  });

  it('reads its own example', () => {
    expect(read('https://bitbucket.org/WORKSPACE/REPO/pull-requests/7')).toMatchObject({ family: 'gitHostC' });
  });

  it.each([
    ['https://bitbucket.acme.example/acme/site/pull-requests/2', 'Bitbucket Server'],
    ['https://bitbucket.org/acme/site/pull-requests/new', 'does not end in a pull request number'],
    ['https://bitbucket.org/acme/site/issues/2', 'is not a pull request or merge request address'],
  ])('refuses %s', (url, message) => {
    expect(() => read(url)).toThrow(message);
  });

  it('lists every built-in family’s example when an address is none of theirs', () => {
    expect(() => read('https://bitbucket.org/acme/site/src/main')).toThrow(
      '--pr is not a pull request or merge request address; expected an address like https://dev.azure.com/ORG/PROJECT/_git/REPO/pullrequest/7, https://github.com/OWNER/REPO/pull/7, https://gitlab.com/GROUP/PROJECT/-/merge_requests/7 or https://bitbucket.org/WORKSPACE/REPO/pull-requests/7.',
    );
  });
});
