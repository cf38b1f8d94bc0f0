import type { PullRequestRef, ScmProviderV1 } from '@margin/core/spec';
import {
  collect,
  describeScmProviderContract,
  marginErrorOf,
  SCENARIO_PULL_REQUEST,
  SCENARIO_PUSH,
  SCM_CONTRACT_SCENARIO,
} from '@margin/core/testing';
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
    family: bitbucketFamily({ apiBaseUrl: fake.apiBaseUrl }),
    provider: connect(fake),
    providerWithBadCredentials: connect(fake, BAD_ACCESS_TOKEN),
    badSecret: BAD_ACCESS_TOKEN,
    scope,
    ref,
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.server.requests.length,
    loadPullRequest: (scenario) => fake.loadPullRequest(scenario),
    refuseThreadsOn: (path) => fake.refuseThreadsOn(path),
    commitStatuses: {
      recorded: () => fake.statuses,
      target: s.pullRequest.headSha,
      wireStates: { pending: 'INPROGRESS', success: 'SUCCESSFUL', failure: 'FAILED', error: 'FAILED' },
      refuse: (refused) => fake.refuseStatuses(refused),
    },
    treeHasBlobIds: false,
    close: () => fake.close(),
  };
});

describeScmProviderContract('Bitbucket Cloud (access token)', async () => {
  const fake = await startBitbucketFake();
  return {
    family: bitbucketFamily({ apiBaseUrl: fake.apiBaseUrl }),
    provider: connect(fake, ACCESS_TOKEN),
    providerWithBadCredentials: connect(fake, 'nobody@example.com:ATATT3xFfGF0wrong'),
    badSecret: 'ATATT3xFfGF0wrong',
    scope,
    ref,
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.server.requests.length,
    loadPullRequest: (scenario) => fake.loadPullRequest(scenario),
    refuseThreadsOn: (path) => fake.refuseThreadsOn(path),
    commitStatuses: {
      recorded: () => fake.statuses,
      target: s.pullRequest.headSha,
      wireStates: { pending: 'INPROGRESS', success: 'SUCCESSFUL', failure: 'FAILED', error: 'FAILED' },
      refuse: (refused) => fake.refuseStatuses(refused),
    },
    treeHasBlobIds: false,
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
    // Bitbucket sent a section per path; the file's own one is kept, without git's extended headers.
    expect(diff).toEqual({
      text: '--- a/src/renamed.ts\n+++ b/src/renamed.ts\n@@ -1 +1 @@\n-old\n+new\n',
      commentable: 'diffLines',
    });
    const [asked, redirected] = fake.server.requests.filter((r) => r.path.includes('/diff/'));
    expect(asked?.query.getAll('path')).toEqual(['src/renamed.ts', 'src/original.ts']);
    expect(asked?.query.get('topic')).toBe('true');
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

  it('posts a range on its last line (inline.to), a reply with parent, and a resolve on the top comment', async () => {
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
    const comments = fake.writes.filter((w) => w.method === 'POST' && w.path.endsWith('/comments'));
    expect(comments.map((w) => w.body)).toEqual([
      { content: { raw: 'Cap it.' }, inline: { path: 'src/file-002.ts', to: 6 } },
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

describe('Bitbucket on a pull request served from file versions', () => {
  const p = SCENARIO_PULL_REQUEST;
  const prRef: PullRequestRef = { ...ref, pullRequestId: p.number };
  const repoPath = `/2.0/repositories/acme/${REPO_UUID}`;
  let fake: BitbucketFake;
  let provider: ScmProviderV1;
  beforeEach(async () => {
    fake = await startBitbucketFake();
    provider = connect(fake);
    await fake.loadPullRequest(p);
  });
  afterEach(async () => {
    await fake.close();
  });

  const posted = () =>
    fake.writes
      .filter((w) => w.method === 'POST' && w.path === `${repoPath}/pullrequests/${p.number}/comments`)
      .map((w) => w.body);

  it('posts inline.to for the new side, inline.from for the old side, and a range on its last line', async () => {
    const pr = await provider.getPullRequest(prRef);
    const outcomes = await provider.createThreads(prRef, {
      revision: pr.revision,
      threads: [
        { body: 'Added.', anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3 }, marker: 'margin:a' },
        { body: 'Removed.', anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' } },
        { body: 'Range.', anchor: { filePath: 'src/invoice.ts', startLine: 25, endLine: 26 } },
      ],
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    expect(posted()).toEqual([
      { content: { raw: 'Added.\n\n[margin-marker]: # (margin:a)' }, inline: { path: 'src/invoice.ts', to: 3 } },
      { content: { raw: 'Removed.' }, inline: { path: 'src/legacy.ts', from: 1 } },
      { content: { raw: 'Range.' }, inline: { path: 'src/invoice.ts', to: 26 } },
    ]);
    const threads = await collect(provider.listThreads(prRef));
    expect(threads.map((t) => [t.anchor, t.marker ?? null, t.comments[0]?.body])).toEqual([
      [{ filePath: 'src/invoice.ts', startLine: 3, endLine: 3 }, 'margin:a', 'Added.'],
      [{ filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' }, null, 'Removed.'],
      [{ filePath: 'src/invoice.ts', startLine: 26, endLine: 26 }, null, 'Range.'],
    ]);
    expect(threads.every((t) => t.authoredByConnection === true && t.isOutdated === false)).toBe(true);
    expect(threads[0]?.providerStatus).toBe('unresolved');
  });

  it('refuses a place Bitbucket refuses as a rejected thread naming it, and posts the others', async () => {
    const pr = await provider.getPullRequest(prRef);
    fake.refuseThreadsOn('src/windows.ts');
    const outcomes = await provider.createThreads(prRef, {
      revision: pr.revision,
      threads: [
        { body: 'Past the end.', anchor: { filePath: 'src/tax.ts', startLine: 9, endLine: 9 } },
        { body: 'Refused file.', anchor: { filePath: 'src/windows.ts', startLine: 2, endLine: 2 } },
        { body: 'Fine.', anchor: { filePath: 'src/tax.ts', startLine: 2, endLine: 2 } },
      ],
    });
    expect(outcomes.map((o) => o.ok)).toEqual([false, false, true]);
    const [first] = outcomes;
    if (first && !first.ok) {
      expect(first.error.code).toBe('provider_unavailable');
      expect(first.error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 400 });
      expect(first.error.message).toBe(
        'Bitbucket refused a thread on src/tax.ts line 9: Bitbucket answered 400: inline: The line is not part of the file.',
      );
    }
    expect(posted()).toHaveLength(3);
  });

  it('edits a comment with PUT and keeps the marker as a link definition Bitbucket does not render', async () => {
    const pr = await provider.getPullRequest(prRef);
    const created = await provider.createThread(prRef, { body: 'First.', revision: pr.revision, marker: 'margin:s' });
    await provider.editComment(prRef, { ...created, body: 'Second.', marker: 'margin:s' });
    expect(fake.writes.at(-1)).toEqual({
      method: 'PUT',
      path: `${repoPath}/pullrequests/${p.number}/comments/${created.commentId}`,
      body: { content: { raw: 'Second.\n\n[margin-marker]: # (margin:s)' } },
    });
    const [summary] = await collect(provider.listThreads(prRef));
    expect(summary).toMatchObject({ threadId: created.threadId, marker: 'margin:s', comments: [{ body: 'Second.' }] });
  });

  it('learns its own account from what it posts when an access token may not read /user', async () => {
    fake.server.on('GET', '/2.0/user', () => ({
      status: 403,
      json: { type: 'error', error: { message: 'Your credentials lack one or more required privilege scopes.' } },
    }));
    const bot = connect(fake, ACCESS_TOKEN);
    const pr = await bot.getPullRequest(prRef);
    expect((await collect(bot.listThreads(ref)))[0]?.authoredByConnection).toBeUndefined();
    await bot.createThread(prRef, { body: 'Mine.', revision: pr.revision });
    expect((await collect(bot.listThreads(prRef)))[0]?.authoredByConnection).toBe(true);
    expect((await collect(bot.listThreads(ref)))[0]?.authoredByConnection).toBe(false);
  });

  it('reads an outdated inline comment as outdated', async () => {
    const [existing] = fake.comments;
    if (existing?.inline) existing.inline.outdated = true;
    expect((await collect(provider.listThreads(ref)))[0]?.isOutdated).toBe(true);
  });

  it('gives a pure rename headers only and a binary git’s one line', async () => {
    const pr = await provider.getPullRequest(prRef);
    const moved = await provider.getFileDiff(
      prRef,
      { path: 'src/moved.ts', previousPath: 'src/unmoved.ts', changeType: 'renamed' },
      pr.revision,
    );
    expect(moved).toEqual({ text: '--- a/src/unmoved.ts\n+++ b/src/moved.ts\n', commentable: 'diffLines' });
    const logo = await provider.getFileDiff(prRef, { path: 'assets/logo.png', changeType: 'modified' }, pr.revision);
    expect(logo.text).toBe('Binary files a/assets/logo.png and b/assets/logo.png differ\n');
  });

  it('diffs two heads with the two-dot diff from the older one, never the pull request’s topic diff', async () => {
    await fake.loadPullRequest(SCENARIO_PUSH);
    const before = fake.server.requests.length;
    const interdiff = await provider.getFileDiff(
      prRef,
      { path: 'src/tax.ts', changeType: 'modified' },
      {
        revisionId: SCENARIO_PUSH.headSha,
        headSha: SCENARIO_PUSH.headSha,
        baseSha: p.headSha,
        mergeBaseSha: p.headSha,
      },
    );
    expect(interdiff.text).toBe(
      '--- a/src/tax.ts\n+++ b/src/tax.ts\n@@ -1,2 +1,2 @@\n-export const rate = 0.2;\n+export const rate = 0.25;\n export const name = "vat";\n',
    );
    const [asked] = fake.server.requests.slice(before);
    expect(asked?.path).toBe(`${repoPath}/diff/${SCENARIO_PUSH.headSha}..${p.headSha}`);
    expect(asked?.query.get('topic')).toBe('false');
  });

  it('compares heads: identical without a call, ahead and behind from the merge base, diverged after a force push', async () => {
    const before = fake.server.requests.length;
    expect(await provider.compareCommits(prRef, p.headSha, p.headSha)).toEqual({ relation: 'identical', files: [] });
    expect(fake.server.requests).toHaveLength(before);

    await fake.loadPullRequest(SCENARIO_PUSH);
    const ahead = await provider.compareCommits(prRef, p.headSha, SCENARIO_PUSH.headSha);
    expect(ahead).toMatchObject({ relation: 'ahead', files: [{ path: 'src/tax.ts', changeType: 'modified' }] });
    const spec = `${SCENARIO_PUSH.headSha}..${p.headSha}`;
    const asked = fake.server.requests.slice(before).map((r) => `${r.path}?topic=${r.query.get('topic')}`);
    expect(asked).toEqual(
      expect.arrayContaining([`${repoPath}/diffstat/${spec}?topic=false`, `${repoPath}/merge-base/${spec}?topic=null`]),
    );
    expect((await provider.compareCommits(prRef, SCENARIO_PUSH.headSha, p.headSha)).relation).toBe('behind');

    const forced = { ...SCENARIO_PUSH, headSha: 'd'.repeat(40), relationToPreviousHead: 'diverged' as const };
    await fake.loadPullRequest({ ...forced, files: forced.files.filter((f) => f.path !== 'src/tax.ts') });
    const diverged = await provider.compareCommits(prRef, SCENARIO_PUSH.headSha, forced.headSha);
    expect(diverged).toMatchObject({ relation: 'diverged', files: [{ path: 'src/tax.ts', changeType: 'deleted' }] });
    // After the force push the pull request's commits no longer hold the rewritten head.
    expect((await provider.listRevisions(prRef)).map((r) => r.headSha)).toEqual([forced.headSha]);
  });

  it('answers commits without a merge base as diverged', async () => {
    fake.server.on('GET', '/2.0/repositories/:ws/:repo/merge-base/:spec', () => ({
      status: 404,
      json: { type: 'error', error: { message: 'No merge base' } },
    }));
    await fake.loadPullRequest(SCENARIO_PUSH);
    expect((await provider.compareCommits(prRef, p.headSha, SCENARIO_PUSH.headSha)).relation).toBe('diverged');
  });

  it('reads a file at the tip of a branch from src/{branch}/{path}', async () => {
    const config = await provider.getFileContent(prRef, '.margin/config.yml', { branch: 'main' });
    expect(config?.text).toBe('minimumSeverity: warning\n');
    expect(fake.server.requests.at(-1)?.path).toBe(`${repoPath}/src/main/.margin/config.yml`);
  });

  it('gives up a retry wait as soon as the signal is aborted', async () => {
    const controller = new AbortController();
    fake.server.on('GET', '/2.0/user', () => {
      setTimeout(() => controller.abort(), 20);
      return { status: 429, headers: { 'retry-after': '30' }, text: 'Rate limit for this resource has been exceeded' };
    });
    const started = Date.now();
    const error = await marginErrorOf(provider.verify({ signal: controller.signal }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.details).toMatchObject({ providerFailure: 'cancelled' });
    expect(fake.server.requests.filter((r) => r.path === '/2.0/user')).toHaveLength(1);
  });
});
