import { readFileSync } from 'node:fs';
import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import {
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';
import type { BbComment, BbDiffstat, BbPullRequest, BbRepository } from './bitbucket-wire.js';

/**
 * A stateful Bitbucket Cloud 2.0 fake serving the contract scenario in Bitbucket's own shapes, built
 * from the recorded-shape fixtures in `__fixtures__/`: `{pagelen, size, page, values, next}` pages with
 * absolute `next` URLs, 12-character hashes in pull requests, the 302 Bitbucket answers diff requests
 * with, its `{"type":"error"}` bodies, and a 429 without any Retry-After.
 */

export const API_TOKEN_SECRET = 'ada@example.com:ATATT3xFfGF0contractGoodApiToken';
export const ACCESS_TOKEN = 'ATCTT3xFfGN0contractGoodAccessToken';
export const BAD_ACCESS_TOKEN = 'ATCTT3xFfGN0contractBadAccessToken';
export const REPO_UUID = '{5b7f0a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b}';
export const OTHER_REPO_UUID = '{c0ffee00-1c2d-4e5f-8a9b-0c1d2e3f4a5b}';
export const OLD_HEAD_SHA = '3333333333333333333333333333333333333333';

const s = SCM_CONTRACT_SCENARIO;

export function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), 'utf8')) as T;
}

const COMMITS = [s.pullRequest.headSha, s.pullRequest.baseSha, OLD_HEAD_SHA, '4'.repeat(40), '5'.repeat(40)];

const FILES: Record<string, string> = {
  [`${s.pullRequest.baseSha}:${s.contentPath}`]: s.baseContent,
  [`${s.pullRequest.headSha}:${s.contentPath}`]: s.headContent,
};

function gitDiff(path: string, body: string): string {
  return `diff --git a/${path} b/${path}\nindex 2222222..1111111 100644\n--- a/${path}\n+++ b/${path}\n${body}`;
}

const CONTENT_DIFF = gitDiff(
  s.contentPath,
  '@@ -1,3 +1,3 @@\n export const retries = 0;\n-export const delayMs = 100;\n+export const delayMs = 250;\n export const name = "uploader";\n',
);

function diffstat(): BbDiffstat[] {
  const template = fixture<BbDiffstat>('diffstat-entry');
  const status = { added: 'added', deleted: 'removed', modified: 'modified', renamed: 'renamed' } as const;
  return s.changedFiles.map((file) => {
    const previous = ('previousPath' in file ? file.previousPath : undefined) ?? file.path;
    return {
      ...template,
      status: status[file.changeType],
      old: file.changeType === 'added' ? null : { ...template.old, path: previous },
      new: file.changeType === 'deleted' ? null : { ...template.new, path: file.path },
    };
  });
}

function pullRequests(): BbPullRequest[] {
  const main = fixture<BbPullRequest>('pull-request');
  const variant = (number: number, title: string, branch: string, state: string, hash: string): BbPullRequest => ({
    ...structuredClone(main),
    id: number,
    title,
    state,
    description: '',
    source: { ...structuredClone(main.source), branch: { name: branch }, commit: { hash: hash.slice(0, 12) } },
  });
  const other = s.otherOpenPullRequest;
  const closed = s.closedPullRequest;
  return [
    main,
    variant(other.number, other.title, other.sourceBranch, 'OPEN', '4'.repeat(40)),
    variant(closed.number, closed.title, closed.sourceBranch, 'DECLINED', '5'.repeat(40)),
  ];
}

export interface BitbucketFake {
  server: FakeHttpServer;
  apiBaseUrl: string;
  comments: BbComment[];
  postedComments: unknown[];
  throttleNext(): void;
  close(): Promise<void>;
}

export async function startBitbucketFake(): Promise<BitbucketFake> {
  // Read at start, not import, so importing the testing entry never touches the file system.
  const errors = fixture<Record<string, unknown>>('errors');
  const server = await startFakeHttpServer();
  const apiBaseUrl = `${server.url}/2.0`;
  const prs = pullRequests();
  const files = diffstat();
  const comments: BbComment[] = [fixture('comment-inline'), fixture('comment-reply'), fixture('comment-deleted')];
  const postedComments: unknown[] = [];
  const me = fixture<{ uuid: string }>('user');
  const repository = fixture<BbRepository>('repository');
  const repositories = [
    repository,
    {
      ...repository,
      uuid: OTHER_REPO_UUID,
      name: 'Billing',
      slug: 'billing',
      full_name: 'acme/billing',
      project: { key: 'BIL' },
    },
  ];
  let nextCommentId = 900;

  const validAuth = new Set([`Basic ${Buffer.from(API_TOKEN_SECRET).toString('base64')}`, `Bearer ${ACCESS_TOKEN}`]);
  const api = (method: string, path: string, handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>) =>
    server.on(method, `/2.0${path}`, (req) =>
      validAuth.has(String(req.headers.authorization)) ? handler(req) : { status: 401, json: errors.unauthorized },
    );
  const isRepo = (req: FakeRequest) =>
    req.params.ws === 'acme' && (req.params.repo === REPO_UUID || req.params.repo === 'uploader');
  const findPr = (req: FakeRequest) => (isRepo(req) ? prs.find((p) => p.id === Number(req.params.id)) : undefined);
  const prNotFound: FakeReply = { status: 404, json: errors.pullRequestNotFound };
  const page = (req: FakeRequest, items: readonly unknown[], max = 100) => bbPage(server.url, req, items, max);

  api('GET', '/user', () => ({ json: me }));
  api('GET', '/workspaces/:ws', (req) =>
    req.params.ws === 'acme'
      ? { json: fixture('workspace') }
      : { status: 404, json: { type: 'error', error: { message: 'No workspace with identifier' } } },
  );
  api('GET', '/workspaces/:ws/projects', (req) =>
    page(req, [fixture('project'), { ...fixture<object>('project'), key: 'BIL', name: 'Billing' }]),
  );
  api('GET', '/workspaces/:ws/members', (req) => {
    const membership = fixture<{ user: object }>('membership');
    const grace = {
      ...membership,
      user: {
        ...membership.user,
        display_name: 'Grace Hopper',
        nickname: 'grace',
        uuid: '{9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a}',
      },
    };
    return page(req, [membership, grace]);
  });
  api('GET', '/repositories/:ws', (req) => {
    const q = req.query.get('q');
    const key = q ? /project\.key="([^"]*)"/.exec(q)?.[1] : undefined;
    return page(
      req,
      key ? repositories.filter((r) => (r as { project?: { key?: string } }).project?.key === key) : repositories,
    );
  });
  api('GET', '/repositories/:ws/:repo/pullrequests', (req) => {
    if (req.params.repo === OTHER_REPO_UUID) return page(req, [], 50);
    if (!isRepo(req)) return { status: 404, json: { type: 'error', error: { message: 'Repository not found' } } };
    const state = req.query.get('state');
    return page(
      req,
      prs.filter((p) => !state || p.state === state),
      50,
    );
  });
  api('GET', '/repositories/:ws/:repo/pullrequests/:id', (req) => {
    const pr = findPr(req);
    return pr ? { json: pr } : prNotFound;
  });
  api('GET', '/repositories/:ws/:repo/pullrequests/:id/commits', (req) => {
    if (!findPr(req)) return prNotFound;
    const template = fixture<object>('commit');
    return page(
      req,
      [s.pullRequest.headSha, OLD_HEAD_SHA].map((hash) => ({ ...template, hash })),
    );
  });
  api('GET', '/repositories/:ws/:repo/commit/:hash', (req) => {
    const hash = COMMITS.find((c) => c.startsWith(req.params.hash ?? '-'));
    return hash && isRepo(req)
      ? { json: { ...fixture<object>('commit'), hash } }
      : { status: 404, json: { type: 'error', error: { message: `Commit not found` } } };
  });
  api('GET', '/repositories/:ws/:repo/diffstat/:spec', (req) => {
    const [head, base] = (req.params.spec ?? '').split('..');
    if (base !== s.pullRequest.baseSha)
      return { status: 404, json: { type: 'error', error: { message: 'Unknown revision' } } };
    if (head === s.pullRequest.headSha) return page(req, files);
    if (head === OLD_HEAD_SHA) return page(req, files.slice(0, 228));
    return { status: 404, json: { type: 'error', error: { message: 'Unknown revision' } } };
  });
  // Bitbucket answers diff requests with a redirect to its canonical `{ws}/{repo}:{head}%0D{base}` form.
  api('GET', '/repositories/:ws/:repo/diff/:spec', (req) => {
    const [head, base] = (req.params.spec ?? '').split('..');
    const query = new URLSearchParams(req.query);
    query.set('topic', 'true');
    return {
      status: 302,
      headers: {
        location: `${server.url}/2.0/repositories/acme/uploader/diff/acme/uploader:${head}%0D${base}?${query}`,
      },
    };
  });
  api('GET', '/repositories/:ws/:repo/diff/:ws2/:spec', (req) => {
    const paths = req.query.getAll('path');
    const parts = paths.map((path) =>
      path === s.contentPath ? CONTENT_DIFF : gitDiff(path, '@@ -1 +1 @@\n-old\n+new\n'),
    );
    return { text: parts.join(''), headers: { 'content-type': 'text/plain' } };
  });
  api('GET', '/repositories/:ws/:repo/src/:commit/*', (req) => {
    const prefix = `/2.0/repositories/${req.params.ws}/${req.params.repo}/src/${req.params.commit}/`;
    const text = FILES[`${req.params.commit}:${req.path.slice(prefix.length)}`];
    return text === undefined ? { status: 404, json: errors.fileNotFound } : { text };
  });
  api('GET', '/repositories/:ws/:repo/pullrequests/:id/comments', (req) =>
    findPr(req) ? page(req, comments) : prNotFound,
  );
  api('POST', '/repositories/:ws/:repo/pullrequests/:id/comments', (req) => {
    if (!findPr(req)) return prNotFound;
    postedComments.push(req.json);
    const body = req.json as { content?: { raw?: string }; inline?: BbComment['inline']; parent?: { id?: number } };
    const bad = (message: string): FakeReply => ({ status: 400, json: { type: 'error', error: { message } } });
    if (!body.content?.raw) return bad('content.raw: This field is required.');
    if (body.inline && (!files.some((f) => f.new?.path === body.inline?.path) || typeof body.inline.to !== 'number')) {
      return bad('inline: The path or line is not part of the diff.');
    }
    if (body.parent && !comments.some((c) => c.id === body.parent?.id)) return bad('parent: Comment not found.');
    const parent = body.parent ? comments.find((c) => c.id === body.parent?.id) : undefined;
    const created: BbComment = {
      ...fixture<BbComment>('comment-inline'),
      id: nextCommentId++,
      content: { raw: body.content.raw },
      user: me,
      inline: body.inline ?? parent?.inline ?? undefined,
      parent: body.parent?.id ? { id: body.parent.id } : undefined,
      created_on: '2026-10-02T18:00:00.000000+00:00',
    };
    if (!created.inline) delete created.inline;
    if (!created.parent) delete created.parent;
    comments.push(created);
    return { status: 201, json: created };
  });
  const resolve = (resolved: boolean) => (req: FakeRequest) => {
    const comment = comments.find((c) => c.id === Number(req.params.cid));
    if (!findPr(req) || !comment)
      return { status: 404, json: { type: 'error', error: { message: 'Comment not found' } } };
    if (comment.parent)
      return { status: 400, json: { type: 'error', error: { message: 'Only top-level comments can be resolved.' } } };
    if (Boolean(comment.resolution) === resolved) return { status: 409, json: errors.alreadyResolved };
    comment.resolution = resolved ? { type: 'comment_resolution' } : null;
    return resolved
      ? { json: { type: 'comment_resolution', user: me, created_on: '2026-10-02T18:00:00+00:00' } }
      : { status: 204 };
  };
  api('POST', '/repositories/:ws/:repo/pullrequests/:id/comments/:cid/resolve', resolve(true));
  api('DELETE', '/repositories/:ws/:repo/pullrequests/:id/comments/:cid/resolve', resolve(false));
  api('GET', '/repositories/:ws/:repo/refs/branches', (req) => {
    const template = fixture<object>('branch');
    return page(
      req,
      s.branches.map((name) => ({ ...template, name })),
    );
  });

  return {
    server,
    apiBaseUrl,
    comments,
    postedComments,
    throttleNext() {
      server.interceptNext({
        status: 429,
        text: String(errors.rateLimitedText),
        headers: { 'content-type': 'text/plain' },
      });
    },
    close: () => server.close(),
  };
}

/** Bitbucket's page: `pagelen` (capped per endpoint), 1-based `page`, `size`, and an absolute `next`. */
function bbPage(origin: string, req: FakeRequest, items: readonly unknown[], max: number): FakeReply {
  const pagelen = Math.min(max, Math.max(1, Number(req.query.get('pagelen') ?? 10)));
  const pageNumber = Math.max(1, Number(req.query.get('page') ?? 1));
  const json: Record<string, unknown> = {
    pagelen,
    size: items.length,
    page: pageNumber,
    values: items.slice((pageNumber - 1) * pagelen, pageNumber * pagelen),
  };
  if (pageNumber * pagelen < items.length) {
    const query = new URLSearchParams(req.query);
    query.set('page', String(pageNumber + 1));
    const path = req.path.split('/').map(encodeURIComponent).join('/');
    json.next = `${origin}${path}?${query}`;
  }
  return { json };
}
