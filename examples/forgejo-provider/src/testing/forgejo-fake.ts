/**
 * Test support: a stateful Forgejo (or Gitea) on a loopback socket, speaking REST API v1 under
 * `/api/v1` in the shapes recorded in `src/__fixtures__/`. It serves `SCM_CONTRACT_SCENARIO` and any
 * `PullRequestScenario` loaded into it, backed by a small commit graph, so every answer — the
 * changed files, git's `.diff` of a pull request, contents at a commit or branch, `compare` — is
 * computed from file versions as Forgejo would compute it.
 *
 * Wire behaviour it reproduces: `Authorization: token <PAT>` (401 otherwise); `page`/`limit` paging
 * with `limit` capped at 50 and `X-HasMore` (files, commits) or `X-Total-Count` (other lists); a
 * `Link` header it expects clients not to need; status `changed` for an edited file and `unchanged`
 * for a binary one; review comments returned in no particular order; a review refused as a whole
 * (500) while keeping the comments it had already taken as the user's pending review, which the next
 * submitted review would carry; `POST /pulls/comments/{id}/resolve` only on the Gitea flavour
 * (Forgejo answers 405); and, on demand, a 429 with `Retry-After`.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type PullRequestScenario, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { contractTreeAt } from '@margin/providers/testing';
import { structuredPatch } from 'diff';

export function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), 'utf8')) as T;
}

export const FJ_OWNER = 'acme';
export const FJ_REPOSITORY = 'uploader';
export const FJ_REPOSITORY_ID = '1001';
/** The merge base Forgejo names for the contract's pull request (its base branch moved on since). */
export const FJ_MERGE_BASE = '3333333333333333333333333333333333333333';
const FJ_FIRST_COMMIT = '4444444444444444444444444444444444444444';
/** Forgejo's default `MAX_RESPONSE_ITEMS`. */
const MAX_LIMIT = 50;
/** Files larger than this come from `contents` without `content`, as Forgejo does for large blobs. */
const MAX_INLINE_CONTENT = 64 * 1024;

type Json = Record<string, any>;
type Tree = Map<string, Buffer>;

interface Commit {
  sha: string;
  parents: string[];
  tree: Tree;
  date: string;
  message: string;
}

interface PullRecord {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  draft: boolean;
  author: Json;
  headRef: string;
  baseRef: string;
  headSha: string;
  baseSha: string;
  mergeBase: string;
  /** New path → old path. */
  renames: Map<string, string>;
}

interface FakeReview {
  id: number;
  pull: number;
  user: Json;
  state: 'PENDING' | 'COMMENT' | 'REQUEST_REVIEW';
  body: string;
  commitId: string;
  submittedAt: string;
}

interface FakeCodeComment {
  id: number;
  reviewId: number;
  pull: number;
  user: Json;
  body: string;
  path: string;
  /** Negative: a line of the old file. */
  line: number;
  commitId: string;
  createdAt: string;
  resolver: Json | null;
}

interface FakeIssueComment {
  id: number;
  pull: number;
  user: Json;
  body: string;
  createdAt: string;
}

export interface FakeRequest {
  method: string;
  /** Below `/api/v1`, decoded. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  json: any;
}

interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  bytes?: Buffer;
}

export interface ForgejoFakeOptions {
  token: string;
  /** `gitea` (1.26, which can resolve conversations over the API) or `forgejo` (which cannot). Default `gitea`. */
  flavour?: 'gitea' | 'forgejo';
}

export interface ForgejoFake {
  /** `http://127.0.0.1:<port>`: a connection's hostBaseUrl. */
  hostUrl: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** Every POST, PATCH and DELETE (commit statuses left out), with the status it was answered with. */
  writes: Array<{ method: string; path: string; body: unknown; status: number }>;
  /** Commit statuses received, oldest first, in Forgejo's words. */
  statuses: Array<{
    commit: string;
    name: string;
    state: string;
    description: string | undefined;
    targetUrl: string | undefined;
  }>;
  /** While true, statuses are refused with 403, as for a token without the `write:repository` scope. */
  refuseStatuses(refused?: boolean): void;
  throttleNext(): void;
  loadPullRequest(scenario: PullRequestScenario): void;
  refuseThreadsOn(path: string): void;
  /** Pending (unsent) reviews on the fake, any user's. */
  pendingReviews(): number;
  close(): Promise<void>;
}

export async function startForgejoFake(options: ForgejoFakeOptions): Promise<ForgejoFake> {
  const s = SCM_CONTRACT_SCENARIO;
  const flavour = options.flavour ?? 'gitea';
  const people = fixture<Record<'ada' | 'grace', Json>>('people.json');
  const me = fixture<Json>('user.json');
  const orgUser = fixture<Json>('organization-user.json');
  const repository = fixture<Json>('repository.json');
  const prTemplate = fixture<Json>('pull-request.json');
  const fileTemplates = fixture<Record<string, Json>>('pull-request-files.json');
  const commitTemplate = fixture<Json[]>('pull-request-commits.json')[0] as Json;
  const notFound: Reply = { status: 404, json: fixture('error-not-found.json') };
  const repositories = [
    repository,
    { ...repository, id: 1002, name: 'old-uploader', full_name: 'acme/old-uploader', archived: true },
  ];

  const commits = new Map<string, Commit>();
  const branches = new Map<string, string>();
  const branchOverlays = new Map<string, Tree>();
  const pulls = new Map<number, PullRecord>();
  const reviews: FakeReview[] = [];
  const codeComments: FakeCodeComment[] = [];
  const issueComments: FakeIssueComment[] = [];
  const refusedPaths = new Set<string>();
  const requests: FakeRequest[] = [];
  const writes: ForgejoFake['writes'] = [];
  const statuses: ForgejoFake['statuses'] = [];
  let statusesRefused = false;
  let throttle = false;
  let nextId = 9_500;
  let clock = Date.UTC(2026, 4, 5, 12, 0, 0);
  const now = () => {
    clock += 1000;
    return new Date(clock).toISOString().replace(/\.\d+Z$/, 'Z');
  };

  const addCommit = (sha: string, parents: string[], tree: Tree, message: string) => {
    commits.set(sha, { sha, parents, tree, date: now(), message });
  };

  // The contract's pull request: every file at the merge base and at the head.
  const baseTree: Tree = new Map();
  const headTree: Tree = new Map();
  for (const file of s.changedFiles) {
    const old = ('previousPath' in file ? file.previousPath : undefined) ?? file.path;
    if (file.changeType === 'renamed') {
      baseTree.set(old, Buffer.from(`// ${file.path}\n`));
      headTree.set(file.path, Buffer.from(`// ${file.path}\n`));
      continue;
    }
    if (file.changeType !== 'added') baseTree.set(old, Buffer.from(`// ${old} at base\n`));
    if (file.changeType !== 'deleted') headTree.set(file.path, Buffer.from(`// ${file.path} at head\n`));
  }
  baseTree.set(s.contentPath, Buffer.from(s.baseContent));
  headTree.set(s.contentPath, Buffer.from(s.headContent));
  addCommit(FJ_MERGE_BASE, [], baseTree, 'Release 1.3');
  addCommit(s.pullRequest.baseSha, [FJ_MERGE_BASE], new Map(baseTree), 'Release 1.4');
  addCommit(FJ_FIRST_COMMIT, [FJ_MERGE_BASE], new Map(baseTree), 'Extract the upload loop');
  addCommit(s.pullRequest.headSha, [FJ_FIRST_COMMIT], headTree, 'Retry uploads with backoff');
  branches.set(s.pullRequest.targetBranch, s.pullRequest.baseSha);
  branches.set(s.pullRequest.sourceBranch, s.pullRequest.headSha);
  branches.set(s.otherOpenPullRequest.sourceBranch, '6'.repeat(40));
  const contract: PullRecord = {
    number: s.pullRequest.number,
    title: s.pullRequest.title,
    body: s.pullRequest.description,
    state: 'open',
    merged: false,
    draft: false,
    author: people.ada,
    headRef: s.pullRequest.sourceBranch,
    baseRef: s.pullRequest.targetBranch,
    headSha: s.pullRequest.headSha,
    baseSha: s.pullRequest.baseSha,
    mergeBase: FJ_MERGE_BASE,
    renames: new Map([['src/renamed.ts', 'src/original.ts']]),
  };
  pulls.set(contract.number, contract);
  pulls.set(s.otherOpenPullRequest.number, {
    ...contract,
    number: s.otherOpenPullRequest.number,
    title: s.otherOpenPullRequest.title,
    headRef: s.otherOpenPullRequest.sourceBranch,
    headSha: '6'.repeat(40),
  });
  pulls.set(s.closedPullRequest.number, {
    ...contract,
    number: s.closedPullRequest.number,
    title: s.closedPullRequest.title,
    state: 'closed',
    headRef: s.closedPullRequest.sourceBranch,
  });

  // The contract's existing conversation: grace's review comment and ada's answer on the same line.
  const recorded = fixture<Record<string, Json[]>>('review-comments.json');
  for (const review of fixture<Json[]>('reviews.json')) {
    reviews.push({
      id: review.id,
      pull: contract.number,
      user: review.user,
      state: review.state,
      body: review.body,
      commitId: review.commit_id,
      submittedAt: review.submitted_at,
    });
    for (const c of recorded[String(review.id)] ?? []) {
      codeComments.push({
        id: c.id,
        reviewId: review.id,
        pull: contract.number,
        user: c.user,
        body: c.body,
        path: c.path,
        line: c.position > 0 ? c.position : -c.original_position,
        commitId: c.commit_id,
        createdAt: c.created_at,
        resolver: null,
      });
    }
  }
  const recordedIssueComment = fixture<Json>('issue-comment.json');
  issueComments.push({
    id: recordedIssueComment.id,
    pull: contract.number,
    user: recordedIssueComment.user,
    body: recordedIssueComment.body,
    createdAt: recordedIssueComment.created_at,
  });

  // --- what Forgejo computes from the commit graph ------------------------------------------------

  const treeAt = (ref: string): Tree | undefined => {
    const commit = commits.get(ref);
    if (commit) return commit.tree;
    const tip = branches.get(ref);
    const overlay = branchOverlays.get(ref);
    if (tip === undefined && overlay === undefined) return undefined;
    return new Map([...(tip ? (commits.get(tip)?.tree ?? []) : []), ...(overlay ?? [])]);
  };

  const ancestors = (sha: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [sha];
    while (stack.length) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(commits.get(next)?.parents ?? []));
    }
    return seen;
  };

  /** Commits reachable from `head` but not from the merge base of `base` and `head`, newest first (git log). */
  const commitsBetween = (base: string, head: string): Commit[] => {
    const fromBase = ancestors(base);
    const list = [...ancestors(head)].filter((sha) => !fromBase.has(sha)).map((sha) => commits.get(sha) as Commit);
    const depth = (c: Commit): number =>
      c.parents[0] && !fromBase.has(c.parents[0]) ? 1 + depth(commits.get(c.parents[0]) as Commit) : 0;
    return list.sort((a, b) => depth(b) - depth(a));
  };

  const isBinary = (bytes: Buffer | undefined) => bytes?.includes(0) ?? false;

  interface Change {
    status: 'added' | 'deleted' | 'renamed' | 'changed' | 'unchanged';
    path: string;
    oldPath?: string | undefined;
    before?: Buffer | undefined;
    after?: Buffer | undefined;
  }

  /** How git (with rename detection) sees the change from one tree to another, sorted by path. */
  const changesBetween = (before: Tree, after: Tree, renames: Map<string, string>): Change[] => {
    const renamedFrom = new Set<string>();
    for (const [to, from] of renames) if (after.has(to) && !after.has(from) && before.has(from)) renamedFrom.add(from);
    const out: Change[] = [];
    for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const a = before.get(path);
      const b = after.get(path);
      const from = renames.get(path);
      if (b && !a && from && renamedFrom.has(from)) {
        out.push({ status: 'renamed', path, oldPath: from, before: before.get(from), after: b });
      } else if (b && !a) out.push({ status: 'added', path, after: b });
      else if (a && !b) {
        if (!renamedFrom.has(path)) out.push({ status: 'deleted', path, before: a });
      } else if (a && b && !a.equals(b)) {
        // Forgejo counts no lines in a binary file and so calls it unchanged.
        out.push({ status: isBinary(a) || isBinary(b) ? 'unchanged' : 'changed', path, before: a, after: b });
      }
    }
    return out;
  };

  const hunksOf = (change: Change) => {
    if (isBinary(change.before) || isBinary(change.after)) return undefined;
    const patch = structuredPatch(
      '',
      '',
      change.before?.toString('utf8') ?? '',
      change.after?.toString('utf8') ?? '',
      '',
      '',
      {
        context: 3,
      },
    );
    const side = (start: number, count: number) =>
      count === 0 ? `${start - 1},0` : count === 1 ? `${start}` : `${start},${count}`;
    const lines: string[] = [];
    let additions = 0;
    let deletions = 0;
    for (const hunk of patch.hunks) {
      lines.push(`@@ -${side(hunk.oldStart, hunk.oldLines)} +${side(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines);
      additions += hunk.lines.filter((l) => l.startsWith('+')).length;
      deletions += hunk.lines.filter((l) => l.startsWith('-')).length;
    }
    return { text: lines.map((l) => `${l}\n`).join(''), additions, deletions };
  };

  /** git's `diff -p` of the whole change, as `GET /pulls/{index}.diff` answers it. */
  const gitDiff = (changes: Change[]) =>
    changes
      .map((c) => {
        const oldPath = c.oldPath ?? c.path;
        const out = [`diff --git a/${oldPath} b/${c.path}`];
        if (c.status === 'added') out.push('new file mode 100644');
        if (c.status === 'deleted') out.push('deleted file mode 100644');
        const hunks = hunksOf(c);
        if (c.status === 'renamed') {
          out.push(`similarity index ${hunks?.text ? 90 : 100}%`, `rename from ${oldPath}`, `rename to ${c.path}`);
          if (!hunks?.text) return `${out.join('\n')}\n`;
        }
        out.push(
          `index ${'a'.repeat(7)}..${'b'.repeat(7)}${c.status === 'added' || c.status === 'deleted' ? '' : ' 100644'}`,
        );
        const a = c.status === 'added' ? '/dev/null' : `a/${oldPath}`;
        const b = c.status === 'deleted' ? '/dev/null' : `b/${c.path}`;
        if (!hunks) return `${[...out, `Binary files ${a} and ${b} differ`].join('\n')}\n`;
        return `${[...out, `--- ${a}`, `+++ ${b}`].join('\n')}\n${hunks.text}`;
      })
      .join('');

  const changedFileJson = (change: Change, head: string): Json => {
    const counts = hunksOf(change);
    const template = fileTemplates[change.status] ?? fileTemplates.changed ?? {};
    const additions = counts?.additions ?? 0;
    const deletions = counts?.deletions ?? 0;
    const json: Json = {
      ...template,
      filename: change.path,
      status: change.status,
      additions,
      deletions,
      changes: additions + deletions,
      html_url: `${repository.html_url}/src/commit/${head}/${change.path}`,
      contents_url: `${repository.url}/contents/${change.path}?ref=${head}`,
      raw_url: `${repository.html_url}/raw/commit/${head}/${change.path}`,
    };
    if (change.oldPath) json.previous_filename = change.oldPath;
    else delete json.previous_filename;
    return json;
  };

  const pullChanges = (pr: PullRecord) =>
    changesBetween(
      commits.get(pr.mergeBase)?.tree ?? new Map(),
      commits.get(pr.headSha)?.tree ?? new Map(),
      pr.renames,
    );

  const commitJson = (commit: Commit, withFiles: boolean): Json => {
    const parent = commit.parents[0];
    const files = withFiles
      ? changesBetween(parent ? (commits.get(parent)?.tree ?? new Map()) : new Map(), commit.tree, new Map()).map(
          (c) => ({
            filename: c.path,
            status: c.status === 'added' ? 'added' : c.status === 'deleted' ? 'removed' : 'modified',
          }),
        )
      : null;
    return {
      ...commitTemplate,
      url: `${repository.url}/git/commits/${commit.sha}`,
      sha: commit.sha,
      created: commit.date,
      html_url: `${repository.html_url}/commit/${commit.sha}`,
      commit: {
        ...commitTemplate.commit,
        message: `${commit.message}\n`,
        author: { ...commitTemplate.commit.author, date: commit.date },
        committer: { ...commitTemplate.commit.committer, date: commit.date },
      },
      parents: commit.parents.map((sha) => ({
        url: `${repository.url}/git/commits/${sha}`,
        sha,
        created: '0001-01-01T00:00:00Z',
      })),
      files,
    };
  };

  const pullJson = (pr: PullRecord): Json => ({
    ...prTemplate,
    id: 5500 + pr.number,
    number: pr.number,
    url: `${repository.html_url}/pulls/${pr.number}`,
    html_url: `${repository.html_url}/pulls/${pr.number}`,
    diff_url: `${repository.html_url}/pulls/${pr.number}.diff`,
    patch_url: `${repository.html_url}/pulls/${pr.number}.patch`,
    user: pr.author,
    title: pr.title,
    body: pr.body,
    state: pr.state,
    draft: pr.draft,
    merged: pr.merged,
    merged_at: pr.merged ? '2026-05-06T10:00:00Z' : null,
    base: { ...prTemplate.base, label: pr.baseRef, ref: pr.baseRef, sha: pr.baseSha },
    head: { ...prTemplate.head, label: pr.headRef, ref: pr.headRef, sha: pr.headSha },
    merge_base: pr.mergeBase,
  });

  const reviewJson = (review: FakeReview): Json => ({
    id: review.id,
    user: review.user,
    team: null,
    state: review.state,
    body: review.body,
    commit_id: review.commitId,
    stale: false,
    official: false,
    dismissed: false,
    comments_count: codeComments.filter((c) => c.reviewId === review.id).length,
    submitted_at: review.submittedAt,
    updated_at: review.submittedAt,
    html_url: `${repository.html_url}/pulls/${review.pull}#issuecomment-${review.id}`,
    pull_request_url: `${repository.html_url}/pulls/${review.pull}`,
  });

  const codeCommentJson = (c: FakeCodeComment): Json => ({
    id: c.id,
    body: c.body,
    user: c.user,
    resolver: c.resolver,
    pull_request_review_id: c.reviewId,
    created_at: c.createdAt,
    updated_at: c.createdAt,
    path: c.path,
    commit_id: c.commitId,
    original_commit_id: c.commitId,
    diff_hunk: '',
    position: Math.max(c.line, 0),
    original_position: c.line < 0 ? -c.line : 0,
    html_url: `${repository.html_url}/pulls/${c.pull}/files#issuecomment-${c.id}`,
    pull_request_url: `${repository.html_url}/pulls/${c.pull}`,
  });

  const issueCommentJson = (c: FakeIssueComment): Json => ({
    ...recordedIssueComment,
    id: c.id,
    html_url: `${repository.html_url}/pulls/${c.pull}#issuecomment-${c.id}`,
    pull_request_url: `${repository.html_url}/pulls/${c.pull}`,
    user: c.user,
    body: c.body,
    created_at: c.createdAt,
    updated_at: c.createdAt,
  });

  /** One page, with `limit` capped as Forgejo caps it, and the headers Forgejo sends. */
  const paged = (
    req: FakeRequest,
    all: readonly unknown[],
    style: 'hasMore' | 'totalCount',
    cap = MAX_LIMIT,
  ): Reply => {
    const limit = Math.min(Number(req.query.get('limit') ?? MAX_LIMIT) || MAX_LIMIT, cap);
    const page = Math.max(1, Number(req.query.get('page') ?? 1) || 1);
    const pages = Math.max(1, Math.ceil(all.length / limit));
    const headers: Record<string, string> = { 'x-total-count': String(all.length) };
    if (style === 'hasMore') {
      headers['x-hasmore'] = String(page < pages);
      headers['x-page'] = String(page);
      headers['x-pagecount'] = String(pages);
    }
    // A Link that points elsewhere: a client following it would send its token to another host.
    if (page < pages) headers.link = `<https://elsewhere.example.com/api/v1${req.path}?page=${page + 1}>; rel="next"`;
    return { headers, json: all.slice((page - 1) * limit, page * limit) };
  };

  const authedUser = (): Json => me;

  // --- routes ---------------------------------------------------------------------------------------

  type Handler = (req: FakeRequest, params: string[]) => Reply | Promise<Reply>;
  const routes: Array<{ method: string; pattern: RegExp; handler: Handler }> = [];
  const on = (method: string, pattern: RegExp, handler: Handler) => routes.push({ method, pattern, handler });
  const R = '/repos/([^/]+)/([^/]+)';
  const repoOf = (owner: string, name: string) => repositories.find((r) => r.owner.login === owner && r.name === name);
  const pullOf = (params: string[]) =>
    repoOf(params[0] as string, params[1] as string) ? pulls.get(Number(params[2])) : undefined;

  on('GET', /^\/version$/, () => ({
    json: fixture(flavour === 'forgejo' ? 'version-forgejo.json' : 'version-gitea.json'),
  }));
  on('GET', /^\/user$/, () => ({ json: me }));
  on('GET', /^\/user\/orgs$/, (req) => paged(req, [fixture('organization.json')], 'totalCount'));
  on('GET', /^\/user\/repos$/, (req) => paged(req, [], 'totalCount'));
  on('GET', /^\/users\/search$/, (req) => {
    const q = (req.query.get('q') ?? '').toLowerCase();
    const found = [people.ada, people.grace, me].filter(
      (u) => u.login.includes(q) || u.full_name.toLowerCase().includes(q),
    );
    return { headers: { 'x-total-count': String(found.length) }, json: { ok: true, data: found } };
  });
  on('GET', /^\/users\/([^/]+)$/, (_req, [login]) => {
    if (login === FJ_OWNER) return { json: orgUser };
    const user = [people.ada, people.grace, me].find((u) => u.login === login);
    return user ? { json: user } : notFound;
  });
  on('GET', /^\/orgs\/([^/]+)\/repos$/, (req, [org]) =>
    org === FJ_OWNER ? paged(req, repositories, 'totalCount', 1) : notFound,
  );
  on('GET', /^\/users\/([^/]+)\/repos$/, (req, [login]) =>
    login === FJ_OWNER ? paged(req, repositories, 'totalCount', 1) : paged(req, [], 'totalCount'),
  );
  on('GET', /^\/repositories\/(\d+)$/, (_req, [id]) => {
    const found = repositories.find((r) => String(r.id) === id);
    return found ? { json: found } : notFound;
  });
  on('GET', new RegExp(`^${R}$`), (_req, [owner, name]) => {
    const found = repoOf(owner as string, name as string);
    return found ? { json: found } : notFound;
  });
  on('GET', new RegExp(`^${R}/branches$`), (req, params) => {
    if (!repoOf(params[0] as string, params[1] as string)) return notFound;
    const template = fixture<Json>('branch.json');
    return paged(
      req,
      [...branches.keys()].map((name) => ({
        ...template,
        name,
        commit: { ...template.commit, id: branches.get(name) },
      })),
      'totalCount',
      2,
    );
  });
  on('GET', new RegExp(`^${R}/branches/(.+)$`), (_req, params) => {
    const head = branches.get(params[2] as string);
    if (!repoOf(params[0] as string, params[1] as string) || !head) return notFound;
    const template = fixture<Json & { commit: Json }>('branch.json');
    return { json: { ...template, name: params[2], commit: { ...template.commit, id: head } } };
  });
  on('GET', new RegExp(`^${R}/git/trees/([^/]+)$`), (req, params) => {
    const nodes = repoOf(params[0] as string, params[1] as string) && contractTreeAt(params[2] as string);
    if (!nodes) return notFound;
    // A server with `[api] DEFAULT_GIT_TREES_PER_PAGE = 100`, so the contract's tree takes two pages.
    const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 100) || 100));
    const page = Math.max(1, Number(req.query.get('page') ?? 1) || 1);
    const entries = req.query.get('recursive') === 'true' ? nodes : nodes.filter((n) => !n.path.includes('/'));
    const slice = entries.slice((page - 1) * perPage, page * perPage);
    return {
      json: {
        sha: params[2],
        url: `${hostUrl}/api/v1/repos/${params[0]}/${params[1]}/git/trees/${params[2]}`,
        tree: slice.map((n) => ({
          path: n.path,
          mode: n.kind === 'file' ? '100644' : n.kind === 'directory' ? '040000' : '160000',
          type: n.kind === 'file' ? 'blob' : n.kind === 'directory' ? 'tree' : 'commit',
          size: n.kind === 'file' ? n.sizeBytes : 0,
          sha: n.objectId,
          url: '',
        })),
        truncated: page * perPage < entries.length,
        page,
        total_count: entries.length,
      },
    };
  });
  on('GET', new RegExp(`^${R}/pulls$`), (req, params) => {
    if (!repoOf(params[0] as string, params[1] as string)) return notFound;
    const state = req.query.get('state') ?? 'open';
    const list = [...pulls.values()].filter((p) => state === 'all' || p.state === state).map(pullJson);
    return paged(req, list, 'totalCount');
  });
  on('GET', new RegExp(`^${R}/pulls/(\\d+)\\.diff$`), (_req, params) => {
    const pr = pullOf(params);
    return pr ? { headers: { 'content-type': 'text/plain; charset=utf-8' }, text: gitDiff(pullChanges(pr)) } : notFound;
  });
  on('GET', new RegExp(`^${R}/pulls/(\\d+)$`), (_req, params) => {
    const pr = pullOf(params);
    return pr ? { json: pullJson(pr) } : notFound;
  });
  on('GET', new RegExp(`^${R}/pulls/(\\d+)/files$`), (req, params) => {
    const pr = pullOf(params);
    return pr
      ? paged(
          req,
          pullChanges(pr).map((c) => changedFileJson(c, pr.headSha)),
          'hasMore',
        )
      : notFound;
  });
  on('GET', new RegExp(`^${R}/pulls/(\\d+)/commits$`), (req, params) => {
    const pr = pullOf(params);
    if (!pr) return notFound;
    const files = req.query.get('files') !== 'false';
    return paged(
      req,
      commitsBetween(pr.mergeBase, pr.headSha).map((c) => commitJson(c, files)),
      'hasMore',
    );
  });
  on('GET', new RegExp(`^${R}/compare/(.+)$`), (req, params) => {
    const [base, head] = (params[2] ?? '').split('...');
    if (!base || !head || !commits.has(base) || !commits.has(head)) return notFound;
    const files = req.query.get('files') !== 'false';
    const list = commitsBetween(base, head).map((c) => commitJson(c, files));
    return { json: { ...fixture<Json>('compare.json'), total_commits: list.length, commits: list } };
  });
  const contentRoute =
    (raw: boolean): Handler =>
    (req, params) => {
      if (!repoOf(params[0] as string, params[1] as string)) return notFound;
      const path = params[2] as string;
      const tree = treeAt(req.query.get('ref') ?? s.pullRequest.targetBranch);
      const bytes = tree?.get(path);
      if (!tree || bytes === undefined) {
        const dir = tree && [...tree.keys()].some((p) => p.startsWith(`${path}/`));
        return dir && !raw ? { json: [] } : notFound;
      }
      if (raw) return { headers: { 'content-type': 'application/octet-stream' }, bytes };
      const template = fixture<Json>('contents-file.json');
      const large = bytes.length > MAX_INLINE_CONTENT;
      return {
        json: {
          ...template,
          name: path.split('/').at(-1),
          path,
          size: bytes.length,
          encoding: large ? null : 'base64',
          content: large ? null : bytes.toString('base64'),
        },
      };
    };
  on('GET', new RegExp(`^${R}/contents/(.+)$`), contentRoute(false));
  on('GET', new RegExp(`^${R}/raw/(.+)$`), contentRoute(true));

  on('GET', new RegExp(`^${R}/pulls/(\\d+)/reviews$`), (req, params) => {
    const pr = pullOf(params);
    if (!pr) return notFound;
    const visible = reviews.filter(
      (r) => r.pull === pr.number && (r.state !== 'PENDING' || r.user.id === authedUser().id),
    );
    return paged(req, visible.map(reviewJson), 'totalCount');
  });
  on('GET', new RegExp(`^${R}/pulls/(\\d+)/reviews/(\\d+)/comments$`), (_req, params) => {
    const pr = pullOf(params);
    const review = reviews.find((r) => r.id === Number(params[3]) && r.pull === pr?.number);
    if (!review) return notFound;
    // Forgejo gathers them from a map: no order can be relied on. Newest first here.
    return {
      json: codeComments
        .filter((c) => c.reviewId === review.id)
        .reverse()
        .map(codeCommentJson),
    };
  });
  on('DELETE', new RegExp(`^${R}/pulls/(\\d+)/reviews/(\\d+)$`), (_req, params) => {
    const pr = pullOf(params);
    const at = reviews.findIndex((r) => r.id === Number(params[3]) && r.pull === pr?.number);
    const review = reviews[at];
    if (!review) return notFound;
    if (review.user.id !== authedUser().id)
      return { status: 403, json: { message: 'only admin and user itself can delete a review' } };
    reviews.splice(at, 1);
    for (let i = codeComments.length - 1; i >= 0; i--)
      if (codeComments[i]?.reviewId === review.id) codeComments.splice(i, 1);
    return { status: 204 };
  });
  on('POST', new RegExp(`^${R}/pulls/(\\d+)/reviews$`), (req, params) => {
    const pr = pullOf(params);
    if (!pr) return notFound;
    const body = (req.json ?? {}) as {
      commit_id?: string;
      event?: string;
      body?: string;
      comments?: Array<{ path?: string; body?: string; new_position?: number; old_position?: number }>;
    };
    const comments = body.comments ?? [];
    const event = body.event ?? '';
    if (event === 'COMMENT' && !body.body?.trim() && comments.length === 0) {
      return { status: 422, json: { message: 'review event COMMENT requires a body or a comment', url: '' } };
    }
    const user = authedUser();
    let pending = reviews.find((r) => r.pull === pr.number && r.state === 'PENDING' && r.user.id === user.id);
    if (!pending) {
      pending = { id: nextId++, pull: pr.number, user, state: 'PENDING', body: '', commitId: '', submittedAt: now() };
      reviews.push(pending);
    }
    const commitId = body.commit_id || pr.headSha;
    // Each comment is stored as part of the pending review; the first one that fails ends the request.
    for (const c of comments) {
      const line = (c.old_position ?? 0) > 0 ? -(c.old_position as number) : (c.new_position ?? 0);
      if (!c.path || line === 0 || refusedPaths.has(c.path))
        return { status: 500, json: fixture('error-internal.json') };
      codeComments.push({
        id: nextId++,
        reviewId: pending.id,
        pull: pr.number,
        user,
        body: c.body ?? '',
        path: c.path,
        line,
        commitId,
        createdAt: now(),
        resolver: null,
      });
    }
    if (event === 'COMMENT' || event === 'APPROVED' || event === 'REQUEST_CHANGES') {
      pending.state = 'COMMENT';
      pending.body = body.body ?? '';
      pending.commitId = commitId;
      pending.submittedAt = now();
    }
    return { json: reviewJson(pending) };
  });
  const resolve =
    (resolved: boolean): Handler =>
    (_req, params) => {
      if (flavour === 'forgejo') return { status: 405, headers: { allow: 'GET' }, text: 'Method Not Allowed' };
      const comment = codeComments.find((c) => c.id === Number(params[2]));
      if (!comment || !repoOf(params[0] as string, params[1] as string)) return notFound;
      comment.resolver = resolved ? authedUser() : null;
      return { status: 204 };
    };
  on('POST', new RegExp(`^${R}/pulls/comments/(\\d+)/resolve$`), resolve(true));
  on('POST', new RegExp(`^${R}/pulls/comments/(\\d+)/unresolve$`), resolve(false));

  on('POST', new RegExp(`^${R}/statuses/([0-9a-f]{40})$`), (req, [owner, name, sha]) => {
    if (!repoOf(owner as string, name as string)) return notFound;
    if (statusesRefused) return { status: 403, json: fixture('error-token-scope.json') };
    const body = (req.json ?? {}) as Json;
    if (!['pending', 'success', 'error', 'failure', 'warning'].includes(String(body.state))) {
      return { status: 422, json: { message: '[State]: Required', url: '' } };
    }
    statuses.push({
      commit: sha as string,
      name: String(body.context ?? 'default'),
      state: String(body.state),
      description: body.description,
      targetUrl: body.target_url,
    });
    return {
      status: 201,
      json: {
        ...fixture<Json>('commit-status.json'),
        id: nextId++,
        status: body.state,
        context: body.context ?? 'default',
        description: body.description ?? '',
        target_url: body.target_url ?? '',
      },
    };
  });

  on('GET', new RegExp(`^${R}/issues/(\\d+)/comments$`), (_req, params) => {
    const pr = pullOf(params);
    if (!pr) return notFound;
    // Not paged: Forgejo returns every comment of the issue and says how many.
    const list = issueComments.filter((c) => c.pull === pr.number).map(issueCommentJson);
    return { headers: { 'x-total-count': String(list.length) }, json: list };
  });
  on('POST', new RegExp(`^${R}/issues/(\\d+)/comments$`), (req, params) => {
    const pr = pullOf(params);
    if (!pr) return notFound;
    const body = (req.json as { body?: string } | undefined)?.body;
    if (!body) return { status: 422, json: { message: '[Body]: Required', url: '' } };
    const comment = { id: nextId++, pull: pr.number, user: authedUser(), body, createdAt: now() };
    issueComments.push(comment);
    return { status: 201, json: issueCommentJson(comment) };
  });
  on('GET', new RegExp(`^${R}/issues/comments/(\\d+)$`), (_req, params) => {
    const id = Number(params[2]);
    const comment = issueComments.find((c) => c.id === id);
    if (comment) return { json: issueCommentJson(comment) };
    // A code comment is found, but this route answers only for plain comments.
    return codeComments.some((c) => c.id === id) ? { status: 204 } : notFound;
  });
  on('PATCH', new RegExp(`^${R}/issues/comments/(\\d+)$`), (req, params) => {
    const id = Number(params[2]);
    const body = (req.json as { body?: string } | undefined)?.body;
    if (!body) return { status: 422, json: { message: '[Body]: Required', url: '' } };
    const plain = issueComments.find((c) => c.id === id);
    const code = codeComments.find((c) => c.id === id);
    if (plain) plain.body = body;
    if (code) code.body = body;
    if (plain) return { json: issueCommentJson(plain) };
    return code ? { json: codeCommentJson(code) } : notFound;
  });

  // --- the server -----------------------------------------------------------------------------------

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const rawPath = url.pathname.startsWith('/api/v1/') ? url.pathname.slice('/api/v1'.length) : url.pathname;
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const request: FakeRequest = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(rawPath),
      query: url.searchParams,
      headers: req.headers,
      json,
    };
    requests.push(request);
    let reply: Reply;
    if (throttle) {
      throttle = false;
      reply = { status: 429, headers: { 'retry-after': '1' }, json: { message: 'rate limit exceeded', url: '' } };
    } else if (req.headers.authorization !== `token ${options.token}`) {
      reply = { status: 401, json: fixture('error-unauthorized.json') };
    } else {
      const route = routes.find((r) => r.method === request.method && r.pattern.test(rawPath));
      const params = route ? (route.pattern.exec(rawPath) ?? []).slice(1).map((p) => decodeURIComponent(p)) : [];
      try {
        reply = route
          ? await route.handler(request, params)
          : { status: 404, json: { message: `No fake route for ${request.method} ${rawPath}`, url: '' } };
      } catch (error) {
        reply = { status: 500, json: { message: `Fake handler failed: ${(error as Error).message}`, url: '' } };
      }
    }
    if (request.method !== 'GET' && !/\/statuses\//.test(rawPath)) {
      writes.push({ method: request.method, path: rawPath, body: json, status: reply.status ?? 200 });
    }
    const headers: Record<string, string> = { ...reply.headers };
    let body: string | Buffer = reply.bytes ?? reply.text ?? '';
    if (reply.json !== undefined) {
      body = JSON.stringify(reply.json);
      headers['content-type'] ??= 'application/json;charset=utf-8';
    }
    res.writeHead(reply.status ?? 200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const hostUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    hostUrl,
    requests,
    writes,
    statuses,
    refuseStatuses(refused = true) {
      statusesRefused = refused;
    },
    throttleNext() {
      throttle = true;
    },
    loadPullRequest(scenario) {
      const existing = pulls.get(scenario.number);
      const mergeBase = scenario.mergeBaseSha ?? scenario.baseSha;
      const bytesOf = (file: PullRequestScenario['files'][number], text: string) =>
        file.binary ? Buffer.concat([Buffer.from(text), Buffer.from([0])]) : Buffer.from(text);
      const before: Tree = new Map();
      const after: Tree = new Map();
      const renames = new Map<string, string>();
      for (const file of scenario.files) {
        if (file.oldText !== undefined) before.set(file.previousPath ?? file.path, bytesOf(file, file.oldText));
        if (file.newText !== undefined) after.set(file.path, bytesOf(file, file.newText));
        if (file.previousPath) renames.set(file.path, file.previousPath);
      }
      if (!commits.has(mergeBase)) addCommit(mergeBase, [], before, 'The merge base');
      if (!commits.has(scenario.baseSha))
        addCommit(scenario.baseSha, [mergeBase], new Map(before), 'The target branch');
      const parent = existing && scenario.relationToPreviousHead !== 'diverged' ? existing.headSha : mergeBase;
      addCommit(scenario.headSha, [parent], after, `Push to #${scenario.number}`);
      branches.set(scenario.sourceBranch, scenario.headSha);
      branches.set(scenario.targetBranch, scenario.baseSha);
      for (const [branch, files] of Object.entries(scenario.branchFiles ?? {})) {
        const overlay = branchOverlays.get(branch) ?? new Map();
        for (const [path, text] of Object.entries(files)) overlay.set(path, Buffer.from(text));
        branchOverlays.set(branch, overlay);
      }
      pulls.set(scenario.number, {
        number: scenario.number,
        title: scenario.title,
        body: scenario.description,
        state: scenario.status === 'open' || scenario.status === undefined ? 'open' : 'closed',
        merged: scenario.status === 'merged',
        draft: scenario.isDraft ?? false,
        author: people.ada,
        headRef: scenario.sourceBranch,
        baseRef: scenario.targetBranch,
        headSha: scenario.headSha,
        baseSha: scenario.baseSha,
        mergeBase,
        renames,
      });
    },
    refuseThreadsOn(path) {
      refusedPaths.add(path);
    },
    pendingReviews: () => reviews.filter((r) => r.state === 'PENDING').length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
