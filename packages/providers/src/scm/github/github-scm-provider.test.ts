import { generateKeyPairSync } from 'node:crypto';
import { MarginError, type ReviewThread, type ScmConnectionConfig, type ScmProviderV1 } from '@margin/core/spec';
import { collect, marginErrorOf, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { inspectGitHubError } from './github-client.js';
import { ownerOf } from './github-discovery.js';
import {
  GH_FILE_WITHOUT_PATCH,
  GH_MERGE_BASE,
  GH_OWNER,
  GH_REPOSITORY_ID,
  type GitHubFake,
  startGitHubFake,
} from './github-fake.js';
import { gitHubFamily } from './github-family.js';
import { type GitHubOptions, gitHubEndpoints } from './github-options.js';

const fixture = fixtureReader(import.meta.url);

const s = SCM_CONTRACT_SCENARIO;
const PAT = 'ghp_focusedTestToken0123456789abcdefABCD';
const APP = { id: 123456, installationId: 55555 };
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let fake: GitHubFake;
let clock: number;
beforeEach(async () => {
  clock = Date.now();
  fake = await startGitHubFake({
    pat: PAT,
    app: { ...APP, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    now: () => clock,
  });
});
afterEach(async () => {
  await fake.close();
});

const patConnection = (): ScmConnectionConfig => ({
  family: 'gitHostA',
  authenticationKind: 'personalAccessToken',
  hostBaseUrl: fake.hostUrl,
  secret: PAT,
});
const appConnection = (extra: Partial<ScmConnectionConfig> = {}): ScmConnectionConfig => ({
  family: 'gitHostA',
  authenticationKind: 'appInstallation',
  hostBaseUrl: fake.hostUrl,
  secret: PEM,
  hostedAppId: APP.id,
  hostedAppInstallationId: APP.installationId,
  ...extra,
});
const connect = (connection: ScmConnectionConfig, options: GitHubOptions = {}): ScmProviderV1 =>
  gitHubFamily({ backoffBaseMs: 1, now: () => clock, ...options }).connect(connection);

const scope = () => ({ scopePath: `${fake.hostUrl}/${GH_OWNER}`, projectKey: GH_OWNER });
const ref = () => ({ ...scope(), repositoryId: GH_REPOSITORY_ID, pullRequestId: s.pullRequest.number });
const requestsTo = (suffix: string, method = 'GET') =>
  fake.server.requests.filter((r) => r.method === method && r.path.endsWith(suffix));

describe('GitHub App installations', () => {
  it('signs an RS256 App JWT, exchanges it once for an installation token and names the bot', async () => {
    const provider = connect(appConnection());
    await expect(provider.verify()).resolves.toEqual({ login: 'margin-review[bot]', displayName: 'Margin Review' });
    await provider.getPullRequest(ref());
    const exchanges = requestsTo(`/app/installations/${APP.installationId}/access_tokens`, 'POST');
    expect(exchanges).toHaveLength(1);
    const jwt = exchanges[0]?.headers.authorization?.replace('Bearer ', '') ?? '';
    const [header, payload] = jwt
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(payload).toEqual({ iat: Math.floor(clock / 1000) - 60, exp: Math.floor(clock / 1000) + 540, iss: '123456' });
    expect(requestsTo('/pulls/42').at(-1)?.headers.authorization).toBe(`Bearer ${fake.issuedTokens[0]}`);
  });

  it('renews the installation token five minutes before it expires, and after a 401', async () => {
    const provider = connect(appConnection());
    await provider.getPullRequest(ref());
    clock += 54 * 60_000;
    await provider.getPullRequest(ref());
    expect(fake.issuedTokens).toHaveLength(1);
    clock += 2 * 60_000;
    await provider.getPullRequest(ref());
    expect(fake.issuedTokens).toHaveLength(2);
    fake.issuedTokens.splice(0); // revoked on GitHub's side
    await provider.getPullRequest(ref());
    expect(requestsTo('/pulls/42').at(-1)?.headers.authorization).toBe(`Bearer ${fake.issuedTokens[0]}`);
  });

  it('reports an unreadable private key and an unknown installation as credentials failures', async () => {
    const notPem = 'not-a-pem-private-key-0123456789';
    const thrown = (() => {
      try {
        connect(appConnection({ secret: notPem }));
      } catch (error) {
        return error;
      }
    })();
    expect(MarginError.isInstance(thrown) && thrown.details).toMatchObject({ providerFailure: 'credentials' });
    expect(String((thrown as Error).message)).not.toContain(notPem);
    const error = await marginErrorOf(connect(appConnection({ hostedAppInstallationId: 1 })).verify());
    expect(error.details).toMatchObject({ providerFailure: 'credentials', providerStatus: 404 });
  });

  it('discovers the installation’s repositories and its account as the project', async () => {
    const provider = connect(appConnection());
    expect((await collect(provider.listRepositories(scope()))).map((r) => r.repositoryId)).toEqual([GH_REPOSITORY_ID]);
    expect(await collect(provider.listProjects(fake.hostUrl))).toEqual([{ projectKey: 'acme', name: 'acme' }]);
  });
});

describe('GitHub hosts and requests', () => {
  it('maps github.com, GHE.com and GitHub Enterprise Server to their API endpoints', () => {
    expect(gitHubEndpoints('https://github.com')).toEqual({
      rest: 'https://api.github.com',
      graphql: 'https://api.github.com/graphql',
    });
    expect(gitHubEndpoints('https://api.github.com/')).toEqual(gitHubEndpoints('https://github.com'));
    expect(gitHubEndpoints('https://octo.ghe.com')).toEqual({
      rest: 'https://api.octo.ghe.com',
      graphql: 'https://api.octo.ghe.com/graphql',
    });
    expect(gitHubEndpoints('https://git.acme.example/api/v3')).toEqual({
      rest: 'https://git.acme.example/api/v3',
      graphql: 'https://git.acme.example/api/graphql',
    });
  });

  it('calls api.github.com with the headers GitHub requires', async () => {
    const seen: Request[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init));
      return Response.json({ id: 1, login: 'margin-bot', name: null });
    };
    const provider = gitHubFamily({ fetch: recordingFetch }).connect({
      ...patConnection(),
      hostBaseUrl: 'https://github.com',
    });
    await expect(provider.verify()).resolves.toEqual({ login: 'margin-bot', displayName: 'margin-bot' });
    expect(seen[0]?.url).toBe('https://api.github.com/user');
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${PAT}`);
    expect(seen[0]?.headers.get('accept')).toBe('application/vnd.github+json');
    expect(seen[0]?.headers.get('x-github-api-version')).toBe('2022-11-28');
    expect(seen[0]?.headers.get('user-agent')).toBe('margin-code-review');
  });

  it('does not follow a Link header to another origin', async () => {
    let calls = 0;
    const linkingFetch: typeof fetch = async () => {
      calls++;
      return Response.json([{ name: 'main' }], {
        headers: { link: '<https://evil.example/steal?page=2>; rel="next"' },
      });
    };
    const provider = gitHubFamily({ fetch: linkingFetch }).connect({
      ...patConnection(),
      hostBaseUrl: 'https://github.com',
    });
    expect(await collect(provider.listBranches(ref()))).toEqual(['main']);
    expect(calls).toBe(1);
  });

  it('pages files with per_page=100 through Link headers, one page at a time', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    let count = 0;
    for await (const _ of provider.listChangedFiles(ref(), pr.revision)) {
      if (++count === 1) expect(requestsTo('/pulls/42/files')).toHaveLength(1);
    }
    expect(requestsTo('/pulls/42/files').map((r) => r.query.get('page'))).toEqual([null, '2', '3']);
    expect(requestsTo('/pulls/42/files').every((r) => r.query.get('per_page') === '100')).toBe(true);
  });

  it('refuses a repository id that is not numeric', async () => {
    const error = await marginErrorOf(
      connect(patConnection()).getPullRequest({ ...ref(), repositoryId: 'acme/uploader' }),
    );
    expect(error.code).toBe('validation_failed');
  });

  it('names the owner of a scope path', () => {
    expect(ownerOf('https://github.com/acme')).toBe('acme');
    expect(ownerOf('https://github.com/acme/')).toBe('acme');
    expect(ownerOf('https://github.com')).toBeUndefined();
  });
});

describe('GitHub rate limits', () => {
  it('waits out a primary rate limit (403 with x-ratelimit-remaining 0) until the reset', async () => {
    fake.server.interceptNext({
      status: 403,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)),
        'x-ratelimit-resource': 'core',
      },
      json: fixture('error-primary-rate-limit'),
    });
    await expect(connect(patConnection()).getPullRequest(ref())).resolves.toMatchObject({ title: s.pullRequest.title });
    expect(fake.server.requests).toHaveLength(2);
  });

  it('reads a secondary limit without retry-after as a one-minute wait, and other 403s as refusals', () => {
    const secondary = inspectGitHubError({
      status: 403,
      headers: new Headers(),
      body: fixture('error-secondary-rate-limit'),
    });
    expect(secondary).toEqual({ failure: 'rateLimited', retry: true, retryAfterMs: 60_000 });
    const forbidden = inspectGitHubError({
      status: 403,
      headers: new Headers({ 'x-ratelimit-remaining': '4999' }),
      body: { message: 'Resource not accessible by integration', status: '403' },
    });
    expect(forbidden).toBeUndefined();
  });

  it('fails a refused call at once as an authorization failure', async () => {
    fake.server.interceptNext({
      status: 403,
      json: { message: 'Resource not accessible by integration', status: '403' },
    });
    const error = await marginErrorOf(connect(patConnection()).getPullRequest(ref()));
    expect(error.details).toMatchObject({ providerFailure: 'authorization', providerStatus: 403 });
    expect(fake.server.requests).toHaveLength(1);
  });
});

describe('GitHub diffs and revisions', () => {
  it('uses the patch GitHub gave while listing files, with file headers', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    await collect(provider.listChangedFiles(ref(), pr.revision));
    const before = fake.server.requests.length;
    const diff = await provider.getFileDiff(
      ref(),
      { path: 'src/renamed.ts', previousPath: 'src/original.ts', changeType: 'renamed', additions: 0, deletions: 0 },
      pr.revision,
    );
    expect(diff).toEqual({ text: '--- a/src/original.ts\n+++ b/src/renamed.ts\n', commentable: 'diffLines' });
    const modified = await provider.getFileDiff(
      ref(),
      { path: 'src/file-005.ts', changeType: 'modified' },
      pr.revision,
    );
    expect(modified.text).toBe(
      '--- a/src/file-005.ts\n+++ b/src/file-005.ts\n@@ -1 +1 @@\n-// src/file-005.ts at base\n+// src/file-005.ts at head\n',
    );
    expect(fake.server.requests.length).toBe(before);
  });

  it('diffs locally against the merge base when GitHub leaves the patch out', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    await collect(provider.listChangedFiles(ref(), pr.revision));
    const diff = await provider.getFileDiff(
      ref(),
      { path: GH_FILE_WITHOUT_PATCH, changeType: 'modified' },
      pr.revision,
    );
    expect(diff.text).toBe(
      `--- a/${GH_FILE_WITHOUT_PATCH}\n+++ b/${GH_FILE_WITHOUT_PATCH}\n@@ -1,1 +1,1 @@\n-// ${GH_FILE_WITHOUT_PATCH} at base\n+// ${GH_FILE_WITHOUT_PATCH} at head\n`,
    );
    expect(requestsTo(`/compare/${s.pullRequest.baseSha}...${s.pullRequest.headSha}`)).toHaveLength(1);
    expect(requestsTo(`/contents/${GH_FILE_WITHOUT_PATCH}`).map((r) => r.query.get('ref'))).toEqual(
      expect.arrayContaining([GH_MERGE_BASE, s.pullRequest.headSha]),
    );
  });

  it('lists commits as revisions ending at the head', async () => {
    const revisions = await connect(patConnection()).listRevisions(ref());
    expect(revisions.map((r) => r.headSha)).toEqual(['5'.repeat(40), s.pullRequest.headSha]);
    expect(revisions.every((r) => r.baseSha === s.pullRequest.baseSha && r.revisionId === r.headSha)).toBe(true);
  });
});

describe('GitHub review threads', () => {
  it('posts a range comment on the new side with start_line and commit_id', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    const created = await provider.createThread(ref(), {
      body: 'Cap the backoff.',
      anchor: { filePath: 'src/file-002.ts', startLine: 5, endLine: 6 },
      revision: pr.revision,
    });
    expect(requestsTo('/pulls/42/comments', 'POST').at(-1)?.json).toEqual({
      body: 'Cap the backoff.',
      commit_id: s.pullRequest.headSha,
      path: 'src/file-002.ts',
      line: 6,
      side: 'RIGHT',
      start_line: 5,
      start_side: 'RIGHT',
    });
    expect(created.threadId).toMatch(/^review-comment:\d+$/);
    expect(created.webUrl).toContain('#discussion_r');
  });

  it('sends a one-line comment without a start line', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    await provider.createThread(ref(), {
      body: 'Typo.',
      anchor: { filePath: 'src/file-003.ts', startLine: 7, endLine: 7 },
      revision: pr.revision,
    });
    expect(requestsTo('/pulls/42/comments', 'POST').at(-1)?.json).toEqual({
      body: 'Typo.',
      commit_id: s.pullRequest.headSha,
      path: 'src/file-003.ts',
      line: 7,
      side: 'RIGHT',
    });
  });

  it('reports a line GitHub cannot place (422) as a rejected call', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    const error = await marginErrorOf(
      provider.createThread(ref(), {
        body: 'x',
        anchor: { filePath: 'not/in/the/diff.ts', startLine: 1, endLine: 1 },
        revision: pr.revision,
      }),
    );
    expect(error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 422 });
  });

  it('resolves and reopens a thread through GraphQL, and creates threads already resolved', async () => {
    const provider = connect(patConnection());
    const existing = 'review-comment:1600000001';
    await provider.setThreadStatus(ref(), existing, 'resolved');
    const statusOf = async (id: string) =>
      (await collect(provider.listThreads(ref()))).find((t: ReviewThread) => t.threadId === id)?.status;
    expect(await statusOf(existing)).toBe('resolved');
    await provider.setThreadStatus(ref(), existing, 'open');
    expect(await statusOf(existing)).toBe('open');
    const mutations = requestsTo('/api/graphql', 'POST')
      .map((r) => /^(?:mutation)\s+(\w+)/.exec((r.json as { query: string }).query)?.[1])
      .filter(Boolean);
    expect(mutations).toEqual(['MarginResolveThread', 'MarginUnresolveThread']);

    const pr = await provider.getPullRequest(ref());
    const created = await provider.createThread(ref(), {
      body: 'Auto-resolved note.',
      anchor: { filePath: 'src/file-004.ts', startLine: 2, endLine: 2 },
      revision: pr.revision,
      status: 'resolved',
    });
    expect(await statusOf(created.threadId)).toBe('resolved');
  });

  it('lists conversation comments as one-comment threads and leaves their status alone', async () => {
    const provider = connect(patConnection());
    const threads = await collect(provider.listThreads(ref()));
    const conversation = threads.find((t) => t.threadId === 'issue-comment:2800000001');
    expect(conversation).toMatchObject({
      status: 'open',
      comments: [
        { commentId: '2800000001', body: 'Ready for review.', author: { login: 'ada', externalUserId: '5830001' } },
      ],
    });
    expect(conversation?.anchor).toBeUndefined();
    const before = fake.server.requests.length;
    await provider.setThreadStatus(ref(), 'issue-comment:2800000001', 'resolved');
    expect(fake.server.requests.length).toBe(before);
    const { commentId } = await provider.reply(ref(), 'issue-comment:2800000001', 'Thanks!');
    expect(requestsTo('/issues/42/comments', 'POST').at(-1)?.json).toEqual({ body: 'Thanks!' });
    expect(commentId).toMatch(/^\d+$/);
  });

  it('refuses thread ids it did not make', async () => {
    const error = await marginErrorOf(connect(patConnection()).reply(ref(), 'PRRT_abc', 'x'));
    expect(error.code).toBe('validation_failed');
  });
});

describe('GitHub discovery', () => {
  it('lists open pull requests of every repository of the owner when none is named', async () => {
    const open = await collect(connect(patConnection()).listOpenPullRequests(scope()));
    expect(open.map((p) => p.ref.pullRequestId)).toEqual([42, 43]);
    expect(open[0]).toMatchObject({
      ref: { repositoryId: GH_REPOSITORY_ID },
      revision: { revisionId: s.pullRequest.headSha },
      repositoryName: 'uploader',
      reviewers: [{ login: 'grace' }],
    });
  });

  it('lists an organization’s repositories page by page and leaves archived ones out', async () => {
    const repos = await collect(connect(patConnection()).listRepositories(scope()));
    expect(repos).toEqual([
      {
        repositoryId: GH_REPOSITORY_ID,
        name: 'uploader',
        projectKey: 'acme',
        defaultBranch: 'main',
        webUrl: 'https://github.com/acme/uploader',
      },
    ]);
    expect(requestsTo('/orgs/acme/repos')).toHaveLength(1);
  });

  it('names the owner of the scope path as its one project', async () => {
    expect(await collect(connect(patConnection()).listProjects(`${fake.hostUrl}/acme`))).toEqual([
      { projectKey: 'acme', name: 'Acme Corp' },
    ]);
  });

  it('searches users by login', async () => {
    const users = await connect(patConnection()).searchUsers(scope().scopePath, 'ad');
    expect(users).toEqual([{ externalUserId: '5830001', login: 'ada', displayName: 'ada', isBot: false }]);
    expect(requestsTo('/search/users')[0]?.query.get('q')).toBe('ad in:login');
  });
});
