import { parsePullRequestUrl } from '@margin/core';
import { createProviderRegistry } from '@margin/providers';
import { describe, expect, it } from 'vitest';
import { forgejoPlugin } from './forgejo-family.js';
import { forgejoApiBase } from './forgejo-options.js';
import { ownerOf } from './forgejo-scm-provider.js';

/** The built-in families and this plugin, asked in turn as `margin review --pr` asks them. */
const registry = createProviderRegistry({ plugins: [forgejoPlugin()] });
const read = (url: string) => parsePullRequestUrl(url, registry);

describe('Forgejo pull request addresses', () => {
  it.each([
    [
      'https://codeberg.org/acme/uploader/pulls/7',
      {
        family: 'forgejo',
        hostBaseUrl: 'https://codeberg.org',
        scopePath: 'https://codeberg.org/acme',
        projectKey: 'acme',
        repositoryName: 'uploader',
        repositoryPath: 'acme/uploader',
        pullRequestId: 7,
      },
    ],
    [
      // Below a path prefix, on plain http and a port, with a page of the pull request open.
      'http://git.example.com:3000/forgejo/acme/uploader/pulls/12/files',
      {
        family: 'forgejo',
        hostBaseUrl: 'http://git.example.com:3000/forgejo',
        scopePath: 'http://git.example.com:3000/forgejo/acme',
        projectKey: 'acme',
        repositoryName: 'uploader',
        pullRequestId: 12,
      },
    ],
    [
      // A repository called `pulls`: the `pulls` followed by a number is the pull request's.
      'https://gitea.example.com/tools/git/acme/pulls/pulls/3',
      {
        family: 'forgejo',
        hostBaseUrl: 'https://gitea.example.com/tools/git',
        projectKey: 'acme',
        repositoryName: 'pulls',
        pullRequestId: 3,
      },
    ],
  ])('reads %s', (url, expected) => {
    expect(read(url)).toEqual(expect.objectContaining(expected));
  });

  it('reads its address into a host and scope the adapter speaks to: the API below the prefix, the owner', () => {
    const pr = read('https://git.example.com/forge%20jo/acme/uploader/pulls/5');
    expect(forgejoApiBase(pr.hostBaseUrl)).toBe('https://git.example.com/forge%20jo/api/v1');
    expect(ownerOf(pr.scopePath, pr.hostBaseUrl)).toBe(pr.projectKey);
  });

  it('leaves the built-in families their addresses, and is listed among the examples', () => {
    expect(read('https://github.com/acme/app/pull/7')).toMatchObject({ family: 'gitHostA' });
    expect(read('https://gitlab.com/acme/tools/pulls/-/merge_requests/4')).toMatchObject({ family: 'gitHostB' });
    expect(() => read('https://codeberg.org/acme/uploader/issues/7')).toThrow(
      /^--pr is not a pull request or merge request address; expected an address like https:\/\/dev\.azure\.com\/.* or https:\/\/codeberg\.org\/OWNER\/REPO\/pulls\/7\.$/,
    );
  });

  it('refuses the list of pull requests, which names none', () => {
    expect(() => read('https://codeberg.org/acme/uploader/pulls')).toThrow(
      '--pr does not end in a pull request number',
    );
    expect(() => read('https://codeberg.org/acme/uploader/pulls/new')).toThrow('does not end in a pull request number');
  });
});
