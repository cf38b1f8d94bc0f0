import { createPublicKey, verify } from 'node:crypto';
import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import type { FakeHttpServer, FakeReply, FakeRequest } from '../../testing/fake-http-server.js';
import { fixtureSet } from '../../testing/fixtures.js';
import { ScenarioHistory } from '../../testing/scenario-history.js';
import appJson from './__fixtures__/app.json' with { type: 'json' };
import botUserJson from './__fixtures__/bot-user.json' with { type: 'json' };
import branchJson from './__fixtures__/branch.json' with { type: 'json' };
import commitStatusJson from './__fixtures__/commit-status.json' with { type: 'json' };
import errorBadCredentialsJson from './__fixtures__/error-bad-credentials.json' with { type: 'json' };
import errorNotFoundJson from './__fixtures__/error-not-found.json' with { type: 'json' };
import errorResourceNotAccessibleJson from './__fixtures__/error-resource-not-accessible.json' with { type: 'json' };
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
  GhUser,
  GqlActor,
  GqlComment,
  GqlReviewThread,
} from './github-wire.js';

/** The recorded wire shapes every part serves. */
export const ghFixture = fixtureSet({
  app: appJson,
  'bot-user': botUserJson,
  branch: branchJson,
  'commit-status': commitStatusJson,
  'error-bad-credentials': errorBadCredentialsJson,
  'error-not-found': errorNotFoundJson,
  'error-resource-not-accessible': errorResourceNotAccessibleJson,
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

export const V3 = '/api/v3';
/** The one repository the fake serves, by id; any other id is 404. */
export const R = `${V3}/repositories/:id`;

export interface GitHubFakeOptions {
  pat: string;
  app?: { id: number; installationId: number; publicKeyPem: string } | undefined;
  /** Page cap for branches and repositories, small so `Link` paging is exercised. */
  smallPage?: number;
  /** The fake's clock for JWT checks and token expiry. Default `Date.now`. */
  now?: () => number;
}

export type FakeComment = GqlComment & { reviewId?: number | undefined };
export type FakeThread = Omit<GqlReviewThread, 'comments'> & {
  commitId: string;
  startDiffSide: 'LEFT' | 'RIGHT' | null;
  comments: { pageInfo: GqlReviewThread['comments']['pageInfo']; nodes: FakeComment[] };
};

type Handler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

/** What every part of the GitHub fake shares: its state, GitHub's checks on every call, and paging. */
export interface GitHubFakeContext {
  readonly server: FakeHttpServer;
  readonly options: GitHubFakeOptions;
  readonly clock: () => number;
  /** Pull requests loaded from scenarios: their commits, files, contents and comparisons. */
  readonly history: ScenarioHistory;
  readonly repository: GhRepository;
  /** The recorded pull request every served pull request is made from. */
  readonly basePr: GhPullRequest;
  /** By number: the contract scenario's three, and every loaded scenario. */
  readonly pullRequests: Map<number, GhPullRequest>;
  /** The contract scenario's changed files and their contents (`sha:path`). */
  readonly files: GhPullRequestFile[];
  readonly contents: Map<string, string>;
  readonly threadsByPull: Map<number, FakeThread[]>;
  readonly issueComments: Map<number, GhIssueComment[]>;
  /** Files in which every new review comment is refused with 422. */
  readonly refusedPaths: Set<string>;
  /** Installation tokens handed out, in order. */
  readonly issuedTokens: string[];
  threadsOf(number: number): FakeThread[];
  issueCommentsOf(number: number): GhIssueComment[];
  nextId(): number;
  /** Adds a route behind GitHub's checks: a User-Agent, then a token (or an App JWT), then the repository id. */
  route(method: string, path: string, handler: Handler, auth?: 'token' | 'jwt'): void;
  /** One page of a list with GitHub's `Link` header. */
  paged<T>(req: FakeRequest, all: readonly T[], cap?: number): FakeReply;
  /** The pull request `:n` names, if the fake serves it. */
  pr(req: FakeRequest): GhPullRequest | undefined;
  /** Who GitHub says wrote a comment: the PAT's user, or the App's bot for installation tokens. */
  authorOf(req: FakeRequest): GqlActor;
  /** A comment's author as REST shows it. */
  restUser(actor: GqlActor | null): GhUser;
}

export const notFound = (): FakeReply => ({ status: 404, json: ghFixture('error-not-found') });
export const unprocessable = (): FakeReply => ({ status: 422, json: ghFixture('error-validation-failed') });

const PAT_AUTHOR: GqlActor = {
  __typename: 'User',
  login: 'margin-bot',
  databaseId: 7310001,
  name: 'Margin Review Bot',
};
const APP_AUTHOR: GqlActor = { __typename: 'Bot', login: 'margin-review', databaseId: 7310002 };

export function createGitHubFakeContext(server: FakeHttpServer, options: GitHubFakeOptions): GitHubFakeContext {
  const clock = options.now ?? Date.now;
  const issuedTokens: string[] = [];
  const jwtValid = appJwtCheck(options, clock);
  const badCredentials: FakeReply = { status: 401, json: ghFixture('error-bad-credentials') };
  const authorized = (req: FakeRequest) => {
    const header = req.headers.authorization ?? '';
    return (
      header === `Bearer ${options.pat}` || (header.startsWith('Bearer ') && issuedTokens.includes(header.slice(7)))
    );
  };
  const basePr = ghFixture<GhPullRequest>('pull-request');
  const pullRequests = contractPullRequests(basePr);
  const threadsByPull = new Map<number, FakeThread[]>();
  const issueComments = new Map<number, GhIssueComment[]>([
    [SCM_CONTRACT_SCENARIO.pullRequest.number, [ghFixture<GhIssueComment>('issue-comment')]],
  ]);
  let nextId = 1_600_000_100;

  const context: GitHubFakeContext = {
    server,
    options,
    clock,
    history: new ScenarioHistory(),
    repository: ghFixture<GhRepository>('repository'),
    basePr,
    pullRequests,
    files: contractFiles(),
    contents: contractContents(),
    threadsByPull,
    issueComments,
    refusedPaths: new Set(),
    issuedTokens,
    threadsOf: (number) => listIn(threadsByPull, number),
    issueCommentsOf: (number) => listIn(issueComments, number),
    nextId: () => nextId++,
    route(method, path, handler, auth = 'token') {
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
        if ('id' in req.params && req.params.id !== GH_REPOSITORY_ID) return notFound();
        return handler(req);
      });
    },
    paged: (req, all, cap) => pagedReply(server.url, req, all, cap),
    pr: (req) => pullRequests.get(Number(req.params.n)),
    authorOf: (req) => (req.headers.authorization === `Bearer ${options.pat}` ? PAT_AUTHOR : APP_AUTHOR),
    restUser: (actor) =>
      actor?.__typename === 'Bot'
        ? ghFixture<GhUser>('bot-user')
        : { ...ghFixture<GhUser>('user'), id: actor?.databaseId ?? 0, login: actor?.login ?? 'ghost' },
  };
  context.threadsOf(SCM_CONTRACT_SCENARIO.pullRequest.number).push(...contractThreads());
  return context;
}

function listIn<T>(map: Map<number, T[]>, number: number): T[] {
  let list = map.get(number);
  if (!list) {
    list = [];
    map.set(number, list);
  }
  return list;
}

function pagedReply<T>(origin: string, req: FakeRequest, all: readonly T[], cap = 100): FakeReply {
  const perPage = Math.min(Number(req.query.get('per_page') ?? 30), cap);
  const page = Number(req.query.get('page') ?? 1);
  const items = all.slice((page - 1) * perPage, page * perPage);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const link = (p: number) => {
    const url = new URL(`${origin}${req.path}`);
    for (const [k, v] of req.query) url.searchParams.set(k, v);
    url.searchParams.set('page', String(p));
    return url.toString();
  };
  const links: string[] = [];
  if (page < last) links.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
  if (page > 1) links.push(`<${link(1)}>; rel="first"`, `<${link(page - 1)}>; rel="prev"`);
  return { headers: links.length ? { link: links.join(', ') } : {}, json: items };
}

/** An App JWT is valid when the App's key signed it, it names the App, and it lives at most ten minutes. */
function appJwtCheck(options: GitHubFakeOptions, clock: () => number): (req: FakeRequest) => boolean {
  const appKey = options.app ? createPublicKey(options.app.publicKeyPem) : undefined;
  return (req) => {
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
}

/** The contract scenario's pull request, another open one, and a closed one. */
function contractPullRequests(basePr: GhPullRequest): Map<number, GhPullRequest> {
  const s = SCM_CONTRACT_SCENARIO;
  return new Map<number, GhPullRequest>([
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
}

function contractFiles(): GhPullRequestFile[] {
  const s = SCM_CONTRACT_SCENARIO;
  const templates = ghFixture<Record<string, GhPullRequestFile>>('pull-request-files');
  return s.changedFiles.map((file) => {
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
}

function contractContents(): Map<string, string> {
  const s = SCM_CONTRACT_SCENARIO;
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
  return contents;
}

function contractThreads(): FakeThread[] {
  const recorded = ghFixture<{
    data: { node: { pullRequest: { reviewThreads: { nodes: GqlReviewThread[] } } } };
  }>('graphql-review-threads').data.node.pullRequest.reviewThreads.nodes;
  return recorded.map((thread) => ({
    ...thread,
    commitId: SCM_CONTRACT_SCENARIO.pullRequest.headSha,
    startDiffSide: null,
  }));
}
