import { createHash } from 'node:crypto';
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
import { fixtureReader } from '../../testing/fixture-reader.js';
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

const fixture = fixtureReader(import.meta.url);

const s = SCM_CONTRACT_SCENARIO;
const scope = { scopePath: 'https://gitlab.example.com/acme', projectKey: 'acme' };
const ref: PullRequestRef = { ...scope, repositoryId: String(PROJECT_ID), pullRequestId: s.pullRequest.number };

const family = gitLabFamily({ http: { backoffBaseMs: 1 } });

function connect(fake: GitLabFake, secret = GITLAB_TOKEN): ScmProviderV1 {
  return family.connect({
    family: 'gitHostB',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: fake.hostBaseUrl,
    secret,
  });
}

describeScmProviderContract('GitLab', async () => {
  const fake = await startGitLabFake();
  return {
    family,
    provider: connect(fake),
    providerWithBadCredentials: connect(fake, GITLAB_BAD_TOKEN),
    badSecret: GITLAB_BAD_TOKEN,
    scope,
    ref,
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.server.requests.length,
    loadPullRequest: (scenario) => fake.loadPullRequest(scenario),
    refuseThreadsOn: (path) => fake.refuseThreadsOn(path),
    commitStatuses: {
      recorded: () => fake.statuses,
      target: SCM_CONTRACT_SCENARIO.pullRequest.headSha,
      wireStates: { pending: 'running', success: 'success', failure: 'failed', error: 'failed' },
      refuse: (refused) => fake.refuseStatuses(refused),
    },
    close: () => fake.close(),
  };
});

function listTreeOf(provider: ScmProviderV1): NonNullable<ScmProviderV1['listTree']> {
  if (!provider.listTree) throw new Error('The GitLab adapter lists trees.');
  return provider.listTree.bind(provider);
}

function lastDiscussionBody(fake: GitLabFake): unknown {
  return fake.writes.filter((w) => w.method === 'POST' && w.path.endsWith('/discussions')).at(-1)?.body;
}

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

  it('lists the tree with keyset paging: only the query of a Link is followed, never its host', async () => {
    const treePath = `/api/v4/projects/${PROJECT_ID}/repository/tree`;
    // A Link naming another host: the page token goes to the configured base URL, the token nowhere else.
    fake.server.on('GET', treePath, (req) =>
      req.query.get('page_token') === 'second'
        ? { json: [{ id: 'f'.repeat(40), name: 'b.ts', type: 'blob', path: 'b.ts', mode: '100644' }] }
        : {
            headers: {
              link: '<https://elsewhere.example.com/api/v4/projects/1/repository/tree?page_token=second&pagination=keyset&per_page=100&recursive=true>; rel="next"',
            },
            json: [{ id: 'e'.repeat(40), name: 'a.ts', type: 'blob', path: 'a.ts', mode: '100644' }],
          },
    );
    const entries = await collect(listTreeOf(provider)(ref, s.pullRequest.headSha));
    expect(entries).toEqual([
      { path: 'a.ts', blobId: 'e'.repeat(40) },
      { path: 'b.ts', blobId: 'f'.repeat(40) },
    ]);
    const pages = fake.server.requests.filter((r) => r.path === treePath);
    expect(
      pages.map((r) => [r.query.get('pagination'), r.query.get('page_token'), r.headers['private-token']]),
    ).toEqual([
      ['keyset', null, GITLAB_TOKEN],
      ['keyset', 'second', GITLAB_TOKEN],
    ]);
    expect(pages[0]?.query.get('ref')).toBe(s.pullRequest.headSha);
  });

  it('follows x-next-page when an instance answers a keyset tree request with offset paging', async () => {
    const treePath = `/api/v4/projects/${PROJECT_ID}/repository/tree`;
    fake.server.on('GET', treePath, (req) =>
      req.query.get('page') === '2'
        ? {
            headers: { 'x-next-page': '' },
            json: [{ id: '2'.repeat(40), name: 'b', type: 'blob', path: 'd/b', mode: '100644' }],
          }
        : {
            headers: { 'x-next-page': '2' },
            json: [{ id: '1'.repeat(40), name: 'a', type: 'blob', path: 'd/a', mode: '100644' }],
          },
    );
    const entries = await collect(listTreeOf(provider)(ref, s.pullRequest.headSha, { pathPrefix: 'd/' }));
    expect(entries.map((e) => e.path)).toEqual(['d/a', 'd/b']);
    const pages = fake.server.requests.filter((r) => r.path === treePath);
    expect(pages.map((r) => [r.query.get('path'), r.query.get('page')])).toEqual([
      ['d', null],
      ['d', '2'],
    ]);
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
    expect(diff).toEqual({
      text: '--- a/src/file-150.ts\n+++ b/src/file-150.ts\n@@ -1 +1 @@\n-old\n+new\n',
      commentable: 'diffLines',
    });
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

  it('computes the diff locally when GitLab marks the file too large, and says GitLab withheld it', async () => {
    const pr = await provider.getPullRequest(ref);
    const diff = await provider.getFileDiff(ref, { path: TOO_LARGE_PATH, changeType: 'modified' }, pr.revision);
    expect(diff).toEqual({
      text: `--- a/${TOO_LARGE_PATH}\n+++ b/${TOO_LARGE_PATH}\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`,
      commentable: 'diffLines',
      truncated: true,
    });
  });

  it('marks added, deleted and renamed files in the diff header', async () => {
    const pr = await provider.getPullRequest(ref);
    const added = await provider.getFileDiff(ref, { path: 'docs/new.md', changeType: 'added' }, pr.revision);
    expect(added.text).toBe('--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1 @@\n+# New\n');
    const deleted = await provider.getFileDiff(ref, { path: 'old/legacy.ts', changeType: 'deleted' }, pr.revision);
    expect(deleted.text.startsWith('--- a/old/legacy.ts\n+++ /dev/null\n')).toBe(true);
    const renamed = await provider.getFileDiff(
      ref,
      { path: 'src/renamed.ts', previousPath: 'src/original.ts', changeType: 'renamed' },
      pr.revision,
    );
    // A pure rename: headers, no hunks.
    expect(renamed.text).toBe('--- a/src/original.ts\n+++ b/src/renamed.ts\n');
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
    expect(lastDiscussionBody(fake)).toEqual({
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

  it('addresses a single unchanged line by both old_line and new_line', async () => {
    const pr = await provider.getPullRequest(ref);
    await provider.createThread(ref, {
      body: 'Unchanged line.',
      anchor: { filePath: 'src/file-002.ts', startLine: 7, endLine: 7 },
      revision: pr.revision,
    });
    expect(lastDiscussionBody(fake)).toMatchObject({ position: { new_line: 7, old_line: 6 } });
    expect(lastDiscussionBody(fake)).not.toHaveProperty('position.line_range');
  });

  it('refuses a thread GitLab cannot place, and posts nothing else in its stead', async () => {
    const pr = await provider.getPullRequest(ref);
    const before = fake.writes.length;
    const error = await marginErrorOf(
      provider.createThread(ref, {
        body: 'Out of the diff.',
        anchor: { filePath: 'src/file-003.ts', startLine: UNPLACEABLE_LINE, endLine: UNPLACEABLE_LINE },
        revision: pr.revision,
      }),
    );
    expect(error.code).toBe('provider_unavailable');
    expect(error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 400 });
    expect(error.message).toContain(`src/file-003.ts line ${UNPLACEABLE_LINE}`);
    expect(fake.writes.slice(before).map((w) => `${w.method} ${w.path}`)).toEqual([
      `POST /api/v4/projects/${PROJECT_ID}/merge_requests/42/discussions`,
    ]);
  });

  it('posts a pull-request-level comment as a plain note, which reads as an open thread and takes replies', async () => {
    const pr = await provider.getPullRequest(ref);
    const created = await provider.createThread(ref, { body: 'Summary.', revision: pr.revision });
    expect(fake.writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      `POST /api/v4/projects/${PROJECT_ID}/merge_requests/42/notes`,
    ]);
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

describe('GitLab on a merge request served from file versions', () => {
  const p = SCENARIO_PULL_REQUEST;
  const mrRef: PullRequestRef = { ...ref, pullRequestId: p.number };
  const mrPath = `/api/v4/projects/${PROJECT_ID}/merge_requests/${p.number}`;
  const shas = { position_type: 'text', base_sha: p.baseSha, start_sha: p.baseSha, head_sha: p.headSha };
  const code = (path: string, oldPos: number, newPos: number) =>
    `${createHash('sha1').update(path).digest('hex')}_${oldPos}_${newPos}`;
  let fake: GitLabFake;
  let provider: ScmProviderV1;
  beforeEach(async () => {
    fake = await startGitLabFake();
    provider = connect(fake);
    await fake.loadPullRequest(p);
  });
  afterEach(async () => {
    await fake.close();
  });

  const posted = () =>
    fake.writes.filter((w) => w.method === 'POST' && w.path === `${mrPath}/discussions`).map((w) => w.body);

  it('positions an added, an unchanged, a removed line and a range the way GitLab matches them', async () => {
    const pr = await provider.getPullRequest(mrRef);
    const outcomes = await provider.createThreads(mrRef, {
      revision: pr.revision,
      threads: [
        { body: 'Added.', anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3 }, marker: 'margin:a' },
        { body: 'Context.', anchor: { filePath: 'src/invoice.ts', startLine: 4, endLine: 4 } },
        { body: 'Removed.', anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' } },
        { body: 'Range.', anchor: { filePath: 'src/invoice.ts', startLine: 24, endLine: 26 } },
        { body: 'Renamed.', anchor: { filePath: 'src/totals.ts', startLine: 2, endLine: 2 } },
      ],
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true, true]);
    const invoice = { old_path: 'src/invoice.ts', new_path: 'src/invoice.ts' };
    expect(posted()).toEqual([
      {
        body: 'Added.\n\n<!-- margin-marker:margin:a -->',
        position: { ...shas, ...invoice, new_line: 3 },
      },
      { body: 'Context.', position: { ...shas, ...invoice, old_line: 4, new_line: 4 } },
      {
        body: 'Removed.',
        position: { ...shas, old_path: 'src/legacy.ts', new_path: 'src/legacy.ts', old_line: 1 },
      },
      {
        body: 'Range.',
        position: {
          ...shas,
          ...invoice,
          new_line: 26,
          line_range: {
            start: { line_code: code('src/invoice.ts', 24, 24), type: 'old', old_line: 24, new_line: 24 },
            end: { line_code: code('src/invoice.ts', 26, 26), type: 'new', new_line: 26 },
          },
        },
      },
      {
        body: 'Renamed.',
        position: { ...shas, old_path: 'src/sum.ts', new_path: 'src/totals.ts', new_line: 2 },
      },
    ]);
    // One read of GitLab's diffs per file for the whole batch: a page, then each further file alone.
    const diffReads = fake.server.requests.filter((r) => r.path === `${mrPath}/diffs`);
    expect(diffReads.map((r) => r.query.get('per_page'))).toEqual(['100', '1', '1']);
  });

  it('refuses lines GitLab does not show, and a side that does not match the line, one by one', async () => {
    const pr = await provider.getPullRequest(mrRef);
    const outcomes = await provider.createThreads(mrRef, {
      revision: pr.revision,
      threads: [
        { body: 'Between the hunks.', anchor: { filePath: 'src/invoice.ts', startLine: 15, endLine: 15 } },
        {
          body: 'Added line on the old side.',
          anchor: { filePath: 'src/tax.ts', startLine: 1, endLine: 1, side: 'old' },
        },
        { body: 'Fine.', anchor: { filePath: 'src/tax.ts', startLine: 2, endLine: 2 } },
      ],
    });
    expect(outcomes.map((o) => o.ok)).toEqual([false, false, true]);
    const [first] = outcomes;
    if (first && !first.ok) {
      expect(first.error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 400 });
      expect(first.error.message).toContain('src/invoice.ts line 15');
    }
    expect(posted()).toHaveLength(3);
    expect(posted()[0]).toMatchObject({ position: { old_line: 15, new_line: 15 } });
  });

  it('reads threads back with their side, marker, author and whether a push left them behind', async () => {
    const pr = await provider.getPullRequest(mrRef);
    await provider.createThread(mrRef, {
      body: 'Dropped export.',
      anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' },
      revision: pr.revision,
      marker: 'margin:old',
    });
    const [before] = await collect(provider.listThreads(mrRef));
    expect(before).toMatchObject({
      anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' },
      marker: 'margin:old',
      providerStatus: 'unresolved',
      isOutdated: false,
      authoredByConnection: true,
      comments: [{ body: 'Dropped export.' }],
    });
    await fake.loadPullRequest(SCENARIO_PUSH);
    const [after] = await collect(provider.listThreads(mrRef));
    expect(after?.isOutdated).toBe(true);
    // The connection's own account is read once per provider.
    expect(fake.server.requests.filter((r) => r.path === '/api/v4/user')).toHaveLength(1);
  });

  it('reads a recorded DiffNote on a removed line as an old-side anchor', async () => {
    fake.discussions.push(fixture('discussion-removed-line'));
    const thread = (await collect(provider.listThreads(ref))).find((t) => t.comments[0]?.commentId === '1130');
    expect(thread?.anchor).toEqual({ filePath: 'old/legacy.ts', startLine: 1, endLine: 1, side: 'old' });
    expect(thread?.isOutdated).toBe(true);
    expect(thread?.authoredByConnection).toBe(false);
  });

  it('edits a summary note in place with PUT notes/:id and keeps the marker hidden in it', async () => {
    const pr = await provider.getPullRequest(mrRef);
    const created = await provider.createThread(mrRef, { body: 'First.', revision: pr.revision, marker: 'margin:s' });
    await provider.editComment(mrRef, { ...created, body: 'Second.', marker: 'margin:s' });
    expect(fake.writes.at(-1)).toEqual({
      method: 'PUT',
      path: `${mrPath}/notes/${created.commentId}`,
      body: { body: 'Second.\n\n<!-- margin-marker:margin:s -->' },
    });
    const [summary] = await collect(provider.listThreads(mrRef));
    expect(summary).toMatchObject({ threadId: created.threadId, marker: 'margin:s', comments: [{ body: 'Second.' }] });
  });

  it('compares heads: identical without a call, ahead and behind from the merge base, diverged after a force push', async () => {
    const before = fake.server.requests.length;
    expect(await provider.compareCommits(mrRef, p.headSha, p.headSha)).toEqual({ relation: 'identical', files: [] });
    expect(fake.server.requests).toHaveLength(before);

    await fake.loadPullRequest(SCENARIO_PUSH);
    const ahead = await provider.compareCommits(mrRef, p.headSha, SCENARIO_PUSH.headSha);
    expect(ahead.relation).toBe('ahead');
    expect(ahead.files).toMatchObject([{ path: 'src/tax.ts', changeType: 'modified' }]);
    const mergeBase = fake.server.requests.find((r) => r.path.endsWith('/repository/merge_base'));
    expect(mergeBase?.query.getAll('refs[]')).toEqual([p.headSha, SCENARIO_PUSH.headSha]);
    expect(fake.server.requests.find((r) => r.path.endsWith('/repository/compare'))?.query.get('straight')).toBe(
      'true',
    );
    expect((await provider.compareCommits(mrRef, SCENARIO_PUSH.headSha, p.headSha)).relation).toBe('behind');

    const forced = { ...SCENARIO_PUSH, headSha: 'd'.repeat(40), relationToPreviousHead: 'diverged' as const };
    await fake.loadPullRequest({ ...forced, files: forced.files.filter((f) => f.path !== 'src/tax.ts') });
    const diverged = await provider.compareCommits(mrRef, SCENARIO_PUSH.headSha, forced.headSha);
    expect(diverged.relation).toBe('diverged');
    // What differs between the two heads: the file the force push dropped.
    expect(diverged.files).toMatchObject([{ path: 'src/tax.ts', changeType: 'deleted' }]);
  });

  it('answers unrelated histories as diverged (GitLab’s 404 for no merge base)', async () => {
    fake.server.on('GET', '/api/v4/projects/:id/repository/merge_base', () => ({
      status: 404,
      json: { message: '404 Merge Base Not Found' },
    }));
    await fake.loadPullRequest(SCENARIO_PUSH);
    expect((await provider.compareCommits(mrRef, p.headSha, SCENARIO_PUSH.headSha)).relation).toBe('diverged');
  });

  it('diffs two heads through compare, never through the merge request’s own diffs', async () => {
    await fake.loadPullRequest(SCENARIO_PUSH);
    const before = fake.server.requests.length;
    const interdiff = await provider.getFileDiff(
      mrRef,
      { path: 'src/tax.ts', changeType: 'modified' },
      {
        revisionId: SCENARIO_PUSH.headSha,
        headSha: SCENARIO_PUSH.headSha,
        baseSha: p.headSha,
        mergeBaseSha: p.headSha,
      },
    );
    expect(interdiff).toEqual({
      text: '--- a/src/tax.ts\n+++ b/src/tax.ts\n@@ -1,2 +1,2 @@\n-export const rate = 0.2;\n+export const rate = 0.25;\n export const name = "vat";\n',
      commentable: 'diffLines',
    });
    const asked = fake.server.requests.slice(before);
    expect(asked.some((r) => r.path === `${mrPath}/diffs`)).toBe(false);
    expect(asked.find((r) => r.path.endsWith('/repository/compare'))?.query.toString()).toBe(
      `from=${p.headSha}&to=${SCENARIO_PUSH.headSha}&straight=true`,
    );
  });

  it('says when GitLab cut the version at its diff limits, after the last file', async () => {
    const pr = await provider.getPullRequest(ref);
    fake.server.on('GET', '/api/v4/projects/:id/merge_requests/:iid/versions', () => ({
      json: [fixture('merge-request-version-overflow')],
    }));
    const events: string[] = [];
    for await (const file of provider.listChangedFiles(ref, pr.revision, {
      onTruncated: (t) => events.push(`truncated at ${t.limit}: ${t.reason}`),
    })) {
      if (file.path === 'src/renamed.ts') events.push('last file');
    }
    expect(events).toHaveLength(2);
    expect(events[0]).toBe('last file');
    expect(events[1]).toMatch(/^truncated at 230: GitLab stored only part/);
  });

  it('reads a file at the tip of a branch with ?ref=<branch>', async () => {
    const config = await provider.getFileContent(mrRef, '.margin/config.yml', { branch: 'main' });
    expect(config?.text).toBe('minimumSeverity: warning\n');
    const asked = fake.server.requests.at(-1);
    expect(asked?.path).toBe(`/api/v4/projects/${PROJECT_ID}/repository/files/.margin/config.yml/raw`);
    expect(asked?.query.get('ref')).toBe('main');
  });

  it('gives up a retry wait as soon as the signal is aborted', async () => {
    const controller = new AbortController();
    fake.server.on('GET', '/api/v4/user', () => {
      setTimeout(() => controller.abort(), 20);
      return { status: 429, headers: { 'retry-after': '30' }, text: 'Retry later\n' };
    });
    const started = Date.now();
    const error = await marginErrorOf(provider.verify({ signal: controller.signal }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.details).toMatchObject({ providerFailure: 'cancelled' });
    expect(fake.server.requests.filter((r) => r.path === '/api/v4/user')).toHaveLength(1);
  });
});

describe('GitLab: the deadline of a call', () => {
  let fake: GitLabFake;
  beforeEach(async () => {
    fake = await startGitLabFake();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('fails a read whose answer trickles after its headers as a timeout, each attempt on a fresh deadline', async () => {
    const mrPath = `/api/v4/projects/${PROJECT_ID}/merge_requests/${ref.pullRequestId}`;
    fake.server.on('GET', mrPath, () => ({ json: fixture('merge-request'), trickleMs: 100 }));
    // A deadline long enough for a cold first connection, so the second attempt surely reaches the fake.
    const provider = gitLabFamily({ http: { timeoutMs: 1_000, retries: 1, backoffBaseMs: 1 } }).connect({
      family: 'gitHostB',
      authenticationKind: 'personalAccessToken',
      hostBaseUrl: fake.hostBaseUrl,
      secret: GITLAB_TOKEN,
    });
    const started = Date.now();
    const error = await marginErrorOf(provider.getPullRequest(ref));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error.details).toEqual({ providerFailure: 'timeout' });
    expect(error.message).toMatch(/^GitLab did not answer within [12] s/);
    expect(error.message).not.toContain(GITLAB_TOKEN);
    expect(fake.server.requests.filter((r) => r.path === mrPath)).toHaveLength(2);
  });
});
