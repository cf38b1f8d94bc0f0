/**
 * Test support (exported from `@margin/providers/testing`): a stateful GitHub fake on a loopback
 * socket, served under `/api/v3` and `/api/graphql` as GitHub Enterprise Server does. It serves
 * `SCM_CONTRACT_SCENARIO` in GitHub's wire shapes from the recorded-shape fixtures in `__fixtures__/`,
 * pages with `Link` headers (at most 100 a page), checks App JWTs with the App's public key, keeps the
 * review threads it is sent, and answers 401, 404, 422 and (on demand) the 403 secondary rate limit
 * with `retry-after`.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import {
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';
import type {
  GhIssueComment,
  GhPullRequest,
  GhPullRequestFile,
  GhRepository,
  GhReviewComment,
  GqlComment,
  GqlReviewThread,
} from './github-wire.js';

export function ghFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as T;
}

export const GH_OWNER = 'acme';
export const GH_REPOSITORY_ID = '987654321';
export const GH_REPOSITORY_NODE_ID = 'R_kgDOOt1Wsg';
export const GH_MERGE_BASE = '3333333333333333333333333333333333333333';
/** A changed file whose `patch` GitHub leaves out, as it does for large files. */
export const GH_FILE_WITHOUT_PATCH = 'src/file-226.ts';

export interface GitHubFakeOptions {
  pat: string;
  app?: { id: number; installationId: number; publicKeyPem: string } | undefined;
  /** Page cap for branches and repositories, small so `Link` paging is exercised. */
  smallPage?: number;
  /** The fake's clock for JWT checks and token expiry. Default `Date.now`. */
  now?: () => number;
}

export interface GitHubFake {
  server: FakeHttpServer;
  /** `http://127.0.0.1:<port>`: the connection's hostBaseUrl (a GitHub Enterprise Server). */
  hostUrl: string;
  threads: Array<GqlReviewThread & { comments: { nodes: GqlComment[] } }>;
  issuedTokens: string[];
  throttleNext(): void;
  close(): Promise<void>;
}

const BOT_AUTHOR = { __typename: 'User', login: 'margin-bot', databaseId: 7310001, name: 'Margin Review Bot' };

export async function startGitHubFake(options: GitHubFakeOptions): Promise<GitHubFake> {
  const s = SCM_CONTRACT_SCENARIO;
  const server = await startFakeHttpServer();
  const smallPage = options.smallPage ?? 2;
  const clock = options.now ?? Date.now;
  const issuedTokens: string[] = [];
  const appKey: KeyObject | undefined = options.app ? createPublicKey(options.app.publicKeyPem) : undefined;

  const repository = ghFixture<GhRepository>('repository.json');
  const basePr = ghFixture<GhPullRequest>('pull-request.json');
  const pullRequests = new Map<number, GhPullRequest>([
    [s.pullRequest.number, basePr],
    [
      s.otherOpenPullRequest.number,
      {
        ...basePr,
        number: s.otherOpenPullRequest.number,
        title: s.otherOpenPullRequest.title,
        head: { ...basePr.head, ref: s.otherOpenPullRequest.sourceBranch, sha: '6'.repeat(40) },
      },
    ],
    [
      s.closedPullRequest.number,
      {
        ...basePr,
        number: s.closedPullRequest.number,
        title: s.closedPullRequest.title,
        state: 'closed',
        merged: false,
        head: { ...basePr.head, ref: s.closedPullRequest.sourceBranch },
      },
    ],
  ]);

  const templates = ghFixture<Record<string, GhPullRequestFile>>('pull-request-files.json');
  const files: GhPullRequestFile[] = s.changedFiles.map((file) => {
    const status = { modified: 'modified', added: 'added', deleted: 'removed', renamed: 'renamed' }[file.changeType];
    const template = templates[status] ?? templates.modified;
    const out: GhPullRequestFile = { ...template, filename: file.path, status } as GhPullRequestFile;
    if ('previousPath' in file) out.previous_filename = file.previousPath;
    if (file.path !== s.contentPath && file.changeType === 'modified') {
      out.patch = `@@ -1 +1 @@\n-// ${file.path} at base\n+// ${file.path} at head`;
    }
    if (file.path === GH_FILE_WITHOUT_PATCH) delete out.patch;
    return out;
  });

  const contents = new Map<string, string>();
  for (const file of s.changedFiles) {
    if (file.changeType !== 'deleted')
      contents.set(`${s.pullRequest.headSha}:${file.path}`, `// ${file.path} at head\n`);
    const old = 'previousPath' in file ? file.previousPath : file.path;
    // The renamed file moved without a change, as its fixture (no patch, no changed lines) says.
    const oldText = file.changeType === 'renamed' ? `// ${file.path} at head\n` : `// ${old} at base\n`;
    for (const sha of [s.pullRequest.baseSha, GH_MERGE_BASE]) {
      if (file.changeType !== 'added') contents.set(`${sha}:${old}`, oldText);
    }
  }
  contents.set(`${s.pullRequest.headSha}:${s.contentPath}`, s.headContent);
  contents.set(`${s.pullRequest.baseSha}:${s.contentPath}`, s.baseContent);
  contents.set(`${GH_MERGE_BASE}:${s.contentPath}`, s.baseContent);

  type Thread = GitHubFake['threads'][number];
  const threads: Thread[] = ghFixture<{
    data: { node: { pullRequest: { reviewThreads: { nodes: Thread[] } } } };
  }>('graphql-review-threads.json').data.node.pullRequest.reviewThreads.nodes;
  const issueComments: GhIssueComment[] = [ghFixture<GhIssueComment>('issue-comment.json')];
  let nextId = 1_600_000_100;

  const notFound: FakeReply = { status: 404, json: ghFixture('error-not-found.json') };
  const unprocessable: FakeReply = { status: 422, json: ghFixture('error-validation-failed.json') };

  const jwtValid = (req: FakeRequest) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const [header, payload, signature] = token.split('.');
    if (!appKey || !options.app || !header || !payload || !signature) return false;
    if (!verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), appKey, Buffer.from(signature, 'base64url'))) {
      return false;
    }
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      iat: number;
      exp: number;
      iss: string;
    };
    const now = Math.floor(clock() / 1000);
    return (
      claims.iss === String(options.app.id) && claims.iat <= now && claims.exp > now && claims.exp - claims.iat <= 600
    );
  };

  const authorized = (req: FakeRequest) => {
    const header = req.headers.authorization ?? '';
    return (
      header === `Bearer ${options.pat}` || (header.startsWith('Bearer ') && issuedTokens.includes(header.slice(7)))
    );
  };

  const badCredentials: FakeReply = { status: 401, json: ghFixture('error-bad-credentials.json') };

  const route = (
    method: string,
    path: string,
    handler: (req: FakeRequest) => FakeReply,
    auth: 'token' | 'jwt' = 'token',
  ) => {
    server.on(method, path, (req) => {
      if (!req.headers['user-agent'])
        return {
          status: 403,
          json: {
            message:
              'Request forbidden by administrative rules. Please make sure your request has a User-Agent header.',
          },
        };
      if (auth === 'jwt' ? !jwtValid(req) : !authorized(req)) return badCredentials;
      if ('id' in req.params && req.params.id !== GH_REPOSITORY_ID) return notFound;
      return handler(req);
    });
  };

  /** One page of a list with GitHub's `Link` header. */
  const paged = <T>(req: FakeRequest, all: readonly T[], cap = 100): FakeReply => {
    const perPage = Math.min(Number(req.query.get('per_page') ?? 30), cap);
    const page = Number(req.query.get('page') ?? 1);
    const items = all.slice((page - 1) * perPage, page * perPage);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const link = (p: number) => {
      const url = new URL(`${server.url}${req.path}`);
      for (const [k, v] of req.query) url.searchParams.set(k, v);
      url.searchParams.set('page', String(p));
      return url.toString();
    };
    const links: string[] = [];
    if (page < last) links.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
    if (page > 1) links.push(`<${link(1)}>; rel="first"`, `<${link(page - 1)}>; rel="prev"`);
    return { headers: links.length ? { link: links.join(', ') } : {}, json: items };
  };

  const pr = (req: FakeRequest) => pullRequests.get(Number(req.params.n));
  const V3 = '/api/v3';
  const R = `${V3}/repositories/:id`;

  route('GET', `${V3}/user`, () => ({ json: ghFixture('user.json') }));
  route('GET', `${V3}/users/:login`, (req) =>
    req.params.login === GH_OWNER ? { json: ghFixture('organization-user.json') } : notFound,
  );
  route('GET', R, () => ({ json: repository }));
  route('GET', `${R}/pulls/:n`, (req) => {
    const found = pr(req);
    return found ? { json: found } : notFound;
  });
  route('GET', `${R}/pulls/:n/commits`, (req) =>
    pr(req) ? paged(req, ghFixture<unknown[]>('pull-request-commits.json')) : notFound,
  );
  route('GET', `${R}/pulls/:n/files`, (req) => (pr(req) ? paged(req, files) : notFound));
  route('GET', `${R}/contents/*`, (req) => {
    const path = req.path.slice(req.path.indexOf('/contents/') + '/contents/'.length);
    const text = contents.get(`${req.query.get('ref')}:${path}`);
    if (text === undefined)
      return {
        status: 404,
        json: {
          ...ghFixture<object>('error-not-found.json'),
          documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content',
        },
      };
    if (req.headers.accept === 'application/vnd.github.raw+json')
      return { headers: { 'content-type': 'application/vnd.github.raw+json' }, text };
    return {
      json: {
        type: 'file',
        encoding: 'base64',
        size: text.length,
        name: path.split('/').at(-1),
        path,
        content: Buffer.from(text).toString('base64'),
      },
    };
  });
  route('GET', `${R}/compare/:spec`, (req) => {
    const [baseSha, headSha] = (req.params.spec ?? '').split('...');
    if (!baseSha || !headSha) return notFound;
    return {
      json: {
        status: 'ahead',
        ahead_by: 2,
        behind_by: 1,
        total_commits: 2,
        merge_base_commit: { sha: GH_MERGE_BASE },
        base_commit: { sha: baseSha },
        commits: [],
        files: [],
      },
    };
  });

  const reviewComment = (req: FakeRequest, thread: Thread, comment: GqlComment): GhReviewComment => ({
    ...ghFixture<GhReviewComment>('review-comment.json'),
    id: comment.databaseId,
    node_id: `PRRC_fake${comment.databaseId}`,
    body: comment.body,
    path: thread.path,
    line: thread.line,
    user: { id: 7310001, login: 'margin-bot', type: 'User' },
    created_at: comment.createdAt,
    html_url: `https://github.com/acme/uploader/pull/${req.params.n}#discussion_r${comment.databaseId}`,
  });

  route('POST', `${R}/pulls/:n/comments`, (req) => {
    const found = pr(req);
    if (!found) return notFound;
    const body = req.json as {
      body?: string;
      commit_id?: string;
      path?: string;
      line?: number;
      side?: string;
      start_line?: number;
      start_side?: string;
    };
    const inDiff = files.some((f) => f.filename === body.path);
    const rangeOk =
      body.start_line === undefined || (body.start_line < (body.line ?? 0) && body.start_side === 'RIGHT');
    if (!body.body || body.commit_id !== found.head.sha || body.side !== 'RIGHT' || !inDiff || !body.line || !rangeOk) {
      return unprocessable;
    }
    const comment: GqlComment = {
      databaseId: nextId++,
      body: body.body,
      createdAt: new Date().toISOString(),
      author: BOT_AUTHOR,
    };
    const thread: Thread = {
      id: `PRRT_fake${comment.databaseId}`,
      isResolved: false,
      path: body.path ?? '',
      line: body.line,
      startLine: body.start_line ?? null,
      originalLine: body.line,
      originalStartLine: body.start_line ?? null,
      diffSide: 'RIGHT',
      comments: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [comment] },
    };
    threads.push(thread);
    return { status: 201, json: reviewComment(req, thread, comment) };
  });

  route('POST', `${R}/pulls/:n/comments/:cid/replies`, (req) => {
    const thread = threads.find((t) => String(t.comments.nodes[0]?.databaseId) === req.params.cid);
    if (!thread) return notFound;
    const comment: GqlComment = {
      databaseId: nextId++,
      body: (req.json as { body: string }).body,
      createdAt: new Date().toISOString(),
      author: BOT_AUTHOR,
    };
    thread.comments.nodes.push(comment);
    return { status: 201, json: reviewComment(req, thread, comment) };
  });

  route('GET', `${R}/issues/:n/comments`, (req) => (pr(req) ? paged(req, issueComments) : notFound));
  route('POST', `${R}/issues/:n/comments`, (req) => {
    if (!pr(req)) return notFound;
    const comment: GhIssueComment = {
      ...ghFixture<GhIssueComment>('issue-comment.json'),
      id: nextId++,
      body: (req.json as { body: string }).body,
      user: { id: 7310001, login: 'margin-bot', type: 'User' },
      created_at: new Date().toISOString(),
    };
    comment.html_url = `https://github.com/acme/uploader/pull/${req.params.n}#issuecomment-${comment.id}`;
    issueComments.push(comment);
    return { status: 201, json: comment };
  });

  route('GET', `${R}/pulls`, (req) => {
    const state = req.query.get('state') ?? 'open';
    return paged(
      req,
      [...pullRequests.values()].filter((p) => state === 'all' || p.state === state),
    );
  });

  const repositories = [
    repository,
    { ...repository, id: 987654322, node_id: 'R_kgDOOt1Ws2', name: 'old-uploader', archived: true },
  ];
  route('GET', `${V3}/orgs/:org/repos`, (req) =>
    req.params.org === GH_OWNER ? paged(req, repositories, smallPage) : notFound,
  );
  route('GET', `${V3}/installation/repositories`, (req) => {
    const page = paged(req, repositories, smallPage);
    return {
      ...page,
      json: { total_count: repositories.length, repository_selection: 'selected', repositories: page.json },
    };
  });
  route('GET', `${R}/branches`, (req) =>
    paged(
      req,
      s.branches.map((name) => ({ ...ghFixture<object>('branch.json'), name })),
      smallPage,
    ),
  );
  route('GET', `${V3}/search/users`, (req) => {
    const q = (req.query.get('q') ?? '').split(' ')[0]?.toLowerCase() ?? '';
    const all = ghFixture<{ items: Array<{ login: string }> }>('search-users.json').items.filter((u) =>
      u.login.includes(q),
    );
    return { json: { total_count: all.length, incomplete_results: false, items: all } };
  });

  route('GET', `${V3}/app`, () => ({ json: ghFixture('app.json') }), 'jwt');
  route('GET', `${V3}/app/installations/:installation`, () => ({ json: ghFixture('installation.json') }), 'jwt');
  route(
    'POST',
    `${V3}/app/installations/:installation/access_tokens`,
    (req) => {
      if (Number(req.params.installation) !== options.app?.installationId) return notFound;
      const fixture = ghFixture<{ token: string }>('installation-token.json');
      const token = `${fixture.token}.${issuedTokens.length + 1}`;
      issuedTokens.push(token);
      return {
        status: 201,
        json: { ...fixture, token, expires_at: new Date(clock() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z') },
      };
    },
    'jwt',
  );

  route('POST', '/api/graphql', (req) => {
    const { query, variables } = req.json as { query: string; variables: Record<string, unknown> };
    const operation = /^(?:query|mutation)\s+(\w+)/.exec(query)?.[1];
    if (operation === 'MarginReviewThreads') {
      if (variables.repository !== GH_REPOSITORY_NODE_ID) return { json: { data: { node: null } } };
      if (!pullRequests.has(Number(variables.number))) {
        return {
          json: {
            data: { node: { pullRequest: null } },
            errors: [
              {
                type: 'NOT_FOUND',
                path: ['node', 'pullRequest'],
                message: `Could not resolve to a PullRequest with the number of ${variables.number}.`,
              },
            ],
          },
        };
      }
      const start = typeof variables.after === 'string' ? Number(variables.after) : 0;
      const nodes = threads.slice(start, start + 100).map((t) => ({
        ...t,
        comments: {
          pageInfo: { hasNextPage: t.comments.nodes.length > 100, endCursor: '100' },
          nodes: t.comments.nodes.slice(0, 100),
        },
      }));
      const more = start + 100 < threads.length;
      return {
        json: {
          data: {
            node: {
              pullRequest: {
                reviewThreads: { pageInfo: { hasNextPage: more, endCursor: more ? String(start + 100) : null }, nodes },
              },
            },
          },
        },
      };
    }
    if (operation === 'MarginThreadComments') {
      const thread = threads.find((t) => t.id === variables.thread);
      const start = Number(variables.after ?? 0);
      const nodes = thread?.comments.nodes.slice(start, start + 100) ?? [];
      const more = thread !== undefined && start + 100 < thread.comments.nodes.length;
      return {
        json: {
          data: {
            node: thread
              ? { comments: { pageInfo: { hasNextPage: more, endCursor: String(start + 100) }, nodes } }
              : null,
          },
        },
      };
    }
    if (operation === 'MarginResolveThread' || operation === 'MarginUnresolveThread') {
      const thread = threads.find((t) => t.id === variables.thread);
      if (!thread)
        return {
          json: {
            data: null,
            errors: [
              {
                type: 'NOT_FOUND',
                message: `Could not resolve to a node with the global id of '${String(variables.thread)}'`,
              },
            ],
          },
        };
      thread.isResolved = operation === 'MarginResolveThread';
      const field = operation === 'MarginResolveThread' ? 'resolveReviewThread' : 'unresolveReviewThread';
      return { json: { data: { [field]: { thread: { id: thread.id, isResolved: thread.isResolved } } } } };
    }
    return { status: 200, json: { errors: [{ message: `Unknown operation ${operation ?? '(anonymous)'}` }] } };
  });

  return {
    server,
    hostUrl: server.url,
    threads,
    issuedTokens,
    throttleNext() {
      server.interceptNext({
        status: 403,
        headers: {
          'retry-after': '1',
          'x-ratelimit-remaining': '4870',
          'x-github-request-id': '0C41:3B5E:1A2B3C:1D2E3F:6638F1A2',
        },
        json: ghFixture('error-secondary-rate-limit.json'),
      });
    },
    close: () => server.close(),
  };
}
