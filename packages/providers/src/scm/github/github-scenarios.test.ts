import { generateKeyPairSync } from 'node:crypto';
import type {
  ChangedFile,
  ListingTruncation,
  PullRequestRef,
  ScmConnectionConfig,
  ScmProviderV1,
} from '@margin/core/spec';
import {
  collect,
  marginErrorOf,
  type PullRequestScenario,
  SCENARIO_PULL_REQUEST,
  SCENARIO_PUSH,
} from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { GH_OWNER, GH_REPOSITORY_ID, type GitHubFake, startGitHubFake } from './github-fake.js';
import { gitHubFamily } from './github-family.js';

const fixture = fixtureReader(import.meta.url);

const PAT = 'ghp_scenarioTestToken0123456789abcdefABCD';
const APP = { id: 123456, installationId: 55555 };
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

let fake: GitHubFake;
beforeEach(async () => {
  fake = await startGitHubFake({
    pat: PAT,
    app: { ...APP, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  });
  await fake.loadPullRequest(SCENARIO_PULL_REQUEST);
});
afterEach(async () => {
  await fake.close();
});

const connect = (extra: Partial<ScmConnectionConfig> = {}): ScmProviderV1 =>
  gitHubFamily({ backoffBaseMs: 1 }).connect({
    family: 'gitHostA',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: fake.hostUrl,
    secret: PAT,
    ...extra,
  });
const connectApp = () =>
  connect({
    authenticationKind: 'appInstallation',
    secret: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    hostedAppId: APP.id,
    hostedAppInstallationId: APP.installationId,
  });
const ref = (pullRequestId = SCENARIO_PULL_REQUEST.number): PullRequestRef => ({
  scopePath: `${fake.hostUrl}/${GH_OWNER}`,
  projectKey: GH_OWNER,
  repositoryId: GH_REPOSITORY_ID,
  pullRequestId,
});
const fileOf = (path: string, scenario = SCENARIO_PULL_REQUEST): ChangedFile => {
  const f = scenario.files.find((x) => x.path === path);
  if (!f) throw new Error(path);
  return { path: f.path, previousPath: f.previousPath, changeType: f.changeType, isBinary: f.binary };
};
const A = SCENARIO_PULL_REQUEST.headSha;
const C = SCENARIO_PUSH.headSha;
const REVIEWS = `/api/v3/repositories/${GH_REPOSITORY_ID}/pulls/77/reviews`;
const COMMENTS = `/api/v3/repositories/${GH_REPOSITORY_ID}/pulls/77/comments`;

describe('GitHub: publishing a review run', () => {
  it('posts one COMMENT review on the head commit with every inline comment, markers hidden in the bodies', async () => {
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    const outcomes = await provider.createThreads(ref(), {
      revision,
      threads: [
        { body: 'One line.', anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3 }, marker: 'margin:1' },
        { body: 'A range.', anchor: { filePath: 'src/invoice.ts', startLine: 25, endLine: 26 }, marker: 'margin:2' },
        {
          body: 'Removed export.',
          anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' },
          marker: 'margin:3',
        },
      ],
    });

    expect(fake.writes.map((w) => [w.method, w.path, w.status])).toEqual([['POST', REVIEWS, 200]]);
    expect(fake.writes[0]?.body).toEqual({
      commit_id: A,
      event: 'COMMENT',
      body: `3 comments on ${A.slice(0, 7)}.`,
      comments: [
        { path: 'src/invoice.ts', line: 3, side: 'RIGHT', body: 'One line.\n\n<!-- margin-marker:margin:1 -->' },
        {
          path: 'src/invoice.ts',
          line: 26,
          side: 'RIGHT',
          start_line: 25,
          start_side: 'RIGHT',
          body: 'A range.\n\n<!-- margin-marker:margin:2 -->',
        },
        { path: 'src/legacy.ts', line: 1, side: 'LEFT', body: 'Removed export.\n\n<!-- margin-marker:margin:3 -->' },
      ],
    });
    const threads = await collect(provider.listThreads(ref()));
    const created = outcomes.map((o) => (o.ok ? o.thread.threadId : o.error.message));
    expect(created).toEqual(
      ['margin:1', 'margin:2', 'margin:3'].map((m) => threads.find((t) => t.marker === m)?.threadId),
    );
    expect(threads.find((t) => t.marker === 'margin:3')).toMatchObject({
      anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' },
      comments: [{ body: 'Removed export.' }],
      authoredByConnection: true,
      providerStatus: 'unresolved',
      isOutdated: false,
    });
  });

  it('falls back to one comment per request when GitHub refuses the review (422), so one bad comment fails alone', async () => {
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    fake.refuseThreadsOn('src/windows.ts');
    const outcomes = await provider.createThreads(ref(), {
      revision,
      threads: [
        { body: 'Fine.', anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3 }, marker: 'margin:ok1' },
        { body: 'Refused.', anchor: { filePath: 'src/windows.ts', startLine: 2, endLine: 2 }, marker: 'margin:no' },
        { body: 'Also fine.', anchor: { filePath: 'src/tax.ts', startLine: 1, endLine: 2 }, marker: 'margin:ok2' },
      ],
    });

    expect(fake.writes.map((w) => [w.method, w.path, w.status])).toEqual([
      ['POST', REVIEWS, 422],
      ['POST', COMMENTS, 201],
      ['POST', COMMENTS, 422],
      ['POST', COMMENTS, 201],
    ]);
    expect(fake.writes[3]?.body).toEqual({
      body: 'Also fine.\n\n<!-- margin-marker:margin:ok2 -->',
      commit_id: A,
      path: 'src/tax.ts',
      line: 2,
      side: 'RIGHT',
      start_line: 1,
      start_side: 'RIGHT',
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    const refused = outcomes[1];
    if (refused?.ok !== false) throw new Error('expected a refusal');
    expect(refused.error.code).toBe('provider_unavailable');
    expect(refused.error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 422 });
    expect(refused.error.message).toContain('pull_request_review_thread.line could not be resolved');
    expect(refused.error.message).not.toContain(PAT);
  });

  it('answers 422 for a line outside the diff hunks on that side, as GitHub does', async () => {
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    const outside = await marginErrorOf(
      provider.createThread(ref(), {
        body: 'Line 15 is not shown in the diff.',
        anchor: { filePath: 'src/invoice.ts', startLine: 15, endLine: 15 },
        revision,
      }),
    );
    expect(outside.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 422 });
    // Line 3 of the old file was removed, so it is shown on the left side.
    await expect(
      provider.createThread(ref(), {
        body: 'The old line 3.',
        anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3, side: 'old' },
        revision,
      }),
    ).resolves.toMatchObject({ threadId: expect.stringMatching(/^review-comment:/) });
  });

  it('posts pull-request-level threads of a batch as conversation comments', async () => {
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    const [outcome] = await provider.createThreads(ref(), {
      revision,
      threads: [{ body: 'Summary.', marker: 'margin:summary' }],
    });
    expect(outcome).toMatchObject({ ok: true, thread: { threadId: expect.stringMatching(/^issue-comment:/) } });
    expect(fake.writes.map((w) => [w.path, w.body])).toEqual([
      [
        `/api/v3/repositories/${GH_REPOSITORY_ID}/issues/77/comments`,
        { body: 'Summary.\n\n<!-- margin-marker:margin:summary -->' },
      ],
    ]);
  });

  it('keeps the marker through edits of conversation and review comments, also when the edit names none', async () => {
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    const summary = await provider.createThread(ref(), { body: 'Run 1.', revision, marker: 'margin:summary' });
    await provider.editComment(ref(), { ...summary, body: 'Run 2.', marker: 'margin:summary' });
    const inline = await provider.createThread(ref(), {
      body: 'Finding.',
      anchor: { filePath: 'src/tax.ts', startLine: 1, endLine: 1 },
      revision,
      marker: 'margin:fp=1',
    });
    await provider.editComment(ref(), { ...inline, body: 'Finding, reworded.' });

    const patches = fake.writes.filter((w) => w.method === 'PATCH');
    expect(patches.map((w) => [w.path, w.body])).toEqual([
      [
        `/api/v3/repositories/${GH_REPOSITORY_ID}/issues/comments/${summary.commentId}`,
        { body: 'Run 2.\n\n<!-- margin-marker:margin:summary -->' },
      ],
      [
        `/api/v3/repositories/${GH_REPOSITORY_ID}/pulls/comments/${inline.commentId}`,
        { body: 'Finding, reworded.\n\n<!-- margin-marker:margin:fp=1 -->' },
      ],
    ]);
    const threads = await collect(provider.listThreads(ref()));
    expect(threads.find((t) => t.threadId === summary.threadId)).toMatchObject({
      marker: 'margin:summary',
      comments: [{ body: 'Run 2.' }],
    });
    expect(threads.find((t) => t.threadId === inline.threadId)).toMatchObject({
      marker: 'margin:fp=1',
      comments: [{ body: 'Finding, reworded.' }],
    });
  });

  it('knows the App’s own threads by its [bot] account, and a human’s as not its own', async () => {
    const app = connectApp();
    const { revision } = await app.getPullRequest(ref());
    const created = await app.createThread(ref(), { body: 'From the App.', revision });
    const inline = await app.createThread(ref(), {
      body: 'Inline from the App.',
      anchor: { filePath: 'src/tax.ts', startLine: 1, endLine: 1 },
      revision,
    });
    const threads = await collect(app.listThreads(ref()));
    expect(threads.find((t) => t.threadId === created.threadId)).toMatchObject({
      authoredByConnection: true,
      comments: [{ author: { login: 'margin-review[bot]', isBot: true } }],
    });
    expect(threads.find((t) => t.threadId === inline.threadId)?.authoredByConnection).toBe(true);
    // The same comments are not the PAT user's.
    const byPat = await collect(connect().listThreads(ref()));
    expect(byPat.find((t) => t.threadId === created.threadId)?.authoredByConnection).toBe(false);
  });

  it('marks a thread outdated once a push changed its file', async () => {
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    const onTax = await provider.createThread(ref(), {
      body: 'Rate.',
      anchor: { filePath: 'src/tax.ts', startLine: 1, endLine: 1 },
      revision,
    });
    const onInvoice = await provider.createThread(ref(), {
      body: 'Line 3.',
      anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3 },
      revision,
    });
    await fake.loadPullRequest(SCENARIO_PUSH);
    const threads = await collect(provider.listThreads(ref()));
    expect(threads.find((t) => t.threadId === onTax.threadId)).toMatchObject({
      isOutdated: true,
      anchor: { filePath: 'src/tax.ts', endLine: 1 },
    });
    expect(threads.find((t) => t.threadId === onInvoice.threadId)?.isOutdated).toBe(false);
  });
});

describe('GitHub: files, diffs and comparisons', () => {
  it('names the head blob of each file and leaves it out for a removed one', async () => {
    const files = await collect(connect().listChangedFiles(ref(), (await connect().getPullRequest(ref())).revision));
    const tax = files.find((f) => f.path === 'src/tax.ts');
    expect(tax?.newBlobId).toMatch(/^[0-9a-f]{40}$/);
    expect(tax?.oldBlobId).toBeUndefined();
    expect(files.find((f) => f.path === 'src/legacy.ts')?.newBlobId).toBeUndefined();
    // The recorded listing shape: `sha` is the head blob.
    const recorded =
      fixture<Record<string, { sha: string; status: string; filename: string }>>('pull-request-files').modified;
    expect(recorded?.sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('says once, after the last file, that GitHub stopped listing at 3,000 files', async () => {
    const many: PullRequestScenario = {
      ...SCENARIO_PULL_REQUEST,
      number: 78,
      headSha: 'e'.repeat(40),
      baseSha: 'f'.repeat(40),
      files: Array.from({ length: 3005 }, (_, i) => ({
        path: `gen/file-${String(i).padStart(4, '0')}.ts`,
        changeType: 'added' as const,
        newText: `export const n = ${i};\n`,
      })),
    };
    await fake.loadPullRequest(many);
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref(78));
    const events: Array<string | ListingTruncation> = [];
    for await (const file of provider.listChangedFiles(ref(78), revision, {
      onTruncated: (truncation) => events.push(truncation),
    })) {
      events.push(file.path);
    }
    expect(events).toHaveLength(3001);
    expect(events.at(-1)).toEqual({
      limit: 3000,
      reason: 'GitHub lists at most 3,000 changed files of a pull request.',
    });
    expect(events.filter((e) => typeof e !== 'string')).toHaveLength(1);
    // Comparing two commits, GitHub stops at 300 files and names no total.
    const compared = await provider.compareCommits(ref(78), revision.baseSha, revision.headSha);
    expect(compared.files).toHaveLength(300);
    expect(compared.truncation).toEqual({
      limit: 300,
      reason: 'GitHub compares at most 300 files between two commits.',
    });

    const complete: unknown[] = [];
    await collect(
      provider.listChangedFiles(ref(), (await provider.getPullRequest(ref())).revision, {
        onTruncated: (t) => complete.push(t),
      }),
    );
    expect(complete).toEqual([]);
  }, 30_000);

  it('relates two heads as ahead, identical, behind or diverged, with the files between them', async () => {
    const provider = connect();
    await fake.loadPullRequest(SCENARIO_PUSH);
    const ahead = await provider.compareCommits(ref(), A, C);
    expect(ahead).toEqual({
      relation: 'ahead',
      files: [expect.objectContaining({ path: 'src/tax.ts', changeType: 'modified', newBlobId: expect.any(String) })],
    });
    expect((await provider.compareCommits(ref(), C, C)).relation).toBe('identical');
    expect((await provider.compareCommits(ref(), C, A)).relation).toBe('behind');
    const forced = 'd'.repeat(40);
    await fake.loadPullRequest({ ...SCENARIO_PUSH, headSha: forced, relationToPreviousHead: 'diverged' });
    expect((await provider.compareCommits(ref(), C, forced)).relation).toBe('diverged');
    expect(fake.server.requests.filter((r) => r.path.includes('/compare/')).map((r) => r.params.spec)).toEqual([
      `${A}...${C}`,
      `${C}...${C}`,
      `${C}...${A}`,
      `${C}...${forced}`,
    ]);
  });

  it('serves an interdiff from its own base, never the pull request’s patch of that head', async () => {
    const provider = connect();
    await fake.loadPullRequest(SCENARIO_PUSH);
    const pr = await provider.getPullRequest(ref());
    await collect(provider.listChangedFiles(ref(), pr.revision)); // caches the PR's patches at head C
    const interdiff = await provider.getFileDiff(ref(), fileOf('src/tax.ts'), {
      revisionId: C,
      headSha: C,
      baseSha: A,
      mergeBaseSha: A,
    });
    expect(interdiff).toEqual({
      text: '--- a/src/tax.ts\n+++ b/src/tax.ts\n@@ -1,2 +1,2 @@\n-export const rate = 0.2;\n+export const rate = 0.25;\n export const name = "vat";\n',
      commentable: 'diffLines',
    });
    const whole = await provider.getFileDiff(ref(), fileOf('src/tax.ts'), pr.revision);
    expect(whole.text).toBe(
      '--- /dev/null\n+++ b/src/tax.ts\n@@ -0,0 +1,2 @@\n+export const rate = 0.25;\n+export const name = "vat";\n',
    );
  });

  it('reads configuration at the tip of a branch with ?ref=<branch>', async () => {
    const config = await connect().getFileContent(ref(), '.margin/config.yml', { branch: 'main' });
    expect(config).toEqual({ text: 'minimumSeverity: warning\n', sizeBytes: 25, isBinary: false });
    expect(fake.server.requests.at(-1)?.query.get('ref')).toBe('main');
  });
});

describe('GitHub: cancellation', () => {
  it('stops waiting out a rate limit when the signal is aborted, and sends nothing more', async () => {
    fake.server.interceptNext({
      status: 403,
      headers: { 'retry-after': '30', 'x-ratelimit-remaining': '4870' },
      json: fixture('error-secondary-rate-limit'),
    });
    const controller = new AbortController();
    const pending = marginErrorOf(connect().getPullRequest(ref(), { signal: controller.signal }));
    while (fake.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending;
    expect(error.message).toBe('The call to GitHub was cancelled.');
    expect(fake.server.requests).toHaveLength(1);
  });

  it('mints no App token for a call that is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await marginErrorOf(connectApp().listBranches(ref(), { signal: controller.signal })[Symbol.asyncIterator]().next());
    expect(fake.server.requests).toHaveLength(0);
  });
});
