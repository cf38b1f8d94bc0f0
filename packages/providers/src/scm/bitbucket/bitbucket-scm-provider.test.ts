import type { PullRequestRef, ScmProviderV1 } from '@margin/core';
import { collect, describeScmProviderContract, marginErrorOf, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN,
  API_TOKEN_SECRET,
  BAD_ACCESS_TOKEN,
  type BitbucketFake,
  OLD_HEAD_SHA,
  OTHER_REPO_UUID,
  REPO_UUID,
  startBitbucketFake,
} from './bitbucket-fake.js';
import { bitbucketFamily } from './index.js';

const s = SCM_CONTRACT_SCENARIO;
const scope = { scopePath: 'https://bitbucket.org/acme', projectKey: 'acme' };
const ref: PullRequestRef = { ...scope, repositoryId: REPO_UUID, pullRequestId: s.pullRequest.number };

function connect(fake: BitbucketFake, secret = API_TOKEN_SECRET): ScmProviderV1 {
  return bitbucketFamily({ apiBaseUrl: fake.apiBaseUrl, http: { backoffBaseMs: 1 } }).connect({
    family: 'gitHostC',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: 'https://bitbucket.org',
    secret,
  });
}

describeScmProviderContract('Bitbucket Cloud (API token)', async () => {
  const fake = await startBitbucketFake();
  return {
    provider: connect(fake),
    providerWithBadCredentials: connect(fake, BAD_ACCESS_TOKEN),
    badSecret: BAD_ACCESS_TOKEN,
    scope,
    ref,
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.server.requests.length,
    close: () => fake.close(),
  };
});

describeScmProviderContract('Bitbucket Cloud (access token)', async () => {
  const fake = await startBitbucketFake();
  return {
    provider: connect(fake, ACCESS_TOKEN),
    providerWithBadCredentials: connect(fake, 'nobody@example.com:ATATT3xFfGF0wrong'),
    badSecret: 'ATATT3xFfGF0wrong',
    scope,
    ref,
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.server.requests.length,
    close: () => fake.close(),
  };
});

describe('Bitbucket adapter details', () => {
  let fake: BitbucketFake;
  let provider: ScmProviderV1;
  beforeEach(async () => {
    fake = await startBitbucketFake();
    provider = connect(fake);
  });
  afterEach(async () => {
    await fake.close();
  });

  it('sends an email:token secret as Basic and an access token as Bearer', async () => {
    await provider.verify();
    await connect(fake, ACCESS_TOKEN).verify();
    const [basic, bearer] = fake.server.requests.map((r) => r.headers.authorization);
    expect(basic).toBe(`Basic ${Buffer.from(API_TOKEN_SECRET).toString('base64')}`);
    expect(bearer).toBe(`Bearer ${ACCESS_TOKEN}`);
  });

  it('verifies an access token that may not read /user by its 403, but not an API token', async () => {
    fake.server.on('GET', '/2.0/user', () => ({
      status: 403,
      json: { type: 'error', error: { message: 'Your credentials lack one or more required privilege scopes.' } },
    }));
    expect(await connect(fake, ACCESS_TOKEN).verify()).toEqual({
      login: 'access-token',
      displayName: 'Bitbucket access token',
    });
    const error = await marginErrorOf(provider.verify());
    expect(error.details).toMatchObject({ providerFailure: 'authorization', providerStatus: 403 });
    expect(error.message).toBe('Bitbucket answered 403: Your credentials lack one or more required privilege scopes.');
  });

  it('resolves the 12-character hashes of a pull request to full SHAs, once per commit', async () => {
    const pr = await provider.getPullRequest(ref);
    expect(pr.revision).toEqual({
      revisionId: s.pullRequest.headSha,
      headSha: s.pullRequest.headSha,
      baseSha: s.pullRequest.baseSha,
    });
    expect(pr).toMatchObject({
      repositoryName: 'uploader',
      webUrl: 'https://bitbucket.org/acme/uploader/pull-requests/42',
    });
    await provider.getPullRequest(ref);
    const lookups = fake.server.requests.filter((r) => r.path.includes('/commit/')).map((r) => r.path);
    expect(lookups).toEqual([
      '/2.0/repositories/acme/uploader/commit/111111111111',
      '/2.0/repositories/acme/uploader/commit/222222222222',
    ]);
  });

  it('lists commits as revisions, oldest first', async () => {
    const revisions = await provider.listRevisions(ref);
    expect(revisions.map((r) => r.headSha)).toEqual([OLD_HEAD_SHA, s.pullRequest.headSha]);
    expect(revisions.every((r) => r.baseSha === s.pullRequest.baseSha)).toBe(true);
  });

  it('follows next links page by page through the diffstat of head..base', async () => {
    const pr = await provider.getPullRequest(ref);
    const files = collect(provider.listChangedFiles(ref, pr.revision));
    expect(await files).toHaveLength(230);
    const pages = fake.server.requests.filter((r) => r.path.includes('/diffstat/'));
    expect(pages.map((r) => r.path)).toEqual(
      Array(3).fill(`/2.0/repositories/acme/${REPO_UUID}/diffstat/${s.pullRequest.headSha}..${s.pullRequest.baseSha}`),
    );
    expect(pages.map((r) => r.query.get('page'))).toEqual([null, '2', '3']);
    expect(pages.every((r) => r.query.get('pagelen') === '100')).toBe(true);
    const older = await collect(provider.listChangedFiles(ref, { ...pr.revision, headSha: OLD_HEAD_SHA }));
    expect(older).toHaveLength(228);
  });

  it('streams changed files lazily: the first file costs one page, not the whole list', async () => {
    const pr = await provider.getPullRequest(ref);
    const files = provider.listChangedFiles(ref, pr.revision)[Symbol.asyncIterator]();
    expect((await files.next()).value).toMatchObject({ path: 'src/file-000.ts', changeType: 'modified' });
    await files.return?.();
    expect(fake.server.requests.filter((r) => r.path.includes('/diffstat/'))).toHaveLength(1);
  });

  it('follows Bitbucket’s 302 on /diff with the credentials still attached', async () => {
    const pr = await provider.getPullRequest(ref);
    const diff = await provider.getFileDiff(
      ref,
      { path: 'src/renamed.ts', previousPath: 'src/original.ts', changeType: 'renamed' },
      pr.revision,
    );
    expect(diff).toContain('diff --git a/src/renamed.ts b/src/renamed.ts');
    expect(diff).toContain('diff --git a/src/original.ts b/src/original.ts');
    const [asked, redirected] = fake.server.requests.filter((r) => r.path.includes('/diff/'));
    expect(asked?.query.getAll('path')).toEqual(['src/renamed.ts', 'src/original.ts']);
    expect(redirected?.path).toBe(
      `/2.0/repositories/acme/uploader/diff/acme/uploader:${s.pullRequest.headSha}\r${s.pullRequest.baseSha}`,
    );
    expect(redirected?.headers.authorization).toBe(asked?.headers.authorization);
  });

  it('groups replies to replies into their thread, hides deleted comments and reads resolution', async () => {
    const [existing] = await collect(provider.listThreads(ref));
    if (!existing) throw new Error('no thread');
    const second = await provider.reply(ref, existing.threadId, 'Second reply.');
    fake.comments.push({
      ...structuredClone(fake.comments[0] ?? { id: 0, content: { raw: '' }, created_on: '' }),
      id: 950,
      content: { raw: 'Reply to a reply.' },
      parent: { id: Number(second.commentId) },
    });
    await provider.setThreadStatus(ref, existing.threadId, 'resolved');
    const threads = await collect(provider.listThreads(ref));
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({
      threadId: '501',
      status: 'resolved',
      anchor: { filePath: 'src/file-001.ts', startLine: 3, endLine: 3 },
    });
    expect(threads[0]?.comments.map((c) => c.body)).toEqual([
      'Should this be configurable?',
      'Good idea, will do.',
      'Second reply.',
      'Reply to a reply.',
    ]);
  });

  it('posts a range as inline.to with start_to, a reply with parent, and a resolve on the top comment', async () => {
    const pr = await provider.getPullRequest(ref);
    const created = await provider.createThread(ref, {
      body: 'Cap it.',
      anchor: { filePath: 'src/file-002.ts', startLine: 5, endLine: 6 },
      revision: pr.revision,
      status: 'resolved',
    });
    await provider.createThread(ref, {
      body: 'One line.',
      anchor: { filePath: 'src/file-002.ts', startLine: 9, endLine: 9 },
      revision: pr.revision,
    });
    await provider.reply(ref, created.threadId, 'Detail.');
    expect(fake.postedComments).toEqual([
      { content: { raw: 'Cap it.' }, inline: { path: 'src/file-002.ts', to: 6, start_to: 5 } },
      { content: { raw: 'One line.' }, inline: { path: 'src/file-002.ts', to: 9 } },
      { content: { raw: 'Detail.' }, parent: { id: Number(created.threadId) } },
    ]);
    expect(created.webUrl).toContain('#comment-');
    // Resolving again is not an error (Bitbucket answers 409).
    await provider.setThreadStatus(ref, created.threadId, 'resolved');
    await provider.setThreadStatus(ref, created.threadId, 'open');
    const thread = (await collect(provider.listThreads(ref))).find((t) => t.threadId === created.threadId);
    expect(thread?.status).toBe('open');
  });

  it('lists open pull requests of every repository in the workspace', async () => {
    const open = await collect(provider.listOpenPullRequests(scope));
    expect(open.map((p) => p.ref.pullRequestId).sort()).toEqual([42, 43]);
    expect(fake.server.requests.some((r) => r.path === `/2.0/repositories/acme/${OTHER_REPO_UUID}/pullrequests`)).toBe(
      true,
    );
    expect(open.find((p) => p.ref.pullRequestId === 43)?.revision.headSha).toBe('4'.repeat(40));
  });

  it('lists the workspace and its projects, and a project’s repositories with a q filter', async () => {
    const projects = await collect(provider.listProjects('https://bitbucket.org/acme/'));
    expect(projects).toEqual([
      { projectKey: 'acme', name: 'Acme' },
      { projectKey: 'UPL', name: 'Uploads' },
      { projectKey: 'BIL', name: 'Billing' },
    ]);
    const billing = await collect(provider.listRepositories({ ...scope, projectKey: 'BIL' }));
    expect(billing.map((r) => r.name)).toEqual(['billing']);
    expect(fake.server.requests.at(-1)?.query.get('q')).toBe('project.key="BIL"');
    const all = await collect(provider.listRepositories(scope));
    expect(all[0]).toEqual({
      repositoryId: REPO_UUID,
      name: 'uploader',
      projectKey: 'acme',
      defaultBranch: 'main',
      webUrl: 'https://bitbucket.org/acme/uploader',
    });
  });

  it('finds workspace members by display name or nickname', async () => {
    expect((await provider.searchUsers(scope.scopePath, 'hopper')).map((u) => u.login)).toEqual(['grace']);
    expect(await provider.searchUsers(scope.scopePath, 'zz')).toEqual([]);
  });

  it('accepts a repository UUID without braces', async () => {
    const pr = await provider.getPullRequest({ ...ref, repositoryId: REPO_UUID.slice(1, -1) });
    expect(pr.title).toBe(s.pullRequest.title);
  });

  it('answers not_found with Bitbucket’s own message', async () => {
    const error = await marginErrorOf(provider.getPullRequest({ ...ref, pullRequestId: 7 }));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('Bitbucket answered 404: Pull request not found');
  });

  it('refuses to follow a next link to another host', async () => {
    fake.server.on('GET', '/2.0/repositories/:ws/:repo/refs/branches', () => ({
      json: { pagelen: 1, values: [{ name: 'main' }], next: 'https://evil.example.com/2.0/steal?page=2' },
    }));
    const error = await marginErrorOf(collect(provider.listBranches(ref)));
    expect(error.details).toMatchObject({ providerFailure: 'invalidResponse' });
  });

  it('backs off on a 429 without Retry-After and gives up as rate limited', async () => {
    fake.server.on('GET', '/2.0/user', () => ({ status: 429, text: 'Rate limit for this resource has been exceeded' }));
    const error = await marginErrorOf(provider.verify());
    expect(fake.server.requests).toHaveLength(4);
    expect(error.details).toMatchObject({ providerFailure: 'rateLimited', providerStatus: 429 });
  });
});
