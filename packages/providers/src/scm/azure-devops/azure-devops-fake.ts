/**
 * Test support (exported from `@margin/providers/testing`): a stateful Azure DevOps fake on a
 * loopback socket that serves `SCM_CONTRACT_SCENARIO` in Azure DevOps' wire shapes, built from the
 * recorded-shape fixtures in `__fixtures__/`. It pages like the service (`$top`/`$skip` with
 * `nextSkip`/`nextTop`, and `x-ms-continuationtoken`), insists on `api-version`, answers 401 to unknown
 * credentials, 404 with Azure DevOps' error bodies, and 429 with `Retry-After` on demand.
 */
import { readFileSync } from 'node:fs';
import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import {
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';
import type { AdoChangeEntry, AdoComment, AdoPullRequest, AdoThread } from './azure-devops-wire.js';

export function adoFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as T;
}

export const ADO_ORG = 'acme';
export const ADO_PROJECT = 'Web Platform';
export const ADO_REPOSITORY_ID = '5f1c8d2e-6a3b-4c7d-9e8f-0a1b2c3d4e5f';
export const ADO_MERGE_BASE = '3333333333333333333333333333333333333333';
const FIRST_ITERATION_HEAD = '5555555555555555555555555555555555555555';

export interface AzureDevOpsFake {
  server: FakeHttpServer;
  /** `http://127.0.0.1:<port>/acme`: hostBaseUrl and scope path. */
  orgUrl: string;
  threads: AdoThread[];
  /** Bearer tokens the fake accepts (what its Entra endpoint issued). */
  issuedTokens: string[];
  throttleNext(): void;
  close(): Promise<void>;
}

export interface AzureDevOpsFakeOptions {
  pat: string;
  /** Client secret the fake Entra endpoint accepts. */
  clientSecret?: string;
  /** Page cap for projects and refs, small so continuation tokens are exercised. */
  smallPage?: number;
}

export async function startAzureDevOpsFake(options: AzureDevOpsFakeOptions): Promise<AzureDevOpsFake> {
  const s = SCM_CONTRACT_SCENARIO;
  const server = await startFakeHttpServer();
  const orgUrl = `${server.url}/${ADO_ORG}`;
  const smallPage = options.smallPage ?? 2;
  const issuedTokens: string[] = [];

  const basePr = adoFixture<AdoPullRequest>('pull-request.json');
  const pullRequests = new Map<number, AdoPullRequest>([
    [s.pullRequest.number, basePr],
    [
      s.otherOpenPullRequest.number,
      {
        ...basePr,
        pullRequestId: s.otherOpenPullRequest.number,
        title: s.otherOpenPullRequest.title,
        sourceRefName: `refs/heads/${s.otherOpenPullRequest.sourceBranch}`,
        lastMergeSourceCommit: { commitId: '6'.repeat(40) },
      },
    ],
    [
      s.closedPullRequest.number,
      {
        ...basePr,
        pullRequestId: s.closedPullRequest.number,
        title: s.closedPullRequest.title,
        status: 'completed',
        sourceRefName: `refs/heads/${s.closedPullRequest.sourceBranch}`,
      },
    ],
  ]);

  const templates = adoFixture<Record<string, AdoChangeEntry>>('change-entries.json');
  const changes: AdoChangeEntry[] = s.changedFiles.map((file, i) => {
    const kind = { modified: 'edit', added: 'add', deleted: 'delete', renamed: 'rename' }[file.changeType];
    const template = templates[kind] ?? templates.edit;
    return {
      ...template,
      changeTrackingId: i + 1,
      changeId: i + 1,
      item: { ...template?.item, path: `/${file.path}` },
      ...('previousPath' in file ? { originalPath: `/${file.previousPath}` } : {}),
    } as AdoChangeEntry;
  });
  // Azure DevOps lists folder entries among the changes too; they are not files to review.
  const folder = templates.folder;
  if (folder) changes.splice(100, 0, folder);

  const contents = new Map<string, string>();
  for (const sha of [s.pullRequest.headSha, FIRST_ITERATION_HEAD]) {
    for (const file of s.changedFiles) {
      if (file.changeType !== 'deleted') contents.set(`${sha}:/${file.path}`, `// ${file.path} at head\n`);
    }
    contents.set(`${sha}:/${s.contentPath}`, s.headContent);
  }
  for (const sha of [s.pullRequest.baseSha, ADO_MERGE_BASE]) {
    for (const file of s.changedFiles) {
      const path = 'previousPath' in file ? file.previousPath : file.path;
      if (file.changeType !== 'added') contents.set(`${sha}:/${path}`, `// ${path} at base\n`);
    }
    contents.set(`${sha}:/${s.contentPath}`, s.baseContent);
  }

  const threads = adoFixture<{ value: AdoThread[] }>('threads.json').value;
  let nextThreadId = 1000;

  const authorized = (req: FakeRequest) => {
    const header = req.headers.authorization ?? '';
    if (header === `Basic ${Buffer.from(`:${options.pat}`).toString('base64')}`) return true;
    return header.startsWith('Bearer ') && issuedTokens.includes(header.slice(7));
  };

  const notFound = (fixture: string): FakeReply => ({ status: 404, json: adoFixture(fixture) });

  /** Every `_apis` route: credentials first, then `api-version`, as the service checks them. */
  const route = (method: string, path: string, handler: (req: FakeRequest) => FakeReply, versioned = true) => {
    server.on(method, path, (req) => {
      if (!authorized(req)) {
        return {
          status: 401,
          headers: { 'www-authenticate': 'Basic realm="https://dev.azure.com/"', 'x-tfs-processid': 'fake' },
          text: 'Access Denied: The Personal Access Token used has expired.',
        };
      }
      if (versioned && !req.query.get('api-version')) {
        return {
          status: 400,
          json: {
            $id: '1',
            innerException: null,
            message:
              'No api-version was supplied for the "GET" request. The version must be supplied either as part of the Accept header or as a query string parameter.',
            typeName:
              'Microsoft.VisualStudio.Services.WebApi.VssVersionNotSpecifiedException, Microsoft.VisualStudio.Services.WebApi',
            typeKey: 'VssVersionNotSpecifiedException',
            errorCode: 0,
            eventId: 3000,
          },
        };
      }
      if ('project' in req.params && req.params.project !== ADO_PROJECT) {
        return {
          status: 404,
          json: {
            message: `TF200016: The following project does not exist: ${req.params.project}.`,
            typeKey: 'ProjectDoesNotExistWithNameException',
          },
        };
      }
      if ('repo' in req.params && req.params.repo !== ADO_REPOSITORY_ID)
        return notFound('error-repository-not-found.json');
      return handler(req);
    });
  };

  const pr = (req: FakeRequest) => {
    const found = pullRequests.get(Number(req.params.id));
    return found?.repository.id === ADO_REPOSITORY_ID ? found : undefined;
  };
  const top = (req: FakeRequest, cap: number) => Math.min(Number(req.query.get('$top') ?? cap), cap);

  const P = `/${ADO_ORG}/:project/_apis/git`;
  const R = `${P}/repositories/:repo`;

  route('GET', `/${ADO_ORG}/_apis/connectionData`, () => ({ json: adoFixture('connection-data.json') }), false);

  route('GET', `/${ADO_ORG}/_apis/projects`, (req) => {
    const all = adoFixture<{ value: unknown[] }>('projects.json').value;
    const start = Number(req.query.get('continuationToken') ?? 0);
    const size = top(req, smallPage);
    const value = all.slice(start, start + size);
    const headers: Record<string, string> = {};
    if (start + size < all.length) headers['x-ms-continuationtoken'] = String(start + size);
    return { headers, json: { count: value.length, value } };
  });

  route('GET', `${P}/repositories`, () => ({ json: adoFixture('repositories.json') }));

  route('GET', `${R}/pullRequests/:id`, (req) => {
    const found = pr(req);
    return found ? { json: found } : notFound('error-pull-request-not-found.json');
  });

  route('GET', `${R}/pullRequests/:id/iterations`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found.json');
    const fixture = adoFixture<{ value: Array<{ sourceRefCommit: { commitId: string } }> }>('iterations.json');
    const last = fixture.value.at(-1);
    if (last && found.lastMergeSourceCommit) last.sourceRefCommit.commitId = found.lastMergeSourceCommit.commitId;
    return { json: fixture };
  });

  route('GET', `${R}/pullRequests/:id/iterations/:iteration/changes`, (req) => {
    if (!pr(req)) return notFound('error-pull-request-not-found.json');
    const skip = Number(req.query.get('$skip') ?? 0);
    const size = top(req, 100);
    const changeEntries = changes.slice(skip, skip + size);
    const more = skip + size < changes.length;
    return { json: { changeEntries, nextSkip: more ? skip + size : 0, nextTop: more ? size : 0 } };
  });

  route('GET', `${R}/items`, (req) => {
    const path = req.query.get('path') ?? '';
    const version = req.query.get('versionDescriptor.version') ?? '';
    if (req.query.get('versionDescriptor.versionType') !== 'commit')
      return { status: 400, json: { message: 'versionType' } };
    const text = contents.get(`${version}:${path}`);
    if (text === undefined) return notFound('error-item-not-found.json');
    return { headers: { 'content-type': 'application/octet-stream' }, text };
  });

  route('GET', `${R}/pullRequests/:id/threads`, (req) => {
    if (!pr(req)) return notFound('error-pull-request-not-found.json');
    return { json: { value: threads, count: threads.length } };
  });

  route('POST', `${R}/pullRequests/:id/threads`, (req) => {
    if (!pr(req)) return notFound('error-pull-request-not-found.json');
    const body = req.json as Partial<AdoThread> & { comments: Array<Partial<AdoComment>> };
    const author = {
      id: '8c4a5b7e-1f2d-4e3c-9a8b-7c6d5e4f3a2b',
      displayName: 'Margin Review Bot',
      uniqueName: 'margin-bot@acme.example',
    };
    const now = new Date().toISOString();
    const thread: AdoThread = {
      id: nextThreadId++,
      status: body.status ?? 'active',
      threadContext: body.threadContext ?? null,
      pullRequestThreadContext: body.pullRequestThreadContext ?? null,
      isDeleted: false,
      comments: body.comments.map((c, i) => ({
        id: i + 1,
        parentCommentId: c.parentCommentId ?? 0,
        author,
        content: c.content ?? '',
        commentType: c.commentType ?? 'text',
        publishedDate: now,
      })),
    };
    threads.push(thread);
    return { json: thread };
  });

  route('POST', `${R}/pullRequests/:id/threads/:thread/comments`, (req) => {
    const thread = threads.find((t) => String(t.id) === req.params.thread);
    if (!thread)
      return {
        status: 404,
        json: {
          message: 'TF401181: The requested thread was not found.',
          typeKey: 'GitPullRequestThreadNotFoundException',
        },
      };
    const body = req.json as Partial<AdoComment>;
    const comment: AdoComment = {
      id: thread.comments.length + 1,
      parentCommentId: body.parentCommentId ?? 0,
      author: {
        id: '8c4a5b7e-1f2d-4e3c-9a8b-7c6d5e4f3a2b',
        displayName: 'Margin Review Bot',
        uniqueName: 'margin-bot@acme.example',
      },
      content: body.content ?? '',
      commentType: body.commentType ?? 'text',
      publishedDate: new Date().toISOString(),
    };
    thread.comments.push(comment);
    return { json: comment };
  });

  route('PATCH', `${R}/pullRequests/:id/threads/:thread`, (req) => {
    const thread = threads.find((t) => String(t.id) === req.params.thread);
    if (!thread) return { status: 404, json: { message: 'TF401181: The requested thread was not found.' } };
    const body = req.json as { status?: string };
    if (body.status) thread.status = body.status;
    return { json: thread };
  });

  const listPullRequests = (req: FakeRequest, repositoryId?: string) => {
    const status = req.query.get('searchCriteria.status') ?? 'active';
    const all = [...pullRequests.values()].filter(
      (p) => p.status === status && (!repositoryId || p.repository.id === repositoryId),
    );
    const skip = Number(req.query.get('$skip') ?? 0);
    const value = all.slice(skip, skip + top(req, 100));
    return { json: { value, count: value.length } };
  };
  route('GET', `${R}/pullrequests`, (req) => listPullRequests(req, req.params.repo));
  route('GET', `${P}/pullrequests`, (req) => listPullRequests(req));

  route('GET', `${R}/refs`, (req) => {
    const filter = req.query.get('filter') ?? '';
    const all = s.branches.map((b) => `refs/heads/${b}`).filter((name) => name.startsWith(`refs/${filter}`));
    const start = Number(req.query.get('continuationToken') ?? 0);
    const size = top(req, smallPage);
    const value = all.slice(start, start + size).map((name) => ({ name, objectId: '2'.repeat(40) }));
    const headers: Record<string, string> = {};
    if (start + size < all.length) headers['x-ms-continuationtoken'] = String(start + size);
    return { headers, json: { value, count: value.length } };
  });

  route('GET', `/${ADO_ORG}/_apis/identities`, (req) => {
    const needle = (req.query.get('filterValue') ?? '').toLowerCase();
    const all = adoFixture<{
      value: Array<{ providerDisplayName: string; properties: { Account: { $value: string } } }>;
    }>('identities.json').value;
    const value = all.filter(
      (i) =>
        i.providerDisplayName.toLowerCase().includes(needle) ||
        i.properties.Account.$value.toLowerCase().includes(needle),
    );
    return { json: { count: value.length, value } };
  });

  server.on('POST', '/:tenant/oauth2/v2.0/token', (req) => {
    const form = new URLSearchParams(req.text);
    if (form.get('client_secret') !== options.clientSecret || form.get('grant_type') !== 'client_credentials') {
      return { status: 401, json: adoFixture('entra-invalid-client.json') };
    }
    const token = `${adoFixture<{ access_token: string }>('entra-token.json').access_token}.${issuedTokens.length + 1}`;
    issuedTokens.push(token);
    return { json: { ...adoFixture<object>('entra-token.json'), access_token: token } };
  });

  return {
    server,
    orgUrl,
    threads,
    issuedTokens,
    throttleNext() {
      server.interceptNext({
        status: 429,
        headers: {
          'retry-after': '1',
          'x-ratelimit-resource': 'ATCPU',
          'x-ratelimit-delay': '0.25',
          'x-ratelimit-limit': '200',
          'x-ratelimit-remaining': '0',
        },
        json: adoFixture('error-rate-limited.json'),
      });
    },
    close: () => server.close(),
  };
}
