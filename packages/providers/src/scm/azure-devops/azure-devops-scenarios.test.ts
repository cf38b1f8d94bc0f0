import type { PullRequestRef, ScmProviderV1 } from '@margin/core/spec';
import { collect, marginErrorOf, SCENARIO_PULL_REQUEST, SCENARIO_PUSH } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { gitBlobId } from '../../testing/scenario-history.js';
import { ADO_PROJECT, ADO_REPOSITORY_ID, type AzureDevOpsFake, startAzureDevOpsFake } from './azure-devops-fake.js';
import { azureDevOpsFamily } from './azure-devops-family.js';

const fixture = fixtureReader(import.meta.url);

const PAT = 'ado-pat-scenario-7f3c9e1b2a4d6f8e0c1b3a5d';
const CLIENT_SECRET = 'entra~scenario~secret~0123456789abcdef';

let fake: AzureDevOpsFake;
beforeEach(async () => {
  fake = await startAzureDevOpsFake({ pat: PAT, clientSecret: CLIENT_SECRET });
  await fake.loadPullRequest(SCENARIO_PULL_REQUEST);
});
afterEach(async () => {
  await fake.close();
});

const connect = (): ScmProviderV1 =>
  azureDevOpsFamily({ backoffBaseMs: 1 }).connect({
    family: 'suiteDevOps',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: fake.orgUrl,
    secret: PAT,
  });
const ref = (pullRequestId: number = SCENARIO_PULL_REQUEST.number): PullRequestRef => ({
  scopePath: fake.orgUrl,
  projectKey: ADO_PROJECT,
  repositoryId: ADO_REPOSITORY_ID,
  pullRequestId,
});
const R = `/acme/Web%20Platform/_apis/git/repositories/${ADO_REPOSITORY_ID}`;
const THREADS = `${R}/pullRequests/77/threads?api-version=6.0`;
const A = SCENARIO_PULL_REQUEST.headSha;
const C = SCENARIO_PUSH.headSha;
const marker = (value: string) => ({ 'margin.marker': { $type: 'System.String', $value: value } });

describe('Azure DevOps: publishing a review run', () => {
  it('posts each thread with its thread context, iteration context and marker property', async () => {
    await fake.loadPullRequest(SCENARIO_PUSH);
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    expect(revision.revisionId).toBe('2');
    const outcomes = await provider.createThreads(ref(), {
      revision,
      threads: [
        { body: 'A range.', anchor: { filePath: 'src/invoice.ts', startLine: 25, endLine: 26 }, marker: 'margin:1' },
        {
          body: 'Removed export.',
          anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' },
          marker: 'margin:2',
        },
        { body: 'Summary.', marker: 'margin:summary' },
      ],
    });

    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    const posts = fake.writes.filter((w) => w.method === 'POST');
    expect(posts.map((w) => [w.path, w.status])).toEqual([
      [THREADS, 200],
      [THREADS, 200],
      [THREADS, 200],
    ]);
    expect(posts.map((w) => w.body)).toEqual([
      {
        comments: [{ parentCommentId: 0, content: 'A range.', commentType: 'text' }],
        status: 'active',
        threadContext: {
          filePath: '/src/invoice.ts',
          rightFileStart: { line: 25, offset: 1 },
          rightFileEnd: { line: 26, offset: 1 },
        },
        pullRequestThreadContext: {
          changeTrackingId: 1,
          iterationContext: { firstComparingIteration: 1, secondComparingIteration: 2 },
        },
        properties: marker('margin:1'),
      },
      {
        comments: [{ parentCommentId: 0, content: 'Removed export.', commentType: 'text' }],
        status: 'active',
        threadContext: {
          filePath: '/src/legacy.ts',
          leftFileStart: { line: 1, offset: 1 },
          leftFileEnd: { line: 1, offset: 1 },
        },
        pullRequestThreadContext: {
          changeTrackingId: 4,
          iterationContext: { firstComparingIteration: 1, secondComparingIteration: 2 },
        },
        properties: marker('margin:2'),
      },
      {
        comments: [{ parentCommentId: 0, content: 'Summary.', commentType: 'text' }],
        status: 'active',
        properties: marker('margin:summary'),
      },
    ]);

    const threads = await collect(provider.listThreads(ref()));
    expect(threads.find((t) => t.marker === 'margin:2')).toMatchObject({
      anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' },
      comments: [{ body: 'Removed export.' }],
      authoredByConnection: true,
      providerStatus: 'active',
    });
    expect(threads.find((t) => t.marker === 'margin:summary')?.anchor).toBeUndefined();
  });

  it('takes a comment on any line of the file, and refuses one thread without failing the others', async () => {
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    fake.refuseThreadsOn('src/windows.ts');
    const outcomes = await provider.createThreads(ref(), {
      revision,
      threads: [
        { body: 'Outside the hunks.', anchor: { filePath: 'src/invoice.ts', startLine: 15, endLine: 15 } },
        { body: 'Refused.', anchor: { filePath: 'src/windows.ts', startLine: 2, endLine: 2 } },
        { body: 'Fine.', anchor: { filePath: 'src/tax.ts', startLine: 1, endLine: 1 } },
      ],
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    const refused = outcomes[1];
    if (refused?.ok !== false) throw new Error('expected a refusal');
    expect(refused.error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 400 });
    expect(refused.error.message).toContain(fixture<{ message: string }>('error-thread-refused').message);
    expect(fake.writes.map((w) => w.status)).toEqual([200, 400, 200]);
    const diff = await provider.getFileDiff(ref(), { path: 'src/invoice.ts', changeType: 'modified' }, revision);
    expect(diff.commentable).toBe('anyLine');
  });

  it('edits a comment’s content in place; the marker stays in the thread’s properties', async () => {
    const provider = connect();
    const { revision } = await provider.getPullRequest(ref());
    const created = await provider.createThread(ref(), { body: 'Run 1.', revision, marker: 'margin:summary' });
    await provider.editComment(ref(), { ...created, body: 'Run 2.', marker: 'margin:summary' });
    expect(fake.writes.at(-1)).toEqual({
      method: 'PATCH',
      path: `${R}/pullRequests/77/threads/${created.threadId}/comments/${created.commentId}?api-version=6.0`,
      body: { content: 'Run 2.' },
      status: 200,
    });
    const thread = (await collect(provider.listThreads(ref()))).find((t) => t.threadId === created.threadId);
    expect(thread).toMatchObject({ marker: 'margin:summary', comments: [{ body: 'Run 2.' }] });
  });

  it('tells how a thread was closed, and whose it is', async () => {
    const human = fake.threads.find((t) => t.id === 101);
    if (!human) throw new Error('fixture thread 101');
    human.status = 'wontFix';
    const threads = await collect(connect().listThreads(ref(42)));
    expect(threads.find((t) => t.threadId === '101')).toMatchObject({
      status: 'resolved',
      providerStatus: 'wontFix',
      closedAs: 'wontFix',
      authoredByConnection: false,
    });
    expect(threads.find((t) => t.threadId === '101')?.marker).toBeUndefined();
  });
});

describe('Azure DevOps: files and comparisons', () => {
  it('names both blob ids of each change, as the iteration changes carry them', async () => {
    const provider = connect();
    const contract = await collect(
      provider.listChangedFiles(ref(42), (await provider.getPullRequest(ref(42))).revision),
    );
    const recorded =
      fixture<Record<string, { item: { objectId: string; originalObjectId: string } }>>('change-entries').edit;
    expect(contract.find((f) => f.path === 'src/file-000.ts')).toMatchObject({
      oldBlobId: recorded?.item.originalObjectId,
      newBlobId: recorded?.item.objectId,
    });
    const files = await collect(provider.listChangedFiles(ref(), (await provider.getPullRequest(ref())).revision));
    expect(files.find((f) => f.path === 'src/tax.ts')).toMatchObject({
      oldBlobId: undefined,
      newBlobId: gitBlobId(Buffer.from('export const rate = 0.2;\nexport const name = "vat";\n')),
    });
    expect(files.find((f) => f.path === 'src/legacy.ts')).toMatchObject({
      oldBlobId: gitBlobId(Buffer.from('export const old = 1;\n')),
      newBlobId: undefined,
    });
  });

  it('relates two commits from diffs/commits counts, with the files between them', async () => {
    await fake.loadPullRequest(SCENARIO_PUSH);
    const provider = connect();
    const ahead = await provider.compareCommits(ref(), A, C);
    expect(ahead).toEqual({
      relation: 'ahead',
      files: [
        expect.objectContaining({
          path: 'src/tax.ts',
          changeType: 'modified',
          oldBlobId: gitBlobId(Buffer.from('export const rate = 0.2;\nexport const name = "vat";\n')),
          newBlobId: gitBlobId(Buffer.from('export const rate = 0.25;\nexport const name = "vat";\n')),
        }),
      ],
    });
    const query = fake.server.requests.at(-1)?.query;
    expect(Object.fromEntries(query ?? [])).toMatchObject({
      baseVersion: A,
      baseVersionType: 'commit',
      targetVersion: C,
      targetVersionType: 'commit',
      diffCommonCommit: 'false',
    });
    expect((await provider.compareCommits(ref(), C, C)).relation).toBe('identical');
    expect((await provider.compareCommits(ref(), C, A)).relation).toBe('behind');
    const forced = 'd'.repeat(40);
    await fake.loadPullRequest({ ...SCENARIO_PUSH, headSha: forced, relationToPreviousHead: 'diverged' });
    expect((await provider.compareCommits(ref(), C, forced)).relation).toBe('diverged');
  });

  it('reads a file at the tip of a branch with versionType=branch', async () => {
    const config = await connect().getFileContent(ref(), '.margin/config.yml', { branch: 'main' });
    expect(config?.text).toBe('minimumSeverity: warning\n');
    const query = fake.server.requests.at(-1)?.query;
    expect(query?.get('versionDescriptor.versionType')).toBe('branch');
    expect(query?.get('versionDescriptor.version')).toBe('main');
  });
});

describe('Azure DevOps: cancellation', () => {
  it('stops waiting out a 429 when the signal is aborted, and sends nothing more', async () => {
    fake.server.interceptNext({
      status: 429,
      headers: { 'retry-after': '30' },
      json: fixture('error-rate-limited'),
    });
    const controller = new AbortController();
    const pending = marginErrorOf(connect().getPullRequest(ref(), { signal: controller.signal }));
    while (fake.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending;
    expect(error.message).toBe('The call to Azure DevOps was cancelled.');
    expect(fake.server.requests).toHaveLength(1);
  });

  it('fetches no Entra token for a call that is already cancelled', async () => {
    const entra = azureDevOpsFamily({ entraAuthorityUrl: fake.server.url }).connect({
      family: 'suiteDevOps',
      authenticationKind: 'oauthClientCredentials',
      hostBaseUrl: fake.orgUrl,
      secret: CLIENT_SECRET,
      oAuthTenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
      oAuthClientId: '9a8b7c6d-5e4f-3a2b-1c0d-9e8f7a6b5c4d',
    });
    const controller = new AbortController();
    controller.abort();
    await marginErrorOf(entra.getPullRequest(ref(), { signal: controller.signal }));
    expect(fake.server.requests).toHaveLength(0);
  });
});
