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
 *
 * One part per concern, as the adapter has them, over a shared context (`github-fake-context.ts`).
 */
import { type PullRequestScenario, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { type CommitStatusBoard, isStatusWrite } from '../../testing/commit-statuses.js';
import {
  type AnsweredWrite,
  type FakeHttpServer,
  type FakeRequest,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';
import { serveApp } from './github-fake-app.js';
import { createGitHubFakeContext, type GitHubFakeOptions, ghFixture } from './github-fake-context.js';
import { serveDiffs } from './github-fake-diffs.js';
import { serveDiscovery } from './github-fake-discovery.js';
import { serveGraphql } from './github-fake-graphql.js';
import { scenarioPullRequest, servePullRequests } from './github-fake-pull-requests.js';
import { serveStatuses } from './github-fake-statuses.js';
import { serveThreads } from './github-fake-threads.js';
import { type FakeRepositoryCommit, serveTrees } from './github-fake-trees.js';
import type { GqlComment, GqlReviewThread } from './github-wire.js';

export {
  GH_FILE_WITHOUT_PATCH,
  GH_MAX_COMPARE_FILES,
  GH_MAX_PULL_REQUEST_FILES,
  GH_MERGE_BASE,
  GH_OWNER,
  GH_REPOSITORY_ID,
  GH_REPOSITORY_NODE_ID,
  type GitHubFakeOptions,
} from './github-fake-context.js';
export { type FakeRepositoryCommit, gitBlobId } from './github-fake-trees.js';

export interface GitHubFake extends CommitStatusBoard {
  server: FakeHttpServer;
  /** `http://127.0.0.1:<port>`: the connection's hostBaseUrl (a GitHub Enterprise Server). */
  hostUrl: string;
  /** Review threads of the contract scenario's pull request. */
  threads: Array<GqlReviewThread & { comments: { nodes: GqlComment[] } }>;
  issuedTokens: string[];
  /** Every write received (GraphQL queries, token exchanges and statuses left out), in order, with its answer's status. */
  writes: AnsweredWrite[];
  throttleNext(): void;
  /** Serves a pull request from file versions; loading the same number with a new head is a push. */
  loadPullRequest(scenario: PullRequestScenario): Promise<void>;
  /** From now on every new review comment anchored in this file is refused with 422. */
  refuseThreadsOn(path: string): void;
  /** Serves a whole-repository commit (tree, contents) and moves its branch to it, for the code-knowledge indexer. */
  loadRepositoryCommit(commit: FakeRepositoryCommit): void;
  /** Recursive tree listings longer than this come back `truncated: true` (`undefined`: never). */
  truncateTreesOver(entries: number | undefined): void;
  close(): Promise<void>;
}

export async function startGitHubFake(options: GitHubFakeOptions): Promise<GitHubFake> {
  const server = await startFakeHttpServer();
  const writes = server.recordWrites(
    (req) =>
      req.path.endsWith('/access_tokens') || isStatusWrite(req) || (req.path === '/api/graphql' && !isMutation(req)),
  );
  const fake = createGitHubFakeContext(server, options);
  servePullRequests(fake);
  serveDiffs(fake);
  serveThreads(fake);
  serveDiscovery(fake);
  serveApp(fake);
  serveGraphql(fake);
  const statuses = serveStatuses(fake);
  const trees = serveTrees(fake);

  return {
    server,
    hostUrl: server.url,
    threads: fake.threadsOf(SCM_CONTRACT_SCENARIO.pullRequest.number),
    issuedTokens: fake.issuedTokens,
    writes,
    statuses: statuses.statuses,
    refuseStatuses: statuses.refuseStatuses,
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
      fake.pullRequests.set(scenario.number, await scenarioPullRequest(fake.basePr, fake.history.load(scenario)));
    },
    refuseThreadsOn(path) {
      fake.refusedPaths.add(path);
    },
    loadRepositoryCommit: (commit) => trees.loadRepositoryCommit(commit),
    truncateTreesOver: (entries) => trees.truncateTreesOver(entries),
    close: () => server.close(),
  };
}

function isMutation(req: FakeRequest): boolean {
  const query = (req.json as { query?: unknown } | undefined)?.query;
  return typeof query === 'string' && /^\s*mutation\b/.test(query);
}
