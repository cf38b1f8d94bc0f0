/**
 * Test support (exported from `@margin/providers/testing`): a stateful GitHub fake on a loopback
 * socket, served under `/api/v3` and `/api/graphql` as GitHub Enterprise Server does. It serves
 * `SCM_CONTRACT_SCENARIO` in GitHub's wire shapes from the recorded-shape fixtures in `__fixtures__/`,
 * pages with `Link` headers (at most 100 a page), checks App JWTs with the App's public key, keeps the
 * review threads it is sent, and answers 401, 404, 422 and (on demand) the 403 secondary rate limit
 * with `retry-after`.
 *
 * `loadPullRequest(scenario)` adds a pull request described by file versions (or pushes a new head to
 * it): files with `patch` computed as git prints it, commits, contents at every head, base and branch
 * tip, `compare`, and review comments validated as GitHub does (422 for a line outside the hunks on
 * that side). It lists at most 3,000 files of a pull request and compares at most 300, as GitHub does.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { type PullRequestScenario, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import {
  type AnsweredWrite,
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';
import { fixtureSet } from '../../testing/fixtures.js';
import {
  diffOf,
  type FileChange,
  type LoadedPullRequest,
  pathOf,
  previousPathOf,
  ScenarioHistory,
  type ScenarioRevision,
} from '../../testing/scenario-history.js';
import appJson from './__fixtures__/app.json' with { type: 'json' };
import botUserJson from './__fixtures__/bot-user.json' with { type: 'json' };
import branchJson from './__fixtures__/branch.json' with { type: 'json' };
import errorBadCredentialsJson from './__fixtures__/error-bad-credentials.json' with { type: 'json' };
import errorNotFoundJson from './__fixtures__/error-not-found.json' with { type: 'json' };
import errorReviewUnprocessableJson from './__fixtures__/error-review-unprocessable.json' with { type: 'json' };
import errorSecondaryRateLimitJson from './__fixtures__/error-secondary-rate-limit.json' with { type: 'json' };
import errorValidationFailedJson from './__fixtures__/error-validation-failed.json' with { type: 'json' };
import graphqlReviewThreadsJson from './__fixtures__/graphql-review-threads.json' with { type: 'json' };
import installationJson from './__fixtures__/installation.json' with { type: 'json' };
import installationTokenJson from './__fixtures__/installation-token.json' with { type: 'json' };
import issueCommentJson from './__fixtures__/issue-comment.json' with { type: 'json' };
import organizationUserJson from './__fixtures__/organization-user.json' with { type: 'json' };
import pullRequestJson from './__fixtures__/pull-request.json' with { type: 'json' };
import pullRequestCommitsJson from './__fixtures__/pull-request-commits.json' with { type: 'json' };
import pullRequestFilesJson from './__fixtures__/pull-request-files.json' with { type: 'json' };
import repositoryJson from './__fixtures__/repository.json' with { type: 'json' };
import reviewJson from './__fixtures__/review.json' with { type: 'json' };
import reviewCommentJson from './__fixtures__/review-comment.json' with { type: 'json' };
import searchUsersJson from './__fixtures__/search-users.json' with { type: 'json' };
import userJson from './__fixtures__/user.json' with { type: 'json' };
import type {
  GhIssueComment,
  GhPullRequest,
  GhPullRequestFile,
  GhRepository,
  GhReviewComment,
  GhUser,
  GqlActor,
  GqlComment,
  GqlReviewThread,
} from './github-wire.js';

const ghFixture = fixtureSet({
  app: appJson,
  'bot-user': botUserJson,
  branch: branchJson,
  'error-bad-credentials': errorBadCredentialsJson,
  'error-not-found': errorNotFoundJson,
  'error-review-unprocessable': errorReviewUnprocessableJson,
  'error-secondary-rate-limit': errorSecondaryRateLimitJson,
  'error-validation-failed': errorValidationFailedJson,
  'graphql-review-threads': graphqlReviewThreadsJson,
  installation: installationJson,
  'installation-token': installationTokenJson,
  'issue-comment': issueCommentJson,
  'organization-user': organizationUserJson,
  'pull-request': pullRequestJson,
  'pull-request-commits': pullRequestCommitsJson,
  'pull-request-files': pullRequestFilesJson,
  repository: repositoryJson,
  review: reviewJson,
  'review-comment': reviewCommentJson,
  'search-users': searchUsersJson,
  user: userJson,
});

export const GH_OWNER = 'acme';
export const GH_REPOSITORY_ID = '987654321';
export const GH_REPOSITORY_NODE_ID = 'R_kgDOOt1Wsg';
export const GH_MERGE_BASE = '3333333333333333333333333333333333333333';
/** A changed file whose `patch` GitHub leaves out, as it does for large files. */
export const GH_FILE_WITHOUT_PATCH = 'src/file-226.ts';
/** GitHub lists at most this many files of a pull request, and compares at most 300. */
export const GH_MAX_PULL_REQUEST_FILES = 3000;
export const GH_MAX_COMPARE_FILES = 300;

export interface GitHubFakeOptions {
  pat: string;
  app?: { id: number; installationId: number; publicKeyPem: string } | undefined;
  /** Page cap for branches and repositories, small so `Link` paging is exercised. */
  smallPage?: number;
  /** The fake's clock for JWT checks and token expiry. Default `Date.now`. */
  now?: () => number;
}

type FakeComment = GqlComment & { reviewId?: number | undefined };
type FakeThread = Omit<GqlReviewThread, 'comments'> & {
  commitId: string;
  startDiffSide: 'LEFT' | 'RIGHT' | null;
  comments: { pageInfo: GqlReviewThread['comments']['pageInfo']; nodes: FakeComment[] };
};

export interface GitHubFake {
  server: FakeHttpServer;
  /** `http://127.0.0.1:<port>`: the connection's hostBaseUrl (a GitHub Enterprise Server). */
  hostUrl: string;
  /** Review threads of the contract scenario's pull request. */
  threads: Array<GqlReviewThread & { comments: { nodes: GqlComment[] } }>;
  issuedTokens: string[];
  /** Every write received (GraphQL queries and token exchanges left out), in order, with its answer's status. */
  writes: AnsweredWrite[];
  throttleNext(): void;
  /** Serves a pull request from file versions; loading the same number with a new head is a push. */
  loadPullRequest(scenario: PullRequestScenario): Promise<void>;
  /** From now on every new review comment anchored in this file is refused with 422. */
  refuseThreadsOn(path: string): void;
  close(): Promise<void>;
}

/** Who GitHub says wrote a comment: the PAT's user, or the App's bot for installation tokens. */
const PAT_AUTHOR: GqlActor = {
  __typename: 'User',
  login: 'margin-bot',
  databaseId: 7310001,
  name: 'Margin Review Bot',
};
const APP_AUTHOR: GqlActor = { __typename: 'Bot', login: 'margin-review', databaseId: 7310002 };

export async function startGitHubFake(options: GitHubFakeOptions): Promise<GitHubFake> {
  const s = SCM_CONTRACT_SCENARIO;
  const server = await startFakeHttpServer();
  const smallPage = options.smallPage ?? 2;
  const clock = options.now ?? Date.now;
  const issuedTokens: string[] = [];
  const appKey: KeyObject | undefined = options.app ? createPublicKey(options.app.publicKeyPem) : undefined;
  const history = new ScenarioHistory();
  const refusedPaths = new Set<string>();
  const writes = server.recordWrites(
    (req) => req.path.endsWith('/access_tokens') || (req.path === '/api/graphql' && !isMutation(req)),
  );

  const repository = ghFixture<GhRepository>('repository');
  const basePr = ghFixture<GhPullRequest>('pull-request');
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

  const templates = ghFixture<Record<string, GhPullRequestFile>>('pull-request-files');
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

  const threadsByPull = new Map<number, FakeThread[]>();
  const threadsOf = (number: number) => {
    let list = threadsByPull.get(number);
    if (!list) {
      list = [];
      threadsByPull.set(number, list);
    }
    return list;
  };
  const contractThreads = threadsOf(s.pullRequest.number);
  for (const thread of ghFixture<{
    data: { node: { pullRequest: { reviewThreads: { nodes: GqlReviewThread[] } } } };
  }>('graphql-review-threads').data.node.pullRequest.reviewThreads.nodes) {
    contractThreads.push({ ...thread, commitId: s.pullRequest.headSha, startDiffSide: null });
  }
  const issueComments = new Map<number, GhIssueComment[]>([
    [s.pullRequest.number, [ghFixture<GhIssueComment>('issue-comment')]],
  ]);
  const issueCommentsOf = (number: number) => {
    let list = issueComments.get(number);
    if (!list) {
      list = [];
      issueComments.set(number, list);
    }
    return list;
  };
  let nextId = 1_600_000_100;

  const notFound: FakeReply = { status: 404, json: ghFixture('error-not-found') };
  const unprocessable: FakeReply = { status: 422, json: ghFixture('error-validation-failed') };

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
  const authorOf = (req: FakeRequest): GqlActor =>
    req.headers.authorization === `Bearer ${options.pat}` ? PAT_AUTHOR : APP_AUTHOR;

  const badCredentials: FakeReply = { status: 401, json: ghFixture('error-bad-credentials') };

  const route = (
    method: string,
    path: string,
    handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>,
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
  const scenarioOf = (req: FakeRequest) => history.pullRequests.get(Number(req.params.n));
  const V3 = '/api/v3';
  const R = `${V3}/repositories/:id`;

  const fileOf = async (change: FileChange): Promise<GhPullRequestFile> => {
    const status = { added: 'added', deleted: 'removed', modified: 'modified', renamed: 'renamed' }[change.changeType];
    const { additions, deletions, hunks } = await diffOf(change);
    const previousPath = previousPathOf(change);
    return {
      // GitHub names the head blob; for a removed file, the blob that was removed.
      sha: (change.new ?? change.old)?.blobId,
      filename: pathOf(change),
      status,
      additions,
      deletions,
      changes: additions + deletions,
      ...(previousPath ? { previous_filename: previousPath } : {}),
      // GitHub sends no patch for binaries and for renames without changed lines.
      ...(hunks !== undefined ? { patch: hunks } : {}),
    };
  };

  const scenarioPull = async (pull: LoadedPullRequest): Promise<GhPullRequest> => {
    const { scenario } = pull;
    const latest = pull.revisions.at(-1) as ScenarioRevision;
    const status = scenario.status ?? 'open';
    const diffs = await Promise.all(latest.changes.map(diffOf));
    return {
      ...basePr,
      number: scenario.number,
      node_id: `PR_fake${scenario.number}`,
      title: scenario.title,
      body: scenario.description,
      state: status === 'open' ? 'open' : 'closed',
      merged: status === 'merged',
      merged_at: status === 'merged' ? '2026-05-06T10:00:00Z' : null,
      draft: scenario.isDraft ?? false,
      html_url: `https://github.com/acme/uploader/pull/${scenario.number}`,
      head: { ...basePr.head, ref: scenario.sourceBranch, sha: latest.headSha },
      base: { ...basePr.base, ref: scenario.targetBranch, sha: latest.baseSha },
      requested_reviewers: [],
      ...({
        commits: pull.revisions.length,
        additions: diffs.reduce((n, d) => n + d.additions, 0),
        deletions: diffs.reduce((n, d) => n + d.deletions, 0),
        changed_files: latest.changes.length,
      } as object),
    };
  };

  route('GET', `${V3}/user`, () => ({ json: ghFixture('user') }));
  route('GET', `${V3}/users/:login`, (req) =>
    req.params.login === GH_OWNER ? { json: ghFixture('organization-user') } : notFound,
  );
  route('GET', R, () => ({ json: repository }));
  route('GET', `${R}/pulls/:n`, (req) => {
    const found = pr(req);
    return found ? { json: found } : notFound;
  });
  route('GET', `${R}/pulls/:n/commits`, (req) => {
    const scenario = scenarioOf(req);
    if (scenario) {
      const commits = scenario.revisions.map((r, i) => ({
        sha: r.headSha,
        commit: {
          message: `Push ${i + 1}`,
          committer: { date: new Date(Date.UTC(2026, 4, 5, 12, i)).toISOString().replace(/\.\d+Z$/, 'Z') },
        },
        parents: [{ sha: i === 0 ? r.mergeBaseSha : (scenario.revisions[i - 1]?.headSha ?? r.mergeBaseSha) }],
      }));
      return paged(req, commits);
    }
    return pr(req) ? paged(req, ghFixture<unknown[]>('pull-request-commits')) : notFound;
  });
  route('GET', `${R}/pulls/:n/files`, async (req) => {
    const scenario = scenarioOf(req);
    if (scenario) {
      const latest = scenario.revisions.at(-1)?.changes ?? [];
      return paged(req, await Promise.all(latest.slice(0, GH_MAX_PULL_REQUEST_FILES).map(fileOf)));
    }
    return pr(req) ? paged(req, files) : notFound;
  });
  route('GET', `${R}/contents/*`, (req) => {
    const path = req.path.slice(req.path.indexOf('/contents/') + '/contents/'.length);
    const ref = req.query.get('ref') ?? '';
    const known = contents.get(`${ref}:${path}`);
    const scenarioFile = known === undefined ? history.fileAt(history.refOf(ref), path) : undefined;
    const bytes = known !== undefined ? Buffer.from(known) : scenarioFile?.bytes;
    if (bytes === undefined)
      return {
        status: 404,
        json: {
          ...ghFixture<object>('error-not-found'),
          documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content',
        },
      };
    if (req.headers.accept === 'application/vnd.github.raw+json')
      return { headers: { 'content-type': 'application/vnd.github.raw+json' }, text: bytes.toString('utf8') };
    return {
      json: {
        type: 'file',
        encoding: 'base64',
        size: bytes.length,
        name: path.split('/').at(-1),
        path,
        sha: scenarioFile?.blobId,
        content: bytes.toString('base64'),
      },
    };
  });
  route('GET', `${R}/compare/:spec`, async (req) => {
    const [fromSha, toSha] = (req.params.spec ?? '').split('...');
    if (!fromSha || !toSha) return notFound;
    const comparison = history.compare(fromSha, toSha);
    if (!comparison) {
      return {
        json: {
          status: 'ahead',
          ahead_by: 2,
          behind_by: 1,
          total_commits: 2,
          merge_base_commit: { sha: GH_MERGE_BASE },
          base_commit: { sha: fromSha },
          commits: [],
          files: [],
        },
      };
    }
    // Three dots: GitHub diffs from the merge base of the two commits, not from the first one.
    const changes =
      comparison.mergeBaseSha === fromSha
        ? comparison.changes
        : (history.compare(comparison.mergeBaseSha, toSha)?.changes ?? comparison.changes);
    const ahead = comparison.relation === 'ahead' || comparison.relation === 'diverged' ? 1 : 0;
    const behind = comparison.relation === 'behind' || comparison.relation === 'diverged' ? 1 : 0;
    return {
      json: {
        status: comparison.relation,
        ahead_by: ahead,
        behind_by: behind,
        total_commits: ahead,
        base_commit: { sha: fromSha },
        merge_base_commit: { sha: comparison.mergeBaseSha },
        commits: ahead ? [{ sha: toSha }] : [],
        files: await Promise.all(changes.slice(0, GH_MAX_COMPARE_FILES).map(fileOf)),
      },
    };
  });

  const restUser = (actor: GqlActor | null): GhUser =>
    actor?.__typename === 'Bot'
      ? ghFixture<GhUser>('bot-user')
      : { ...ghFixture<GhUser>('user'), id: actor?.databaseId ?? 0, login: actor?.login ?? 'ghost' };

  const findComment = (id: string) => {
    for (const [number, list] of threadsByPull) {
      for (const thread of list) {
        const comment = thread.comments.nodes.find((c) => String(c.databaseId) === id);
        if (comment) return { number, thread, comment };
      }
    }
    return undefined;
  };

  const reviewComment = (number: number, thread: FakeThread, comment: FakeComment): GhReviewComment => {
    const root = thread.comments.nodes[0];
    const isRange = thread.startLine !== null && thread.startLine !== thread.line;
    return {
      ...ghFixture<GhReviewComment>('review-comment'),
      id: comment.databaseId,
      node_id: `PRRC_fake${comment.databaseId}`,
      pull_request_review_id: comment.reviewId ?? null,
      body: comment.body,
      path: thread.path,
      commit_id: thread.commitId,
      original_commit_id: thread.commitId,
      line: thread.line,
      original_line: thread.originalLine,
      side: thread.diffSide,
      start_line: isRange ? thread.startLine : null,
      original_start_line: isRange ? thread.originalStartLine : null,
      start_side: isRange ? thread.startDiffSide : null,
      user: restUser(comment.author),
      created_at: comment.createdAt,
      updated_at: comment.createdAt,
      html_url: `https://github.com/acme/uploader/pull/${number}#discussion_r${comment.databaseId}`,
      ...(root && root !== comment ? { in_reply_to_id: root.databaseId } : {}),
    } as GhReviewComment;
  };

  interface NewComment {
    body?: string;
    commit_id?: string;
    path?: string;
    line?: number;
    side?: string;
    start_line?: number;
    start_side?: string;
  }

  /**
   * Whether GitHub can place a review comment: on a scenario pull request the line (and a range's
   * start) must be shown in that commit's diff on its side; the contract scenario's synthetic patches
   * only require the file to be in the diff.
   */
  const placeable = async (number: number, found: GhPullRequest, c: NewComment): Promise<boolean> => {
    const side = c.side ?? 'RIGHT';
    const startSide = c.start_side ?? side;
    if (!c.path || !c.line || c.line < 1 || refusedPaths.has(c.path)) return false;
    if (side !== 'RIGHT' && side !== 'LEFT') return false;
    if (c.start_line !== undefined && (c.start_line >= c.line || (startSide !== 'RIGHT' && startSide !== 'LEFT')))
      return false;
    const scenario = history.pullRequests.get(number);
    if (!scenario) {
      return (
        (c.commit_id ?? found.head.sha) === found.head.sha &&
        side === 'RIGHT' &&
        files.some((f) => f.filename === c.path)
      );
    }
    const revision = c.commit_id
      ? scenario.revisions.find((r) => r.headSha === c.commit_id)
      : scenario.revisions.at(-1);
    const change = revision?.changes.find((f) => pathOf(f) === c.path);
    if (!change) return false;
    const shown = (await diffOf(change)).lines;
    const lines = (s: string) => (s === 'LEFT' ? shown.old : shown.new);
    return lines(side).has(c.line) && (c.start_line === undefined || lines(startSide).has(c.start_line));
  };

  const addThread = (req: FakeRequest, number: number, found: GhPullRequest, c: NewComment, reviewId?: number) => {
    const comment: FakeComment = {
      databaseId: nextId++,
      body: c.body ?? '',
      createdAt: new Date().toISOString(),
      author: authorOf(req),
      reviewId,
    };
    const side = c.side === 'LEFT' ? 'LEFT' : 'RIGHT';
    const thread: FakeThread = {
      id: `PRRT_fake${comment.databaseId}`,
      isResolved: false,
      path: c.path ?? '',
      line: c.line ?? null,
      startLine: c.start_line ?? null,
      originalLine: c.line ?? null,
      originalStartLine: c.start_line ?? null,
      diffSide: side,
      startDiffSide: c.start_line !== undefined ? (c.start_side === 'LEFT' ? 'LEFT' : 'RIGHT') : null,
      commitId: c.commit_id ?? found.head.sha,
      comments: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [comment] },
    };
    threadsOf(number).push(thread);
    return { thread, comment };
  };

  route('POST', `${R}/pulls/:n/comments`, async (req) => {
    const found = pr(req);
    if (!found) return notFound;
    const number = found.number;
    const body = req.json as NewComment;
    if (!body.body || !body.commit_id || !(await placeable(number, found, body))) return unprocessable;
    const { thread, comment } = addThread(req, number, found, body);
    return { status: 201, json: reviewComment(number, thread, comment) };
  });

  const reviewsByPull = new Map<number, Array<{ id: number; commitId: string; state: string }>>();
  route('POST', `${R}/pulls/:n/reviews`, async (req) => {
    const found = pr(req);
    if (!found) return notFound;
    const number = found.number;
    const body = req.json as { commit_id?: string; event?: string; body?: string; comments?: NewComment[] };
    const comments = body.comments ?? [];
    // One comment GitHub cannot place refuses the whole review.
    for (const c of comments) {
      if (!c.body || !(await placeable(number, found, { ...c, commit_id: body.commit_id }))) {
        return { status: 422, json: ghFixture('error-review-unprocessable') };
      }
    }
    const id = nextId++;
    // Without an event the review stays pending: its comments are invisible until it is submitted.
    const state = body.event === 'COMMENT' ? 'COMMENTED' : body.event ? body.event : 'PENDING';
    const reviews = reviewsByPull.get(number) ?? [];
    reviews.push({ id, commitId: body.commit_id ?? found.head.sha, state });
    reviewsByPull.set(number, reviews);
    if (state !== 'PENDING') {
      for (const c of comments) addThread(req, number, found, { ...c, commit_id: body.commit_id }, id);
    }
    const review = ghFixture<Record<string, unknown>>('review');
    const html = `https://github.com/acme/uploader/pull/${number}#pullrequestreview-${id}`;
    return {
      json: {
        ...review,
        id,
        node_id: `PRR_fake${id}`,
        user: restUser(authorOf(req)),
        body: body.body ?? '',
        state,
        html_url: html,
        commit_id: body.commit_id ?? found.head.sha,
        submitted_at: state === 'PENDING' ? undefined : new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        _links: { ...(review._links as object), html: { href: html } },
      },
    };
  });

  route('GET', `${R}/pulls/:n/reviews/:review/comments`, (req) => {
    const found = pr(req);
    if (!found) return notFound;
    const reviewId = Number(req.params.review);
    if (!reviewsByPull.get(found.number)?.some((r) => r.id === reviewId)) return notFound;
    const comments = threadsOf(found.number).flatMap((thread) =>
      thread.comments.nodes.filter((c) => c.reviewId === reviewId).map((c) => reviewComment(found.number, thread, c)),
    );
    return paged(req, comments);
  });

  route('POST', `${R}/pulls/:n/comments/:cid/replies`, (req) => {
    const found = pr(req);
    const thread =
      found && threadsOf(found.number).find((t) => String(t.comments.nodes[0]?.databaseId) === req.params.cid);
    if (!found || !thread) return notFound;
    const comment: FakeComment = {
      databaseId: nextId++,
      body: (req.json as { body: string }).body,
      createdAt: new Date().toISOString(),
      author: authorOf(req),
    };
    thread.comments.nodes.push(comment);
    return { status: 201, json: reviewComment(found.number, thread, comment) };
  });

  route('GET', `${R}/pulls/comments/:cid`, (req) => {
    const hit = findComment(req.params.cid ?? '');
    return hit ? { json: reviewComment(hit.number, hit.thread, hit.comment) } : notFound;
  });
  route('PATCH', `${R}/pulls/comments/:cid`, (req) => {
    const hit = findComment(req.params.cid ?? '');
    const body = (req.json as { body?: string } | undefined)?.body;
    if (!hit) return notFound;
    if (!body) return unprocessable;
    hit.comment.body = body;
    return { json: reviewComment(hit.number, hit.thread, hit.comment) };
  });

  const findIssueComment = (id: string) => [...issueComments.values()].flat().find((c) => String(c.id) === id);
  route('GET', `${R}/issues/:n/comments`, (req) =>
    pr(req) ? paged(req, issueCommentsOf(Number(req.params.n))) : notFound,
  );
  route('POST', `${R}/issues/:n/comments`, (req) => {
    if (!pr(req)) return notFound;
    const comment: GhIssueComment = {
      ...ghFixture<GhIssueComment>('issue-comment'),
      id: nextId++,
      body: (req.json as { body: string }).body,
      user: restUser(authorOf(req)),
      created_at: new Date().toISOString(),
    };
    comment.html_url = `https://github.com/acme/uploader/pull/${req.params.n}#issuecomment-${comment.id}`;
    issueCommentsOf(Number(req.params.n)).push(comment);
    return { status: 201, json: comment };
  });
  route('GET', `${R}/issues/comments/:cid`, (req) => {
    const comment = findIssueComment(req.params.cid ?? '');
    return comment ? { json: comment } : notFound;
  });
  route('PATCH', `${R}/issues/comments/:cid`, (req) => {
    const comment = findIssueComment(req.params.cid ?? '');
    const body = (req.json as { body?: string } | undefined)?.body;
    if (!comment) return notFound;
    if (!body) return unprocessable;
    comment.body = body;
    return { json: comment };
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
      s.branches.map((name) => ({ ...ghFixture<object>('branch'), name })),
      smallPage,
    ),
  );
  route('GET', `${V3}/search/users`, (req) => {
    const q = (req.query.get('q') ?? '').split(' ')[0]?.toLowerCase() ?? '';
    const all = ghFixture<{ items: Array<{ login: string }> }>('search-users').items.filter((u) => u.login.includes(q));
    return { json: { total_count: all.length, incomplete_results: false, items: all } };
  });

  route('GET', `${V3}/app`, () => ({ json: ghFixture('app') }), 'jwt');
  route('GET', `${V3}/app/installations/:installation`, () => ({ json: ghFixture('installation') }), 'jwt');
  route(
    'POST',
    `${V3}/app/installations/:installation/access_tokens`,
    (req) => {
      if (Number(req.params.installation) !== options.app?.installationId) return notFound;
      const fixture = ghFixture<{ token: string }>('installation-token');
      const token = `${fixture.token}.${issuedTokens.length + 1}`;
      issuedTokens.push(token);
      return {
        status: 201,
        json: { ...fixture, token, expires_at: new Date(clock() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z') },
      };
    },
    'jwt',
  );

  /** A thread as GraphQL shows it: outdated once the file changed since the commit it was written on. */
  const gqlThread = (number: number, thread: FakeThread) => {
    const latest = history.pullRequests.get(number)?.revisions.at(-1);
    const isOutdated =
      latest !== undefined &&
      thread.commitId !== latest.headSha &&
      history.fileAt(thread.commitId, thread.path)?.blobId !== history.fileAt(latest.headSha, thread.path)?.blobId;
    const { commitId: _commit, startDiffSide, comments, ...rest } = thread;
    return {
      ...rest,
      isOutdated,
      startDiffSide,
      line: isOutdated ? null : thread.line,
      startLine: isOutdated ? null : thread.startLine,
      comments: {
        pageInfo: { hasNextPage: comments.nodes.length > 100, endCursor: '100' },
        nodes: comments.nodes.slice(0, 100).map(({ reviewId: _review, ...c }) => c),
      },
    };
  };

  route('POST', '/api/graphql', (req) => {
    const { query, variables } = req.json as { query: string; variables: Record<string, unknown> };
    const operation = /^(?:query|mutation)\s+(\w+)/.exec(query)?.[1];
    const allThreads = () => [...threadsByPull.values()].flat();
    if (operation === 'MarginReviewThreads') {
      if (variables.repository !== GH_REPOSITORY_NODE_ID) return { json: { data: { node: null } } };
      const number = Number(variables.number);
      if (!pullRequests.has(number)) {
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
      const threads = threadsOf(number);
      const start = typeof variables.after === 'string' ? Number(variables.after) : 0;
      const nodes = threads.slice(start, start + 100).map((t) => gqlThread(number, t));
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
      const thread = allThreads().find((t) => t.id === variables.thread);
      const start = Number(variables.after ?? 0);
      const nodes = thread?.comments.nodes.slice(start, start + 100).map(({ reviewId: _review, ...c }) => c) ?? [];
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
      const thread = allThreads().find((t) => t.id === variables.thread);
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
    threads: contractThreads,
    issuedTokens,
    writes,
    throttleNext() {
      server.interceptNext({
        status: 403,
        headers: {
          'retry-after': '1',
          'x-ratelimit-remaining': '4870',
          'x-github-request-id': '0C41:3B5E:1A2B3C:1D2E3F:6638F1A2',
        },
        json: ghFixture('error-secondary-rate-limit'),
      });
    },
    async loadPullRequest(scenario) {
      pullRequests.set(scenario.number, await scenarioPull(history.load(scenario)));
    },
    refuseThreadsOn(path) {
      refusedPaths.add(path);
    },
    close: () => server.close(),
  };
}

function isMutation(req: FakeRequest): boolean {
  const query = (req.json as { query?: unknown } | undefined)?.query;
  return typeof query === 'string' && /^\s*mutation\b/.test(query);
}
