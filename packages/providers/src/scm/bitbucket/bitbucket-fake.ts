import { createHash } from 'node:crypto';
import { type PullRequestScenario, type RecordedWrite, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { type CommitStatusBoard, createCommitStatusBoard, isStatusWrite } from '../../testing/commit-statuses.js';
import { contractTreeAt, contractTreeUnder } from '../../testing/contract-tree.js';
import {
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  recordedWrite,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';
import { fixtureSet } from '../../testing/fixtures.js';
import {
  diffOf,
  type FileChange,
  type FileVersion,
  lineCount,
  ScenarioHistory,
} from '../../testing/scenario-history.js';
import branchJson from './__fixtures__/branch.json' with { type: 'json' };
import commentDeletedJson from './__fixtures__/comment-deleted.json' with { type: 'json' };
import commentInlineJson from './__fixtures__/comment-inline.json' with { type: 'json' };
import commentReplyJson from './__fixtures__/comment-reply.json' with { type: 'json' };
import commitJson from './__fixtures__/commit.json' with { type: 'json' };
import commitStatusJson from './__fixtures__/commit-status.json' with { type: 'json' };
import diffstatEntryJson from './__fixtures__/diffstat-entry.json' with { type: 'json' };
import errorsJson from './__fixtures__/errors.json' with { type: 'json' };
import membershipJson from './__fixtures__/membership.json' with { type: 'json' };
import mergeBaseJson from './__fixtures__/merge-base.json' with { type: 'json' };
import projectJson from './__fixtures__/project.json' with { type: 'json' };
import pullRequestJson from './__fixtures__/pull-request.json' with { type: 'json' };
import repositoryJson from './__fixtures__/repository.json' with { type: 'json' };
import userJson from './__fixtures__/user.json' with { type: 'json' };
import workspaceJson from './__fixtures__/workspace.json' with { type: 'json' };
import type { BbComment, BbDiffstat, BbPullRequest, BbRepository } from './bitbucket-wire.js';

/**
 * A stateful Bitbucket Cloud 2.0 fake serving the contract scenario in Bitbucket's own shapes, built
 * from the recorded-shape fixtures in `__fixtures__/`: `{pagelen, size, page, values, next}` pages with
 * absolute `next` URLs, 12-character hashes in pull requests, the 302 Bitbucket answers diff requests
 * with, its `{"type":"error"}` bodies, and a 429 without any Retry-After.
 *
 * `loadPullRequest(scenario)` serves a pull request computed from file versions: diffstats and `git
 * diff` text (topic or two-dot, as asked), files at commits and branch tips, the pull request's
 * commits across pushes and `merge-base` over the commits the scenarios describe. Inline comments
 * on it are checked against the diff: the path must be one of its files and `to`/`from` a line of
 * the new/old version.
 */

const bbFixture = fixtureSet({
  branch: branchJson,
  'comment-deleted': commentDeletedJson,
  'comment-inline': commentInlineJson,
  'comment-reply': commentReplyJson,
  commit: commitJson,
  'commit-status': commitStatusJson,
  'diffstat-entry': diffstatEntryJson,
  errors: errorsJson,
  membership: membershipJson,
  'merge-base': mergeBaseJson,
  project: projectJson,
  'pull-request': pullRequestJson,
  repository: repositoryJson,
  user: userJson,
  workspace: workspaceJson,
});

export const API_TOKEN_SECRET = 'ada@example.com:ATATT3xFfGF0contractGoodApiToken';
export const ACCESS_TOKEN = 'ATCTT3xFfGN0contractGoodAccessToken';
export const BAD_ACCESS_TOKEN = 'ATCTT3xFfGN0contractBadAccessToken';
export const REPO_UUID = '{5b7f0a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b}';
export const OTHER_REPO_UUID = '{c0ffee00-1c2d-4e5f-8a9b-0c1d2e3f4a5b}';
export const OLD_HEAD_SHA = '3333333333333333333333333333333333333333';

const s = SCM_CONTRACT_SCENARIO;

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

/** Bitbucket's diffstat `status` for each change type. */
const STATUS = { added: 'added', deleted: 'removed', modified: 'modified', renamed: 'renamed' } as const;

function diffstat(): BbDiffstat[] {
  const template = bbFixture<BbDiffstat>('diffstat-entry');
  return s.changedFiles.map((file) => {
    const previous = ('previousPath' in file ? file.previousPath : undefined) ?? file.path;
    return {
      ...template,
      status: STATUS[file.changeType],
      old: file.changeType === 'added' ? null : { ...template.old, path: previous },
      new: file.changeType === 'deleted' ? null : { ...template.new, path: file.path },
    };
  });
}

function pullRequests(): BbPullRequest[] {
  const main = bbFixture<BbPullRequest>('pull-request');
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

export interface BitbucketFake extends CommitStatusBoard {
  server: FakeHttpServer;
  apiBaseUrl: string;
  /** Comments of the contract scenario's pull request (#42). */
  comments: BbComment[];
  /** Every POST, PUT, PATCH and DELETE the fake received (build statuses left out), with its parsed body, in order. */
  writes: RecordedWrite[];
  /** Serves a pull request from file versions, or a push to one already loaded. */
  loadPullRequest(scenario: PullRequestScenario): Promise<void>;
  /** From now on every new inline comment on this file is refused with a 400. */
  refuseThreadsOn(path: string): void;
  throttleNext(): void;
  close(): Promise<void>;
}

interface PullRequestState {
  pr: BbPullRequest;
  comments: BbComment[];
  /** Set for a pull request served from a scenario. */
  scenario?: PullRequestScenario | undefined;
}

export async function startBitbucketFake(): Promise<BitbucketFake> {
  // Read at start, not import, so importing the testing entry never touches the file system.
  const errors = bbFixture<Record<string, unknown>>('errors');
  const server = await startFakeHttpServer();
  const apiBaseUrl = `${server.url}/2.0`;
  const history = new ScenarioHistory();
  const states = new Map<number, PullRequestState>(
    pullRequests().map((pr) => [
      pr.id,
      {
        pr,
        comments:
          pr.id === s.pullRequest.number
            ? [bbFixture('comment-inline'), bbFixture('comment-reply'), bbFixture('comment-deleted')]
            : [],
      },
    ]),
  );
  const files = diffstat();
  const writes: RecordedWrite[] = [];
  const refused = new Set<string>();
  const me = bbFixture<{ uuid: string }>('user');
  const repository = bbFixture<BbRepository>('repository');
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
    server.on(method, `/2.0${path}`, (req) => {
      const write = recordedWrite(req);
      if (write && !isStatusWrite(req)) writes.push(write);
      return validAuth.has(String(req.headers.authorization))
        ? handler(req)
        : { status: 401, json: errors.unauthorized };
    });
  const isRepo = (req: FakeRequest) =>
    req.params.ws === 'acme' && (req.params.repo === REPO_UUID || req.params.repo === 'uploader');
  const stateOf = (req: FakeRequest) => (isRepo(req) ? states.get(Number(req.params.id)) : undefined);
  const prNotFound: FakeReply = { status: 404, json: errors.pullRequestNotFound };
  const commentNotFound: FakeReply = { status: 404, json: { type: 'error', error: { message: 'Comment not found' } } };
  const bad = (message: string): FakeReply => ({ status: 400, json: { type: 'error', error: { message } } });
  const page = (req: FakeRequest, items: readonly unknown[], max = 100) => bbPage(server.url, req, items, max);
  const unknownRevision: FakeReply = { status: 404, json: { type: 'error', error: { message: 'Unknown revision' } } };

  api('GET', '/user', () => ({ json: me }));
  // Build statuses: Bitbucket's states, a key and a URL required; 403 for a token without the scope while refused.
  const statusBoard = createCommitStatusBoard(() => ({ status: 403, json: errors.statusForbidden }));
  const STATUS_STATES = new Set(['INPROGRESS', 'SUCCESSFUL', 'FAILED', 'STOPPED']);
  api('POST', '/repositories/:ws/:repo/commit/:sha/statuses/build', (req) => {
    if (!isRepo(req)) return { status: 404, json: { type: 'error', error: { message: 'Repository not found' } } };
    const body = (req.json ?? {}) as {
      key?: string;
      name?: string;
      state?: string;
      description?: string;
      url?: string;
    };
    if (!body.key) return bad('key: This field is required.');
    if (!body.url) return bad('url: This field is required.');
    if (!STATUS_STATES.has(body.state ?? '')) return bad(`state: "${body.state}" is not a valid choice.`);
    const sha = req.params.sha ?? '';
    return statusBoard.receive(
      {
        commit: sha,
        name: body.name ?? body.key,
        state: body.state ?? '',
        description: body.description,
        targetUrl: body.url,
        body: req.json,
      },
      () => ({
        status: 201,
        json: {
          ...bbFixture<object>('commit-status'),
          key: body.key,
          name: body.name ?? body.key,
          state: body.state,
          description: body.description ?? '',
          url: body.url,
        },
      }),
    );
  });
  api('GET', '/workspaces/:ws', (req) =>
    req.params.ws === 'acme'
      ? { json: bbFixture('workspace') }
      : { status: 404, json: { type: 'error', error: { message: 'No workspace with identifier' } } },
  );
  api('GET', '/workspaces/:ws/projects', (req) =>
    page(req, [bbFixture('project'), { ...bbFixture<object>('project'), key: 'BIL', name: 'Billing' }]),
  );
  api('GET', '/workspaces/:ws/members', (req) => {
    const membership = bbFixture<{ user: object }>('membership');
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
    const prs = [...states.values()].map((st) => st.pr);
    return page(
      req,
      prs.filter((p) => !state || p.state === state),
      50,
    );
  });
  api('GET', '/repositories/:ws/:repo/pullrequests/:id', (req) => {
    const state = stateOf(req);
    return state ? { json: state.pr } : prNotFound;
  });
  api('GET', '/repositories/:ws/:repo/pullrequests/:id/commits', (req) => {
    const state = stateOf(req);
    if (!state) return prNotFound;
    const template = bbFixture<object>('commit');
    const scenario = state.scenario;
    const hashes = scenario
      ? history.ancestors(scenario.headSha).filter((sha) => !history.ancestors(scenario.baseSha).includes(sha))
      : [s.pullRequest.headSha, OLD_HEAD_SHA];
    return page(
      req,
      hashes.map((hash) => ({ ...template, hash })),
    );
  });
  api('GET', '/repositories/:ws/:repo/commit/:hash', (req) => {
    const prefix = req.params.hash ?? '-';
    const hash = history.resolveCommit(prefix) ?? COMMITS.find((c) => c.startsWith(prefix));
    return hash && isRepo(req)
      ? { json: { ...bbFixture<object>('commit'), hash } }
      : { status: 404, json: { type: 'error', error: { message: `Commit not found` } } };
  });
  api('GET', '/repositories/:ws/:repo/merge-base/:spec', (req) => {
    const [a, b] = (req.params.spec ?? '').split('..');
    if (!a || !b || !history.hasCommit(a) || !history.hasCommit(b)) return unknownRevision;
    const base = history.mergeBase(a, b);
    if (base === undefined) return { status: 404, json: { type: 'error', error: { message: 'No merge base' } } };
    return { json: { ...bbFixture<object>('merge-base'), hash: base } };
  });
  api('GET', '/repositories/:ws/:repo/diffstat/:spec', async (req) => {
    const [head, base] = (req.params.spec ?? '').split('..');
    const changes = head && base ? scenarioChanges(history, head, base, req.query.get('topic')) : undefined;
    if (changes) return page(req, await Promise.all(changes.map(diffstatOf)));
    if (base !== s.pullRequest.baseSha) return unknownRevision;
    if (head === s.pullRequest.headSha) return page(req, files);
    if (head === OLD_HEAD_SHA) return page(req, files.slice(0, 228));
    return unknownRevision;
  });
  // Bitbucket answers diff requests with a redirect to its canonical `{ws}/{repo}:{head}%0D{base}` form.
  api('GET', '/repositories/:ws/:repo/diff/:spec', (req) => {
    const [head, base] = (req.params.spec ?? '').split('..');
    const query = new URLSearchParams(req.query);
    if (!query.has('topic')) query.set('topic', 'true');
    return {
      status: 302,
      headers: {
        location: `${server.url}/2.0/repositories/acme/uploader/diff/acme/uploader:${head}%0D${base}?${query}`,
      },
    };
  });
  api('GET', '/repositories/:ws/:repo/diff/:ws2/:spec', async (req) => {
    const paths = req.query.getAll('path');
    const [head, base] = (req.params.spec ?? '').replace(/^[^:]*:/, '').split('\r');
    const changes = head && base ? scenarioChanges(history, head, base, req.query.get('topic')) : undefined;
    if (changes) {
      const wanted = changes.filter(
        (c) => paths.length === 0 || paths.includes(c.newPath ?? '') || paths.includes(c.oldPath ?? ''),
      );
      const parts = await Promise.all(wanted.map(gitDiffOf));
      return { text: parts.join(''), headers: { 'content-type': 'text/plain' } };
    }
    const parts = paths.map((path) =>
      path === s.contentPath ? CONTENT_DIFF : gitDiff(path, '@@ -1 +1 @@\n-old\n+new\n'),
    );
    return { text: parts.join(''), headers: { 'content-type': 'text/plain' } };
  });
  api('GET', '/repositories/:ws/:repo/src/:commit/*', (req) => {
    const prefix = `/2.0/repositories/${req.params.ws}/${req.params.repo}/src/${req.params.commit}/`;
    const path = req.path.slice(prefix.length);
    // A directory (trailing slash, or the root) answers a paged JSON listing, as Bitbucket does.
    if (path === '' || path.endsWith('/')) {
      const listing = isRepo(req)
        ? sourceListing(req.params.commit ?? '', path, req.query.get('max_depth'))
        : undefined;
      return listing ? page(req, listing) : { status: 404, json: errors.fileNotFound };
    }
    const known = history.fileAt(history.refOf(req.params.commit ?? ''), path);
    if (known) return { text: known.bytes.toString('utf8') };
    const text = FILES[`${req.params.commit}:${path}`];
    return text === undefined ? { status: 404, json: errors.fileNotFound } : { text };
  });
  api('GET', '/repositories/:ws/:repo/pullrequests/:id/comments', (req) => {
    const state = stateOf(req);
    return state ? page(req, state.comments) : prNotFound;
  });
  api('POST', '/repositories/:ws/:repo/pullrequests/:id/comments', (req) => {
    const state = stateOf(req);
    if (!state) return prNotFound;
    const body = req.json as { content?: { raw?: string }; inline?: BbComment['inline']; parent?: { id?: number } };
    if (!body.content?.raw) return bad('content.raw: This field is required.');
    if (body.inline) {
      const refusal = refused.has(body.inline.path)
        ? 'inline: Comments on this file are refused.'
        : inlineRefusal(body.inline, state, history, files);
      if (refusal) return bad(refusal);
    }
    const parent = body.parent ? state.comments.find((c) => c.id === body.parent?.id) : undefined;
    if (body.parent && !parent) return bad('parent: Comment not found.');
    const created: BbComment = {
      ...bbFixture<BbComment>('comment-inline'),
      id: nextCommentId++,
      content: { raw: body.content.raw },
      user: me,
      inline: body.inline ? { outdated: false, ...body.inline } : (parent?.inline ?? undefined),
      parent: body.parent?.id ? { id: body.parent.id } : undefined,
      created_on: '2026-10-02T18:00:00.000000+00:00',
    };
    if (!created.inline) delete created.inline;
    if (!created.parent) delete created.parent;
    state.comments.push(created);
    return { status: 201, json: created };
  });
  api('PUT', '/repositories/:ws/:repo/pullrequests/:id/comments/:cid', (req) => {
    const comment = stateOf(req)?.comments.find((c) => c.id === Number(req.params.cid));
    if (!comment) return commentNotFound;
    const raw = (req.json as { content?: { raw?: unknown } } | undefined)?.content?.raw;
    if (typeof raw !== 'string' || !raw) return bad('content.raw: This field is required.');
    comment.content = { ...comment.content, raw };
    return { json: comment };
  });
  const resolve = (resolved: boolean) => (req: FakeRequest) => {
    const comment = stateOf(req)?.comments.find((c) => c.id === Number(req.params.cid));
    if (!comment) return commentNotFound;
    if (comment.parent) return bad('Only top-level comments can be resolved.');
    if (Boolean(comment.resolution) === resolved) return { status: 409, json: errors.alreadyResolved };
    comment.resolution = resolved ? { type: 'comment_resolution' } : null;
    return resolved
      ? { json: { type: 'comment_resolution', user: me, created_on: '2026-10-02T18:00:00+00:00' } }
      : { status: 204 };
  };
  api('POST', '/repositories/:ws/:repo/pullrequests/:id/comments/:cid/resolve', resolve(true));
  api('DELETE', '/repositories/:ws/:repo/pullrequests/:id/comments/:cid/resolve', resolve(false));
  api('GET', '/repositories/:ws/:repo/refs/branches/*', (req) => {
    const name = req.path.slice(`/2.0/repositories/${req.params.ws}/${req.params.repo}/refs/branches/`.length);
    const head = (s.branchHeads as Record<string, string>)[name];
    if (!isRepo(req) || !head) return { status: 404, json: { type: 'error', error: { message: `${name} not found` } } };
    const template = bbFixture<{ target: object }>('branch');
    return { json: { ...template, name, target: { ...template.target, hash: head } } };
  });
  api('GET', '/repositories/:ws/:repo/refs/branches', (req) => {
    const template = bbFixture<object>('branch');
    return page(
      req,
      s.branches.map((name) => ({ ...template, name })),
    );
  });

  return {
    server,
    apiBaseUrl,
    comments: states.get(s.pullRequest.number)?.comments ?? [],
    writes,
    statuses: statusBoard.statuses,
    refuseStatuses: statusBoard.refuseStatuses,
    async loadPullRequest(scenario) {
      history.load(scenario);
      const known = states.get(scenario.number);
      states.set(scenario.number, {
        pr: scenarioPullRequest(scenario),
        comments: known?.comments ?? [],
        scenario,
      });
    },
    refuseThreadsOn(path) {
      refused.add(path);
    },
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

/**
 * The changes between two scenario commits as Bitbucket's `head..base` spec means them: from their
 * merge base with `topic` (the default), from `base` itself with `topic=false`. Undefined when the
 * scenarios do not know both commits.
 */
function scenarioChanges(
  history: ScenarioHistory,
  head: string,
  base: string,
  topic: string | null,
): FileChange[] | undefined {
  if (!history.hasCommit(head) || !history.hasCommit(base)) return undefined;
  const from = topic === 'false' ? base : history.mergeBase(head, base);
  return from === undefined ? [] : history.changesBetween(from, head);
}

/**
 * Bitbucket's check of an inline comment on a scenario pull request: a file of its diff, and `to`
 * a line of the new version or `from` a line of the old one.
 */
function inlineRefusal(
  inline: NonNullable<BbComment['inline']>,
  state: PullRequestState,
  history: ScenarioHistory,
  legacy: BbDiffstat[],
): string | undefined {
  const scenario = state.scenario;
  if (!scenario) {
    const known = legacy.some((f) => f.new?.path === inline.path);
    return known && typeof inline.to === 'number' ? undefined : 'inline: The path or line is not part of the diff.';
  }
  const mergeBase = scenario.mergeBaseSha ?? scenario.baseSha;
  const change = history
    .changesBetween(mergeBase, scenario.headSha)
    .find((c) => c.newPath === inline.path || (c.newPath === undefined && c.oldPath === inline.path));
  if (!change) return 'inline: The path is not part of the diff.';
  const to = inline.to ?? undefined;
  const from = inline.from ?? undefined;
  if (to === undefined && from === undefined) return 'inline: Either from or to is required.';
  const fits = (line: number | undefined, version: FileVersion | undefined) =>
    line === undefined ||
    (version !== undefined && Number.isInteger(line) && line >= 1 && line <= lineCount(version.text));
  if (!fits(to, change.new) || !fits(from, change.old)) {
    return 'inline: The line is not part of the file.';
  }
  return undefined;
}

function scenarioPullRequest(scenario: PullRequestScenario): BbPullRequest {
  const main = bbFixture<BbPullRequest>('pull-request');
  const n = scenario.number;
  return {
    ...structuredClone(main),
    id: n,
    title: scenario.title,
    description: scenario.description,
    state: { open: 'OPEN', closed: 'DECLINED', merged: 'MERGED' }[scenario.status ?? 'open'],
    draft: scenario.isDraft ?? false,
    source: {
      ...structuredClone(main.source),
      branch: { name: scenario.sourceBranch },
      commit: { hash: scenario.headSha.slice(0, 12) },
    },
    destination: {
      ...structuredClone(main.destination),
      branch: { name: scenario.targetBranch },
      commit: { hash: scenario.baseSha.slice(0, 12) },
    },
    links: { html: { href: `https://bitbucket.org/acme/uploader/pull-requests/${n}` } },
  };
}

async function diffstatOf(change: FileChange): Promise<BbDiffstat> {
  const template = bbFixture<BbDiffstat>('diffstat-entry');
  const { additions, deletions } = await diffOf(change);
  return {
    ...template,
    status: STATUS[change.changeType],
    lines_added: additions,
    lines_removed: deletions,
    old: change.oldPath === undefined ? null : { ...template.old, path: change.oldPath },
    new: change.newPath === undefined ? null : { ...template.new, path: change.newPath },
  };
}

/** `git diff` output for one change, extended headers included, as Bitbucket's `/diff` sends it. */
async function gitDiffOf(change: FileChange): Promise<string> {
  const a = change.oldPath ?? change.newPath ?? '';
  const b = change.newPath ?? change.oldPath ?? '';
  const header = [`diff --git a/${a} b/${b}`];
  if (change.changeType === 'added') header.push('new file mode 100644');
  if (change.changeType === 'deleted') header.push('deleted file mode 100644');
  const pureRename = change.changeType === 'renamed' && change.old?.text === change.new?.text;
  if (change.changeType === 'renamed') {
    header.push(`similarity index ${pureRename ? 100 : 80}%`, `rename from ${a}`, `rename to ${b}`);
  }
  // git prints no index, `---` or `+++` line for a rename without edits.
  if (pureRename) return `${header.join('\n')}\n`;
  const blob = (version: FileVersion | undefined) =>
    version ? createHash('sha1').update(version.text).digest('hex').slice(0, 7) : '0000000';
  const mode = change.changeType === 'modified' || change.changeType === 'renamed' ? ' 100644' : '';
  header.push(`index ${blob(change.old)}..${blob(change.new)}${mode}`);
  return `${header.join('\n')}\n${(await diffOf(change)).text}`;
}

/**
 * A `src/{commit}/{dir}/` listing: the directory's entries and, with `max_depth`, those of its
 * subdirectories that deep, directories before their contents. `undefined` when `dir` is not one.
 */
function sourceListing(commit: string, dir: string, maxDepth: string | null): unknown[] | undefined {
  const nodes = contractTreeAt(commit);
  const prefix = dir.replace(/\/+$/, '');
  const under = nodes && contractTreeUnder(nodes, prefix);
  if (!under) return undefined;
  const baseDepth = prefix === '' ? 0 : prefix.split('/').length;
  const depth = Math.max(1, Number(maxDepth ?? 1));
  return under
    .filter((n) => n.path.split('/').length - baseDepth <= depth)
    .map((n) => ({
      path: n.path,
      type: n.kind === 'directory' ? 'commit_directory' : 'commit_file',
      commit: { type: 'commit', hash: commit },
      ...(n.kind === 'directory'
        ? {}
        : { size: n.kind === 'file' ? n.sizeBytes : 0, attributes: n.kind === 'submodule' ? ['subrepository'] : [] }),
      escaped_path: n.path,
      links: {},
    }));
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
