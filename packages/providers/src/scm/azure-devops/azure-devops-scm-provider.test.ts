import type { ScmConnectionConfig, ScmProviderV1 } from '@margin/core/spec';
import { marginErrorOf, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADO_CODE_WIKI_REPOSITORY_ID,
  ADO_MERGE_BASE,
  ADO_PROJECT,
  ADO_REPOSITORY_ID,
  ADO_WIKI_REPOSITORY_ID,
  type AzureDevOpsFake,
  startAzureDevOpsFake,
} from './azure-devops-fake.js';
import { azureDevOpsFamily } from './azure-devops-family.js';
import type { AzureDevOpsOptions } from './azure-devops-options.js';

const s = SCM_CONTRACT_SCENARIO;
const PAT = 'ado-pat-7f3c9e1b2a4d6f8e0c1b3a5d7f9e2c4b';
const CLIENT_SECRET = 'entra~client~secret~0123456789abcdef';

let fake: AzureDevOpsFake;
beforeEach(async () => {
  fake = await startAzureDevOpsFake({ pat: PAT, clientSecret: CLIENT_SECRET });
});
afterEach(async () => {
  await fake.close();
});

const patConnection = (): ScmConnectionConfig => ({
  family: 'suiteDevOps',
  authenticationKind: 'personalAccessToken',
  hostBaseUrl: fake.orgUrl,
  secret: PAT,
});

const entraConnection = (secret = CLIENT_SECRET): ScmConnectionConfig => ({
  family: 'suiteDevOps',
  authenticationKind: 'oauthClientCredentials',
  hostBaseUrl: fake.orgUrl,
  secret,
  oAuthTenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  oAuthClientId: '9a8b7c6d-5e4f-3a2b-1c0d-9e8f7a6b5c4d',
});

const connect = (connection: ScmConnectionConfig, options: AzureDevOpsOptions = {}): ScmProviderV1 =>
  azureDevOpsFamily({ backoffBaseMs: 1, entraAuthorityUrl: fake.server.url, ...options }).connect(connection);

const ref = () => ({
  scopePath: fake.orgUrl,
  projectKey: ADO_PROJECT,
  repositoryId: ADO_REPOSITORY_ID,
  pullRequestId: s.pullRequest.number,
});

const requestsTo = (suffix: string, method = 'GET') =>
  fake.server.requests.filter((r) => r.method === method && r.path.endsWith(suffix));

describe('Azure DevOps with Entra ID client credentials', () => {
  it('asks Entra for an Azure DevOps token once and sends it as Bearer on every call', async () => {
    const provider = connect(entraConnection());
    await provider.verify();
    await provider.getPullRequest(ref());
    const tokenCalls = requestsTo('/oauth2/v2.0/token', 'POST');
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]?.path).toBe('/72f988bf-86f1-41af-91ab-2d7cd011db47/oauth2/v2.0/token');
    expect(tokenCalls[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenCalls[0]?.text))).toEqual({
      grant_type: 'client_credentials',
      client_id: '9a8b7c6d-5e4f-3a2b-1c0d-9e8f7a6b5c4d',
      client_secret: CLIENT_SECRET,
      scope: '499b84ac-1321-427f-aa17-267ca6975798/.default',
    });
    const adoCalls = fake.server.requests.filter((r) => r.path.startsWith('/acme/'));
    expect(adoCalls.length).toBeGreaterThanOrEqual(3);
    for (const call of adoCalls) expect(call.headers.authorization).toBe(`Bearer ${fake.issuedTokens[0]}`);
  });

  it('fetches a new token five minutes before the old one expires', async () => {
    let clock = 1_000_000;
    const provider = connect(entraConnection(), { now: () => clock });
    await provider.verify();
    clock += (3599 - 301) * 1000;
    await provider.verify();
    expect(requestsTo('/oauth2/v2.0/token', 'POST')).toHaveLength(1);
    clock += 2000;
    await provider.verify();
    expect(requestsTo('/oauth2/v2.0/token', 'POST')).toHaveLength(2);
    expect(fake.server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${fake.issuedTokens[1]}`);
  });

  it('gets a fresh token once when Azure DevOps rejects a cached one', async () => {
    const provider = connect(entraConnection());
    await provider.verify();
    fake.issuedTokens.splice(0); // the token was revoked
    await expect(provider.verify()).resolves.toMatchObject({ login: 'margin-bot@acme.example' });
    expect(requestsTo('/oauth2/v2.0/token', 'POST')).toHaveLength(2);
  });

  it('reports a wrong client secret as a credentials failure without the secret', async () => {
    const wrong = 'entra~wrong~secret~fedcba9876543210';
    const error = await marginErrorOf(connect(entraConnection(wrong)).verify());
    expect(error.code).toBe('provider_unavailable');
    expect(error.details).toMatchObject({ providerFailure: 'credentials', providerStatus: 401 });
    expect(error.message).toContain('AADSTS7000215');
    expect(error.message).not.toContain(wrong);
  });

  it('refuses a connection without tenant or client id', () => {
    expect(() => connect({ ...entraConnection(), oAuthTenantId: undefined })).toThrow(/oAuthTenantId/);
  });
});

describe('Azure DevOps requests', () => {
  it('sends PATs as Basic with an empty user name and suppresses sign-in redirects', async () => {
    await connect(patConnection()).verify();
    const call = fake.server.requests[0];
    expect(call?.headers.authorization).toBe(`Basic ${Buffer.from(`:${PAT}`).toString('base64')}`);
    expect(call?.headers['x-tfs-fedauthredirect']).toBe('Suppress');
  });

  it('uses api-version 7.1 and the vssps identity host on Azure DevOps Services', async () => {
    const seen: string[] = [];
    const recordingFetch: typeof fetch = async (input) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return Response.json({ count: 0, value: [] });
    };
    const provider = azureDevOpsFamily({ fetch: recordingFetch }).connect({
      ...patConnection(),
      hostBaseUrl: 'https://dev.azure.com/acme',
    });
    await provider.searchUsers('https://dev.azure.com/acme', 'ad');
    expect(seen).toEqual([
      'https://vssps.dev.azure.com/acme/_apis/identities?searchFilter=General&filterValue=ad&queryMembership=None&api-version=7.1',
    ]);
  });

  it('defaults to api-version 6.0 on Server and takes an explicit one', async () => {
    await connect(patConnection()).getPullRequest(ref());
    expect(fake.server.requests.at(-1)?.query.get('api-version')).toBe('6.0');
    await connect(patConnection(), { apiVersion: '7.0' }).getPullRequest(ref());
    expect(fake.server.requests.at(-1)?.query.get('api-version')).toBe('7.0');
  });

  it('never sends credentials to a scope path on another host', async () => {
    const error = await marginErrorOf(
      connect(patConnection()).getPullRequest({ ...ref(), scopePath: 'https://evil.example/acme' }),
    );
    expect(error.code).toBe('validation_failed');
    expect(fake.server.requests).toHaveLength(0);
  });

  it('treats a 203 sign-in page as rejected credentials', async () => {
    const htmlFetch: typeof fetch = async () =>
      new Response('<html>Sign in</html>', { status: 203, headers: { 'content-type': 'text/html' } });
    const error = await marginErrorOf(azureDevOpsFamily({ fetch: htmlFetch }).connect(patConnection()).verify());
    expect(error.details).toMatchObject({ providerFailure: 'credentials' });
  });
});

describe('Azure DevOps pull requests', () => {
  it('lists iterations as revisions with the merge base', async () => {
    const revisions = await connect(patConnection()).listRevisions(ref());
    expect(revisions.map((r) => r.revisionId)).toEqual(['1', '2']);
    expect(revisions.at(-1)).toMatchObject({
      headSha: s.pullRequest.headSha,
      baseSha: s.pullRequest.baseSha,
      mergeBaseSha: ADO_MERGE_BASE,
    });
  });

  it('reads iteration changes page by page with $top/$skip', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    const seen: string[] = [];
    for await (const file of provider.listChangedFiles(ref(), pr.revision)) {
      seen.push(file.path);
      // The first page is served before the second is asked for.
      if (seen.length === 1) expect(requestsTo('/iterations/2/changes')).toHaveLength(1);
    }
    const pages = requestsTo('/iterations/2/changes');
    expect(pages.map((p) => p.query.get('$skip'))).toEqual(['0', '100', '200']);
    expect(pages.every((p) => p.query.get('$top') === '100')).toBe(true);
    expect(seen).not.toContain('docs'); // the folder entry
  });

  it('answers not_found, not undefined, for a file in a repository that does not exist', async () => {
    const error = await marginErrorOf(
      connect(patConnection()).getFileContent(
        { ...ref(), repositoryId: '00000000-0000-0000-0000-000000000000' },
        'a.ts',
        s.pullRequest.headSha,
      ),
    );
    expect(error.code).toBe('not_found');
  });

  it('diffs an added file against nothing and a renamed file against its old path', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    const added = await provider.getFileDiff(ref(), { path: 'docs/new.md', changeType: 'added' }, pr.revision);
    expect(added).toEqual({
      text: '--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1,1 @@\n+// docs/new.md at head\n',
      commentable: 'anyLine',
    });
    const renamed = await provider.getFileDiff(
      ref(),
      { path: 'src/renamed.ts', previousPath: 'src/original.ts', changeType: 'renamed' },
      pr.revision,
    );
    expect(renamed.text).toContain('--- a/src/original.ts\n+++ b/src/renamed.ts\n');
    const items = requestsTo('/items').map(
      (r) => `${r.query.get('path')}@${r.query.get('versionDescriptor.version')?.slice(0, 1)}`,
    );
    expect(items).toEqual(expect.arrayContaining(['/docs/new.md@1', '/src/original.ts@3', '/src/renamed.ts@1']));
  });

  it('lists open pull requests of the whole project when no repository is named', async () => {
    const open = [];
    for await (const pr of connect(patConnection()).listOpenPullRequests({
      scopePath: fake.orgUrl,
      projectKey: ADO_PROJECT,
    })) {
      open.push(pr);
    }
    expect(open.map((p) => p.ref.pullRequestId)).toEqual([42, 43]);
    expect(open[0]).toMatchObject({ revision: { revisionId: '2' }, ref: { repositoryId: ADO_REPOSITORY_ID } });
    expect(requestsTo('/_apis/git/pullrequests')[0]?.query.get('searchCriteria.status')).toBe('active');
  });

  it('leaves disabled repositories out of discovery', async () => {
    const names = [];
    for await (const repo of connect(patConnection()).listRepositories({
      scopePath: fake.orgUrl,
      projectKey: ADO_PROJECT,
    })) {
      names.push(repo);
    }
    expect(names).toEqual([
      {
        repositoryId: ADO_REPOSITORY_ID,
        name: 'uploader',
        projectKey: ADO_PROJECT,
        defaultBranch: 'main',
        webUrl: 'https://dev.azure.com/acme/Web%20Platform/_git/uploader',
      },
    ]);
  });

  it('follows x-ms-continuationtoken through projects and branches', async () => {
    const provider = connect(patConnection());
    const projects = [];
    for await (const p of provider.listProjects(fake.orgUrl)) projects.push(p.projectKey);
    expect(projects).toEqual(['Web Platform', 'Data', 'Infrastructure']);
    expect(requestsTo('/_apis/projects').map((r) => r.query.get('continuationToken'))).toEqual([null, '2']);
    const branches = [];
    for await (const b of provider.listBranches(ref())) branches.push(b);
    expect(branches).toEqual(['main', 'feature/retries', 'deps']);
    expect(requestsTo('/refs').every((r) => r.query.get('filter') === 'heads/')).toBe(true);
  });
});

describe('Azure DevOps threads', () => {
  it('creates an inline thread with the thread context and iteration context Azure DevOps expects', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    await provider.createThread(ref(), {
      body: '**[warning]** Possible null deref',
      anchor: { filePath: 'src/file-002.ts', startLine: 42, endLine: 44 },
      revision: pr.revision,
    });
    const post = requestsTo('/threads', 'POST').at(-1);
    expect(post?.json).toEqual({
      comments: [{ parentCommentId: 0, content: '**[warning]** Possible null deref', commentType: 'text' }],
      status: 'active',
      threadContext: {
        filePath: '/src/file-002.ts',
        rightFileStart: { line: 42, offset: 1 },
        rightFileEnd: { line: 44, offset: 1 },
      },
      pullRequestThreadContext: {
        changeTrackingId: 3,
        iterationContext: { firstComparingIteration: 1, secondComparingIteration: 2 },
      },
    });
  });

  it('reuses the change-tracking ids seen while listing files', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    for await (const _ of provider.listChangedFiles(ref(), pr.revision)) {
      // drain
    }
    const before = requestsTo('/changes').length;
    await provider.createThread(ref(), {
      body: 'x',
      anchor: { filePath: 'src/renamed.ts', startLine: 1, endLine: 1 },
      revision: pr.revision,
      status: 'resolved',
    });
    expect(requestsTo('/changes')).toHaveLength(before);
    expect(requestsTo('/threads', 'POST').at(-1)?.json).toMatchObject({
      status: 'fixed',
      pullRequestThreadContext: { changeTrackingId: 230 },
    });
  });

  it('posts pull-request-level comments without a thread context, closed when created resolved', async () => {
    const provider = connect(patConnection());
    const pr = await provider.getPullRequest(ref());
    await provider.createThread(ref(), { body: '## Summary', revision: pr.revision, status: 'resolved' });
    expect(requestsTo('/threads', 'POST').at(-1)?.json).toEqual({
      comments: [{ parentCommentId: 0, content: '## Summary', commentType: 'text' }],
      status: 'closed',
    });
  });

  it('maps thread status both ways and hides system threads', async () => {
    const provider = connect(patConnection());
    await provider.setThreadStatus(ref(), '101', 'resolved');
    expect(requestsTo('/threads/101', 'PATCH').at(-1)?.json).toEqual({ status: 'fixed' });
    let threads = [];
    for await (const t of provider.listThreads(ref())) threads.push(t);
    expect(threads.map((t) => [t.threadId, t.status])).toEqual([['101', 'resolved']]);
    await provider.setThreadStatus(ref(), '101', 'open');
    expect(requestsTo('/threads/101', 'PATCH').at(-1)?.json).toEqual({ status: 'active' });
    threads = [];
    for await (const t of provider.listThreads(ref())) threads.push(t);
    expect(threads[0]).toMatchObject({
      status: 'open',
      anchor: { filePath: 'src/file-001.ts', startLine: 3, endLine: 3 },
      comments: [
        { commentId: '1', author: { login: 'grace', displayName: 'Grace Hopper' } },
        { commentId: '2', author: { login: 'ada', externalUserId: 'd6245f20-2af8-44f4-9451-8107cb2767db' } },
      ],
    });
  });

  it('replies under the first comment of the thread', async () => {
    const { commentId } = await connect(patConnection()).reply(ref(), '101', 'Done in 1a2b3c.');
    expect(commentId).toBe('3');
    expect(requestsTo('/threads/101/comments', 'POST').at(-1)?.json).toEqual({
      content: 'Done in 1a2b3c.',
      parentCommentId: 1,
      commentType: 'text',
    });
  });
});

describe('Azure DevOps branch heads and tree listing', () => {
  it('picks the exact ref out of the prefix match `filter` gives, across continuation pages', async () => {
    const refsPath = `/${new URL(fake.orgUrl).pathname.split('/').filter(Boolean)[0]}/${encodeURIComponent(ADO_PROJECT)}/_apis/git/repositories/${ADO_REPOSITORY_ID}/refs`;
    // `heads/main` also matches `main-old` and `main-next`, listed first and one a page.
    const refs = [
      { name: 'refs/heads/main-old', objectId: '7'.repeat(40) },
      { name: 'refs/heads/main-next', objectId: '8'.repeat(40) },
      { name: 'refs/heads/main', objectId: '9'.repeat(40) },
    ];
    fake.server.on('GET', refsPath, (req) => {
      const start = Number(req.query.get('continuationToken') ?? 0);
      const value = refs.filter((r) => r.name.startsWith(`refs/${req.query.get('filter')}`)).slice(start, start + 1);
      const headers: Record<string, string> = {};
      if (start + 1 < refs.length) headers['x-ms-continuationtoken'] = String(start + 1);
      return { headers, json: { value, count: value.length } };
    });
    const provider = connect(patConnection());
    expect(await provider.getBranchHead?.(ref(), 'main')).toBe('9'.repeat(40));
    expect(requestsTo('/refs').map((r) => [r.query.get('filter'), r.query.get('continuationToken')])).toEqual([
      ['heads/main', null],
      ['heads/main', '1'],
      ['heads/main', '2'],
    ]);
    expect(await provider.getBranchHead?.(ref(), 'mai')).toBeUndefined();
  });

  it('lists a scope recursively at a commit in one call, paths without their leading slash', async () => {
    const provider = connect(patConnection());
    const entries = [];
    for await (const e of provider.listTree?.(ref(), s.pullRequest.headSha, { pathPrefix: 'docs/api' }) ?? []) {
      entries.push(e);
    }
    expect(entries).toEqual([
      { path: 'docs/api/intro.md', blobId: s.tree.find((f) => f.path === 'docs/api/intro.md')?.blobId },
    ]);
    const [listing] = requestsTo('/items');
    expect(Object.fromEntries(listing?.query ?? [])).toMatchObject({
      scopePath: '/docs/api',
      recursionLevel: 'Full',
      'versionDescriptor.version': s.pullRequest.headSha,
      'versionDescriptor.versionType': 'commit',
    });
  });
});

describe('Azure DevOps wikis', () => {
  const collect = async <T>(items: AsyncIterable<T> | undefined) => {
    const out: T[] = [];
    for await (const item of items ?? []) out.push(item);
    return out;
  };

  it('lists the project wiki and code wikis by their backing repository, mapped folder and branches', async () => {
    const provider = connect(patConnection());
    const wikis = await collect(provider.listWikis?.({ scopePath: fake.orgUrl, projectKey: ADO_PROJECT }));
    expect(wikis).toEqual([
      {
        wikiId: '8d4e2f1a-3b5c-4d6e-9f7a-2b3c4d5e6f7a',
        name: 'Web-Platform.wiki',
        kind: 'projectWiki',
        repositoryId: ADO_WIKI_REPOSITORY_ID,
        mappedPath: '',
        branches: ['wikiMaster'],
      },
      {
        wikiId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        name: 'Handbook',
        kind: 'codeWiki',
        repositoryId: ADO_CODE_WIKI_REPOSITORY_ID,
        mappedPath: 'docs/handbook',
        branches: ['main', 'release/2.0'],
      },
    ]);
    const [listing] = requestsTo('/_apis/wiki/wikis');
    expect(listing?.path).toBe(`/acme/${ADO_PROJECT}/_apis/wiki/wikis`);
    expect(listing?.query.get('api-version')).toBeTruthy();
  });

  it('reads a project wiki through its git repository: wikiMaster head, page files with blob ids, contents', async () => {
    const files = { 'Home.md': '# Home\n', 'Team/Getting-Started.md': 'Clone the repo.\n', 'Team.md': '# Team\n' };
    fake.loadRepositoryCommit({
      repositoryId: ADO_WIKI_REPOSITORY_ID,
      commitSha: 'a'.repeat(40),
      branch: 'wikiMaster',
      files,
    });
    const provider = connect(patConnection());
    const wikiRef = { scopePath: fake.orgUrl, projectKey: ADO_PROJECT, repositoryId: ADO_WIKI_REPOSITORY_ID };
    expect(await provider.getBranchHead?.(wikiRef, 'wikiMaster')).toBe('a'.repeat(40));
    expect(await provider.getBranchHead?.(wikiRef, 'main')).toBeUndefined();
    const entries = await collect(provider.listTree?.(wikiRef, 'a'.repeat(40)));
    expect(entries.map((e) => e.path).sort()).toEqual(['Home.md', 'Team.md', 'Team/Getting-Started.md']);
    expect(entries.every((e) => /^[0-9a-f]{40}$/.test(e.blobId ?? ''))).toBe(true);
    expect((await provider.getFileContent(wikiRef, 'Team/Getting-Started.md', 'a'.repeat(40)))?.text).toBe(
      'Clone the repo.\n',
    );
  });
});
