import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import type { FakeHttpServer, FakeReply, FakeRequest } from '../../testing/fake-http-server.js';
import { fixtureSet } from '../../testing/fixtures.js';
import { ScenarioHistory } from '../../testing/scenario-history.js';
import changeEntriesJson from './__fixtures__/change-entries.json' with { type: 'json' };
import commitDiffsJson from './__fixtures__/commit-diffs.json' with { type: 'json' };
import connectionDataJson from './__fixtures__/connection-data.json' with { type: 'json' };
import entraInvalidClientJson from './__fixtures__/entra-invalid-client.json' with { type: 'json' };
import entraTokenJson from './__fixtures__/entra-token.json' with { type: 'json' };
import errorItemNotFoundJson from './__fixtures__/error-item-not-found.json' with { type: 'json' };
import errorPullRequestNotFoundJson from './__fixtures__/error-pull-request-not-found.json' with { type: 'json' };
import errorRateLimitedJson from './__fixtures__/error-rate-limited.json' with { type: 'json' };
import errorRepositoryNotFoundJson from './__fixtures__/error-repository-not-found.json' with { type: 'json' };
import errorStatusForbiddenJson from './__fixtures__/error-status-forbidden.json' with { type: 'json' };
import errorThreadRefusedJson from './__fixtures__/error-thread-refused.json' with { type: 'json' };
import identitiesJson from './__fixtures__/identities.json' with { type: 'json' };
import iterationsJson from './__fixtures__/iterations.json' with { type: 'json' };
import projectsJson from './__fixtures__/projects.json' with { type: 'json' };
import pullRequestJson from './__fixtures__/pull-request.json' with { type: 'json' };
import pullRequestStatusJson from './__fixtures__/pull-request-status.json' with { type: 'json' };
import repositoriesJson from './__fixtures__/repositories.json' with { type: 'json' };
import threadsJson from './__fixtures__/threads.json' with { type: 'json' };
import wikisJson from './__fixtures__/wikis.json' with { type: 'json' };
import type { AdoChangeEntry, AdoPullRequest, AdoThread } from './azure-devops-wire.js';

/** The recorded wire shapes every part serves. */
export const adoFixture = fixtureSet({
  'change-entries': changeEntriesJson,
  'commit-diffs': commitDiffsJson,
  'connection-data': connectionDataJson,
  'entra-invalid-client': entraInvalidClientJson,
  'entra-token': entraTokenJson,
  'error-item-not-found': errorItemNotFoundJson,
  'error-pull-request-not-found': errorPullRequestNotFoundJson,
  'error-rate-limited': errorRateLimitedJson,
  'error-repository-not-found': errorRepositoryNotFoundJson,
  'error-status-forbidden': errorStatusForbiddenJson,
  'error-thread-refused': errorThreadRefusedJson,
  identities: identitiesJson,
  iterations: iterationsJson,
  projects: projectsJson,
  'pull-request': pullRequestJson,
  'pull-request-status': pullRequestStatusJson,
  repositories: repositoriesJson,
  threads: threadsJson,
  wikis: wikisJson,
});

export const ADO_ORG = 'acme';
export const ADO_PROJECT = 'Web Platform';
export const ADO_REPOSITORY_ID = '5f1c8d2e-6a3b-4c7d-9e8f-0a1b2c3d4e5f';
export const ADO_MERGE_BASE = '3333333333333333333333333333333333333333';
const FIRST_ITERATION_HEAD = '5555555555555555555555555555555555555555';

/** The project's git routes, and the one repository's (any other repository is 404). */
export const P = `/${ADO_ORG}/:project/_apis/git`;
export const R = `${P}/repositories/:repo`;

export interface AzureDevOpsFakeOptions {
  pat: string;
  /** Client secret the fake Entra endpoint accepts. */
  clientSecret?: string;
  /** Page cap for projects and refs, small so continuation tokens are exercised. */
  smallPage?: number;
}

type Handler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;
type FixtureName = Parameters<typeof adoFixture>[0];

/** What every part of the Azure DevOps fake shares: its state, the service's checks on every call, and paging. */
export interface AzureDevOpsFakeContext {
  readonly server: FakeHttpServer;
  readonly options: AzureDevOpsFakeOptions;
  /** Pull requests loaded from scenarios: their pushes, files, contents and comparisons. */
  readonly history: ScenarioHistory;
  /** The recorded pull request every served pull request is made from. */
  readonly basePr: AdoPullRequest;
  /** By number: the contract scenario's three, and every loaded scenario. */
  readonly pullRequests: Map<number, AdoPullRequest>;
  /** The contract scenario's change entries and its contents (`sha:/path`). */
  readonly changes: AdoChangeEntry[];
  readonly contents: Map<string, string>;
  readonly threadsByPull: Map<number, AdoThread[]>;
  /** Files in which every new thread is refused with 400. */
  readonly refusedPaths: Set<string>;
  /** Bearer tokens the fake accepts (what its Entra endpoint issued). */
  readonly issuedTokens: string[];
  threadsOf(number: number): AdoThread[];
  /** Adds an `_apis` route behind the service's checks: credentials, then `api-version`, project and repository. */
  route(method: string, path: string, handler: Handler, versioned?: boolean): void;
  /** The pull request `:id` names, if the fake serves it in its repository. */
  pr(req: FakeRequest): AdoPullRequest | undefined;
  /** The page size a request asks for (`$top`), at most `cap`. */
  top(req: FakeRequest, cap: number): number;
}

export const notFound = (name: FixtureName): FakeReply => ({ status: 404, json: adoFixture(name) });

export function createAzureDevOpsFakeContext(
  server: FakeHttpServer,
  options: AzureDevOpsFakeOptions,
): AzureDevOpsFakeContext {
  const s = SCM_CONTRACT_SCENARIO;
  const issuedTokens: string[] = [];
  const basePr = adoFixture<AdoPullRequest>('pull-request');
  const pullRequests = contractPullRequests(basePr);
  const threadsByPull = new Map<number, AdoThread[]>([
    [s.pullRequest.number, adoFixture<{ value: AdoThread[] }>('threads').value],
  ]);
  const authorized = (req: FakeRequest) => {
    const header = req.headers.authorization ?? '';
    if (header === `Basic ${Buffer.from(`:${options.pat}`).toString('base64')}`) return true;
    return header.startsWith('Bearer ') && issuedTokens.includes(header.slice(7));
  };

  return {
    server,
    options,
    history: new ScenarioHistory(),
    basePr,
    pullRequests,
    changes: contractChanges(),
    contents: contractContents(),
    threadsByPull,
    refusedPaths: new Set(),
    issuedTokens,
    threadsOf(number) {
      let list = threadsByPull.get(number);
      if (!list) {
        list = [];
        threadsByPull.set(number, list);
      }
      return list;
    },
    route(method, path, handler, versioned = true) {
      server.on(method, path, (req) => {
        if (!authorized(req)) {
          return {
            status: 401,
            headers: { 'www-authenticate': 'Basic realm="https://dev.azure.com/"', 'x-tfs-processid': 'fake' },
            text: 'Access Denied: The Personal Access Token used has expired.',
          };
        }
        if (versioned && !req.query.get('api-version')) return apiVersionMissing();
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
          return notFound('error-repository-not-found');
        return handler(req);
      });
    },
    pr(req) {
      const found = pullRequests.get(Number(req.params.id));
      return found?.repository.id === ADO_REPOSITORY_ID ? found : undefined;
    },
    top: (req, cap) => Math.min(Number(req.query.get('$top') ?? cap), cap),
  };
}

function apiVersionMissing(): FakeReply {
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

/** The contract scenario's pull request, another active one, and a completed one. */
function contractPullRequests(basePr: AdoPullRequest): Map<number, AdoPullRequest> {
  const s = SCM_CONTRACT_SCENARIO;
  return new Map<number, AdoPullRequest>([
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
}

function contractChanges(): AdoChangeEntry[] {
  const s = SCM_CONTRACT_SCENARIO;
  const templates = adoFixture<Record<string, AdoChangeEntry>>('change-entries');
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
  return changes;
}

function contractContents(): Map<string, string> {
  const s = SCM_CONTRACT_SCENARIO;
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
  return contents;
}
