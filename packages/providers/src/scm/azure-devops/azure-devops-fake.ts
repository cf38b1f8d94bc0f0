/**
 * Test support (exported from `@margin/providers/testing`): a stateful Azure DevOps fake on a
 * loopback socket that serves `SCM_CONTRACT_SCENARIO` in Azure DevOps' wire shapes, built from the
 * recorded-shape fixtures in `__fixtures__/`. It pages like the service (`$top`/`$skip` with
 * `nextSkip`/`nextTop`, and `x-ms-continuationtoken`), insists on `api-version`, answers 401 to unknown
 * credentials, 404 with Azure DevOps' error bodies, and 429 with `Retry-After` on demand.
 *
 * `loadPullRequest(scenario)` adds a pull request described by file versions (or pushes a new head:
 * one more iteration): iterations, iteration changes with stable change-tracking ids and blob object
 * ids, items at every head, base and branch tip, and `diffs/commits`. Threads are kept per pull
 * request with their property bag; like Azure DevOps, the fake takes a comment on any line.
 * `loadRepositoryCommit(commit)` serves a whole commit of another repository (the project wiki's, the
 * code wiki's) by refs, recursive items listing and items, beside the project's wikis (`wikis.json`).
 * `refuseThreadsOn(path)` answers 400 for threads in that file (the error body's message is ours, its
 * envelope Azure DevOps').
 *
 * One part per concern, as the adapter has them, over a shared context (`azure-devops-fake-context.ts`).
 */
import { type PullRequestScenario, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { type CommitStatusBoard, isStatusWrite } from '../../testing/commit-statuses.js';
import { type AnsweredWrite, type FakeHttpServer, startFakeHttpServer } from '../../testing/fake-http-server.js';
import {
  ADO_ORG,
  type AzureDevOpsFakeOptions,
  adoFixture,
  createAzureDevOpsFakeContext,
} from './azure-devops-fake-context.js';

export {
  ADO_CODE_WIKI_REPOSITORY_ID,
  ADO_WIKI_REPOSITORY_ID,
  type AdoRepositoryCommit,
} from './azure-devops-fake-wikis.js';

import { serveDiffs } from './azure-devops-fake-diffs.js';
import { serveDiscovery } from './azure-devops-fake-discovery.js';
import { serveEntra } from './azure-devops-fake-entra.js';
import { scenarioPullRequest, servePullRequests } from './azure-devops-fake-pull-requests.js';
import { serveStatuses } from './azure-devops-fake-statuses.js';
import { serveThreads } from './azure-devops-fake-threads.js';
import { type AdoRepositoryCommit, serveWikis } from './azure-devops-fake-wikis.js';
import type { AdoThread } from './azure-devops-wire.js';

export {
  ADO_MERGE_BASE,
  ADO_ORG,
  ADO_PROJECT,
  ADO_REPOSITORY_ID,
  type AzureDevOpsFakeOptions,
} from './azure-devops-fake-context.js';

export interface AzureDevOpsFake extends CommitStatusBoard {
  server: FakeHttpServer;
  /** `http://127.0.0.1:<port>/acme`: hostBaseUrl and scope path. */
  orgUrl: string;
  /** Threads of the contract scenario's pull request. */
  threads: AdoThread[];
  /** Bearer tokens the fake accepts (what its Entra endpoint issued). */
  issuedTokens: string[];
  /** Every write received (Entra token requests and statuses left out), in order, with its answer's status. */
  writes: AnsweredWrite[];
  throttleNext(): void;
  /** Serves a pull request from file versions; loading the same number with a new head is a push (a new iteration). */
  loadPullRequest(scenario: PullRequestScenario): Promise<void>;
  /** Serves a whole commit of a repository other than the contract one and moves its branch there. */
  loadRepositoryCommit(commit: AdoRepositoryCommit): void;
  /** From now on every new thread anchored in this file is refused with 400. */
  refuseThreadsOn(path: string): void;
  close(): Promise<void>;
}

export async function startAzureDevOpsFake(options: AzureDevOpsFakeOptions): Promise<AzureDevOpsFake> {
  const server = await startFakeHttpServer();
  const writes = server.recordWrites((req) => req.path.endsWith('/oauth2/v2.0/token') || isStatusWrite(req));
  const fake = createAzureDevOpsFakeContext(server, options);
  servePullRequests(fake);
  serveDiffs(fake);
  serveThreads(fake);
  serveDiscovery(fake);
  serveEntra(fake);
  const wikis = serveWikis(fake);
  const statuses = serveStatuses(fake);

  return {
    server,
    orgUrl: `${server.url}/${ADO_ORG}`,
    threads: fake.threadsOf(SCM_CONTRACT_SCENARIO.pullRequest.number),
    issuedTokens: fake.issuedTokens,
    writes,
    statuses: statuses.statuses,
    refuseStatuses: statuses.refuseStatuses,
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
        json: adoFixture('error-rate-limited'),
      });
    },
    async loadPullRequest(scenario) {
      fake.pullRequests.set(scenario.number, scenarioPullRequest(fake.basePr, fake.history.load(scenario)));
    },
    loadRepositoryCommit: (commit) => wikis.loadRepositoryCommit(commit),
    refuseThreadsOn(path) {
      fake.refusedPaths.add(path);
    },
    close: () => server.close(),
  };
}
