import { createHash } from 'node:crypto';
import type { PullRequestRef, ScmProviderV1 } from '@margin/core';
import { collect, describeScmProviderContract, marginErrorOf, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GITLAB_BAD_TOKEN,
  GITLAB_TOKEN,
  type GitLabFake,
  OLD_HEAD_SHA,
  PROJECT_ID,
  startGitLabFake,
  TOO_LARGE_PATH,
  UNPLACEABLE_LINE,
} from './gitlab-fake.js';
import { gitLabFamily } from './index.js';

const s = SCM_CONTRACT_SCENARIO;
const scope = { scopePath: 'https://gitlab.example.com/acme', projectKey: 'acme' };
const ref: PullRequestRef = { ...scope, repositoryId: String(PROJECT_ID), pullRequestId: s.pullRequest.number };

function connect(fake: GitLabFake, secret = GITLAB_TOKEN): ScmProviderV1 {
  return gitLabFamily({ http: { backoffBaseMs: 1 } }).connect({
    family: 'gitHostB',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: fake.hostBaseUrl,
    secret,
  });
}

describeScmProviderContract('GitLab', async () => {
  const fake = await startGitLabFake();
  return {
    provider: connect(fake),
    providerWithBadCredentials: connect(fake, GITLAB_BAD_TOKEN),
    badSecret: GITLAB_BAD_TOKEN,
    scope,
    ref,
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.server.requests.length,
    close: () => fake.close(),
  };
});

describe('GitLab adapter details', () => {
  let fake: GitLabFake;
  let provider: ScmProviderV1;
  beforeEach(async () => {
    fake = await startGitLabFake();
    provider = connect(fake);
  });
  afterEach(async () => {
    await fake.close();
  });

  it('sends the token as PRIVATE-TOKEN and nothing in Authorization', async () => {
    await provider.verify();
    const request = fake.server.requests[0];
    expect(request?.headers['private-token']).toBe(GITLAB_TOKEN);
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('uses the newest version for the revision: id, head, target tip and merge base', async () => {
    const pr = await provider.getPullRequest(ref);
    expect(pr.revision).toEqual({
      revisionId: '8',
      headSha: s.pullRequest.headSha,
      baseSha: s.pullRequest.baseSha,
      mergeBaseSha: s.pullRequest.baseSha,
      createdAt: '2026-10-02T15:01:09.521Z',
    });
    expect(pr).toMatchObject({ repositoryName: 'uploader', isDraft: false, reviewers: [{ login: 'grace' }] });
    const revisions = await provider.listRevisions(ref);
    expect(revisions.map((r) => r.revisionId)).toEqual(['7', '8']);
  });

  it('walks /diffs with x-next-page, 100 a page, and fetches a listed file’s diff alone afterwards', async () => {
    const pr = await provider.getPullRequest(ref);
    await collect(provider.listChangedFiles(ref, pr.revision));
    const pages = fake.server.requests.filter((r) => r.path.endsWith('/diffs'));
    expect(pages.map((r) => [r.query.get('page'), r.query.get('per_page')])).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100'],
    ]);
    const before = fake.server.requests.length;
    const diff = await provider.getFileDiff(ref, { path: 'src/file-150.ts', changeType: 'modified' }, pr.revision);
    expect(diff).toBe('--- a/src/file-150.ts\n+++ b/src/file-150.ts\n@@ -1 +1 @@\n-old\n+new\n');
    const single = fake.server.requests.slice(before);
    expect(single).toHaveLength(1);
    expect(single[0]?.query.get('page')).toBe('151');
    expect(single[0]?.query.get('per_page')).toBe('1');
  });

  it('streams changed files lazily: the first file costs one page, not the whole list', async () => {
    const pr = await provider.getPullRequest(ref);
    const files = provider.listChangedFiles(ref, pr.revision)[Symbol.asyncIterator]();
    expect((await files.next()).value).toMatchObject({ path: 'src/file-000.ts', additions: 1, deletions: 1 });
    await files.return?.();
    expect(fake.server.requests.filter((r) => r.path.endsWith('/diffs'))).toHaveLength(1);
  });

  it('computes the diff locally when GitLab marks the file too large', async () => {
    const pr = await provider.getPullRequest(ref);
    const diff = await provider.getFileDiff(ref, { path: TOO_LARGE_PATH, changeType: 'modified' }, pr.revision);
    expect(diff).toBe(`--- a/${TOO_LARGE_PATH}\n+++ b/${TOO_LARGE_PATH}\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`);
  });

  it('marks added, deleted and renamed files in the diff header', async () => {
    const pr = await provider.getPullRequest(ref);
    const added = await provider.getFileDiff(ref, { path: 'docs/new.md', changeType: 'added' }, pr.revision);
    expect(added).toBe('--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1 @@\n+# New\n');
    const deleted = await provider.getFileDiff(ref, { path: 'old/legacy.ts', changeType: 'deleted' }, pr.revision);
    expect(deleted.startsWith('--- a/old/legacy.ts\n+++ /dev/null\n')).toBe(true);
    const renamed = await provider.getFileDiff(
      ref,
      { path: 'src/renamed.ts', previousPath: 'src/original.ts', changeType: 'renamed' },
      pr.revision,
    );
    expect(renamed).toBe('');
  });

  it('lists an older revision’s files from compare and diffs them locally', async () => {
    const [older] = await provider.listRevisions(ref);
    if (!older) throw new Error('no revisions');
    expect(older.headSha).toBe(OLD_HEAD_SHA);
    const files = await collect(provider.listChangedFiles(ref, older));
    expect(files).toHaveLength(228);
    const compare = fake.server.requests.find((r) => r.path.endsWith('/repository/compare'));
    expect(compare?.query.get('from')).toBe(s.pullRequest.baseSha);
    expect(compare?.query.get('to')).toBe(OLD_HEAD_SHA);
  });

  it('posts an inline range with the position GitLab expects: added end line, unchanged start line', async () => {
    const pr = await provider.getPullRequest(ref);
    await provider.createThread(ref, {
      body: 'Check this.',
      anchor: { filePath: 'src/file-002.ts', startLine: 5, endLine: 6 },
      revision: pr.revision,
    });
    const sha1 = createHash('sha1').update('src/file-002.ts').digest('hex');
    expect(fake.postedDiscussions.at(-1)).toEqual({
      body: 'Check this.',
      position: {
        position_type: 'text',
        base_sha: s.pullRequest.baseSha,
        start_sha: s.pullRequest.baseSha,
        head_sha: s.pullRequest.headSha,
        old_path: 'src/file-002.ts',
        new_path: 'src/file-002.ts',
        new_line: 6,
        line_range: {
          start: { line_code: `${sha1}_5_5`, type: 'old', old_line: 5, new_line: 5 },
          end: { line_code: `${sha1}_6_6`, type: 'new', new_line: 6 },
        },
      },
    });
  });

  it('addresses a single unchanged line by both old_line and new_line, and uses the old path of a rename', async () => {
    const pr = await provider.getPullRequest(ref);
    await provider.createThread(ref, {
      body: 'Unchanged line.',
      anchor: { filePath: 'src/file-002.ts', startLine: 7, endLine: 7 },
      revision: pr.revision,
    });
    expect(fake.postedDiscussions.at(-1)).toMatchObject({ position: { new_line: 7, old_line: 6 } });
    expect(fake.postedDiscussions.at(-1)).not.toHaveProperty('position.line_range');
    await provider.createThread(ref, {
      body: 'Renamed file.',
      anchor: { filePath: 'src/renamed.ts', startLine: 1, endLine: 1 },
      revision: pr.revision,
    });
    expect(fake.postedDiscussions.at(-1)).toMatchObject({
      position: { old_path: 'src/original.ts', new_path: 'src/renamed.ts', new_line: 1, old_line: 1 },
    });
  });

  it('falls back to an unanchored discussion naming the place when GitLab cannot place the line', async () => {
    const pr = await provider.getPullRequest(ref);
    const created = await provider.createThread(ref, {
      body: 'Out of the diff.',
      anchor: { filePath: 'src/file-003.ts', startLine: UNPLACEABLE_LINE, endLine: UNPLACEABLE_LINE },
      revision: pr.revision,
    });
    expect(fake.postedDiscussions.at(-1)).toEqual({
      body: `\`src/file-003.ts\` line ${UNPLACEABLE_LINE}\n\nOut of the diff.`,
    });
    const thread = (await collect(provider.listThreads(ref))).find((t) => t.threadId === created.threadId);
    expect(thread?.anchor).toBeUndefined();
  });

  it('posts a pull-request-level comment as a plain note, which reads as an open thread and takes replies', async () => {
    const pr = await provider.getPullRequest(ref);
    const created = await provider.createThread(ref, { body: 'Summary.', revision: pr.revision });
    expect(fake.server.requests.some((r) => r.method === 'POST' && r.path.endsWith('/notes'))).toBe(true);
    expect(fake.postedDiscussions).toHaveLength(0);
    await provider.reply(ref, created.threadId, 'More.');
    const thread = (await collect(provider.listThreads(ref))).find((t) => t.threadId === created.threadId);
    expect(thread?.comments.map((c) => c.body)).toEqual(['Summary.', 'More.']);
  });

  it('skips discussions made only of system notes', async () => {
    const threads = await collect(provider.listThreads(ref));
    expect(threads.map((t) => t.threadId)).toEqual(['6a9c1750b37d513a43987b574953fceb50b03ce7']);
    expect(threads[0]?.status).toBe('open');
  });

  it('reopens a resolved discussion', async () => {
    const [thread] = await collect(provider.listThreads(ref));
    if (!thread) throw new Error('no thread');
    await provider.setThreadStatus(ref, thread.threadId, 'resolved');
    await provider.setThreadStatus(ref, thread.threadId, 'open');
    const [again] = await collect(provider.listThreads(ref));
    expect(again?.status).toBe('open');
    const puts = fake.server.requests.filter((r) => r.method === 'PUT').map((r) => r.json);
    expect(puts).toEqual([{ resolved: true }, { resolved: false }]);
  });

  it('lists open merge requests of the whole group and names the repository from the reference', async () => {
    const open = await collect(provider.listOpenPullRequests(scope));
    expect(open.map((p) => p.ref.pullRequestId).sort()).toEqual([42, 43]);
    expect(open.every((p) => p.repositoryName === 'uploader' && p.ref.repositoryId === String(PROJECT_ID))).toBe(true);
    expect(fake.server.requests.some((r) => r.path === '/api/v4/groups/acme/merge_requests')).toBe(true);
  });

  it('lists the group and its subgroups as projects, reading the group from the scope URL', async () => {
    const projects = await collect(provider.listProjects('https://gitlab.example.com/acme/'));
    expect(projects).toEqual([
      { projectKey: 'acme', name: 'Acme' },
      { projectKey: 'acme/platform', name: 'Acme / Platform' },
    ]);
    const repositories = await collect(provider.listRepositories({ ...scope }));
    expect(repositories[0]).toEqual({
      repositoryId: '1001',
      name: 'uploader',
      projectKey: 'acme',
      defaultBranch: 'main',
      webUrl: 'https://gitlab.example.com/acme/uploader',
    });
  });

  it('answers not_found for a merge request GitLab does not have, with GitLab’s message', async () => {
    const error = await marginErrorOf(provider.getPullRequest({ ...ref, pullRequestId: 9 }));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('GitLab answered 404: 404 Not found');
  });

  it('reads an epoch RateLimit-Reset as a wait until then, not as seconds from now', async () => {
    let calls = 0;
    fake.server.on('GET', '/api/v4/user', () =>
      ++calls === 1
        ? { status: 429, headers: { 'ratelimit-reset': String(Math.floor(Date.now() / 1000)) }, text: 'Retry later\n' }
        : { json: { id: 1, username: 'bot', name: 'Bot' } },
    );
    expect((await provider.verify()).login).toBe('bot');
    expect(calls).toBe(2);
  });

  it('reports 403 as an authorization failure and flattens GitLab’s field messages', async () => {
    fake.server.on('PUT', '/api/v4/projects/:id/merge_requests/:iid/discussions/:did', () => ({
      status: 403,
      json: { message: { base: ['Discussion can’t be resolved'] } },
    }));
    const error = await marginErrorOf(provider.setThreadStatus(ref, 'abc', 'resolved'));
    expect(error.details).toMatchObject({ providerFailure: 'authorization', providerStatus: 403 });
    expect(error.message).toBe('GitLab answered 403: Discussion can’t be resolved');
  });

  it('refuses a connection of another authentication kind', () => {
    expect(() =>
      gitLabFamily().connect({
        family: 'gitHostB',
        authenticationKind: 'appInstallation',
        hostBaseUrl: fake.hostBaseUrl,
        secret: 'x',
      }),
    ).toThrow(/personalAccessToken/);
  });
});
