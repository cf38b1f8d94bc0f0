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
 * `refuseThreadsOn(path)` answers 400 for threads in that file (the error body's message is ours, its
 * envelope Azure DevOps').
 */
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
  type FileChange,
  type LoadedPullRequest,
  pathOf,
  previousPathOf,
  ScenarioHistory,
  type ScenarioRevision,
} from '../../testing/scenario-history.js';
import changeEntriesJson from './__fixtures__/change-entries.json' with { type: 'json' };
import commitDiffsJson from './__fixtures__/commit-diffs.json' with { type: 'json' };
import connectionDataJson from './__fixtures__/connection-data.json' with { type: 'json' };
import entraInvalidClientJson from './__fixtures__/entra-invalid-client.json' with { type: 'json' };
import entraTokenJson from './__fixtures__/entra-token.json' with { type: 'json' };
import errorItemNotFoundJson from './__fixtures__/error-item-not-found.json' with { type: 'json' };
import errorPullRequestNotFoundJson from './__fixtures__/error-pull-request-not-found.json' with { type: 'json' };
import errorRateLimitedJson from './__fixtures__/error-rate-limited.json' with { type: 'json' };
import errorRepositoryNotFoundJson from './__fixtures__/error-repository-not-found.json' with { type: 'json' };
import errorThreadRefusedJson from './__fixtures__/error-thread-refused.json' with { type: 'json' };
import identitiesJson from './__fixtures__/identities.json' with { type: 'json' };
import iterationsJson from './__fixtures__/iterations.json' with { type: 'json' };
import projectsJson from './__fixtures__/projects.json' with { type: 'json' };
import pullRequestJson from './__fixtures__/pull-request.json' with { type: 'json' };
import repositoriesJson from './__fixtures__/repositories.json' with { type: 'json' };
import threadsJson from './__fixtures__/threads.json' with { type: 'json' };
import type {
  AdoChangeEntry,
  AdoComment,
  AdoIteration,
  AdoPullRequest,
  AdoThread,
  AdoThreadContext,
} from './azure-devops-wire.js';

const adoFixture = fixtureSet({
  'change-entries': changeEntriesJson,
  'commit-diffs': commitDiffsJson,
  'connection-data': connectionDataJson,
  'entra-invalid-client': entraInvalidClientJson,
  'entra-token': entraTokenJson,
  'error-item-not-found': errorItemNotFoundJson,
  'error-pull-request-not-found': errorPullRequestNotFoundJson,
  'error-rate-limited': errorRateLimitedJson,
  'error-repository-not-found': errorRepositoryNotFoundJson,
  'error-thread-refused': errorThreadRefusedJson,
  identities: identitiesJson,
  iterations: iterationsJson,
  projects: projectsJson,
  'pull-request': pullRequestJson,
  repositories: repositoriesJson,
  threads: threadsJson,
});

export const ADO_ORG = 'acme';
export const ADO_PROJECT = 'Web Platform';
export const ADO_REPOSITORY_ID = '5f1c8d2e-6a3b-4c7d-9e8f-0a1b2c3d4e5f';
export const ADO_MERGE_BASE = '3333333333333333333333333333333333333333';
const FIRST_ITERATION_HEAD = '5555555555555555555555555555555555555555';

export interface AzureDevOpsFake {
  server: FakeHttpServer;
  /** `http://127.0.0.1:<port>/acme`: hostBaseUrl and scope path. */
  orgUrl: string;
  /** Threads of the contract scenario's pull request. */
  threads: AdoThread[];
  /** Bearer tokens the fake accepts (what its Entra endpoint issued). */
  issuedTokens: string[];
  /** Every write received (Entra token requests left out), in order, with its answer's status. */
  writes: AnsweredWrite[];
  throttleNext(): void;
  /** Serves a pull request from file versions; loading the same number with a new head is a push (a new iteration). */
  loadPullRequest(scenario: PullRequestScenario): Promise<void>;
  /** From now on every new thread anchored in this file is refused with 400. */
  refuseThreadsOn(path: string): void;
  close(): Promise<void>;
}

/** Who the fake says wrote what the adapter posts: the identity `connectionData` names. */
const BOT = {
  id: '8c4a5b7e-1f2d-4e3c-9a8b-7c6d5e4f3a2b',
  displayName: 'Margin Review Bot',
  uniqueName: 'margin-bot@acme.example',
};

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
  const history = new ScenarioHistory();
  const refusedPaths = new Set<string>();
  const writes = server.recordWrites((req) => req.path.endsWith('/oauth2/v2.0/token'));

  const basePr = adoFixture<AdoPullRequest>('pull-request');
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

  const threads = adoFixture<{ value: AdoThread[] }>('threads').value;
  const threadsByPull = new Map<number, AdoThread[]>([[s.pullRequest.number, threads]]);
  const threadsOf = (number: number) => {
    let list = threadsByPull.get(number);
    if (!list) {
      list = [];
      threadsByPull.set(number, list);
    }
    return list;
  };
  const findThread = (req: FakeRequest) =>
    threadsByPull.get(Number(req.params.id))?.find((t) => String(t.id) === req.params.thread);
  let nextThreadId = 1000;

  /** Azure DevOps keeps a file's change-tracking id across iterations of a pull request. */
  const trackingIds = new Map<number, Map<string, number>>();
  const trackingIdOf = (number: number, path: string) => {
    let ids = trackingIds.get(number);
    if (!ids) {
      ids = new Map();
      trackingIds.set(number, ids);
    }
    let id = ids.get(path);
    if (id === undefined) {
      id = ids.size + 1;
      ids.set(path, id);
    }
    return id;
  };
  const changeTypeOf = (change: FileChange) => {
    if (change.changeType === 'added') return 'add';
    if (change.changeType === 'deleted') return 'delete';
    if (change.changeType === 'modified') return 'edit';
    return change.old?.blobId === change.new?.blobId ? 'rename' : 'edit, rename';
  };
  const itemOf = (change: FileChange) => ({
    ...(change.new ? { objectId: change.new.blobId } : {}),
    ...(change.old ? { originalObjectId: change.old.blobId } : {}),
    path: `/${pathOf(change)}`,
  });
  const changeEntryOf = (number: number, change: FileChange, index: number): AdoChangeEntry => {
    const previousPath = previousPathOf(change);
    return {
      changeTrackingId: trackingIdOf(number, pathOf(change)),
      changeId: index + 1,
      item: itemOf(change),
      changeType: changeTypeOf(change),
      ...(previousPath ? { originalPath: `/${previousPath}` } : {}),
    };
  };
  const scenarioPull = (pull: LoadedPullRequest): AdoPullRequest => {
    const { scenario } = pull;
    const latest = pull.revisions.at(-1) as ScenarioRevision;
    const status = { open: 'active', closed: 'abandoned', merged: 'completed' }[scenario.status ?? 'open'];
    return {
      ...basePr,
      pullRequestId: scenario.number,
      title: scenario.title,
      description: scenario.description,
      status,
      isDraft: scenario.isDraft ?? false,
      sourceRefName: `refs/heads/${scenario.sourceBranch}`,
      targetRefName: `refs/heads/${scenario.targetBranch}`,
      lastMergeSourceCommit: { commitId: latest.headSha },
      lastMergeTargetCommit: { commitId: latest.baseSha },
      reviewers: [],
    };
  };
  const iterationsOf = (pull: LoadedPullRequest): AdoIteration[] =>
    pull.revisions.map((r, i) => {
      const date = new Date(Date.UTC(2026, 4, 5, 12, i)).toISOString();
      return {
        id: i + 1,
        description: pull.scenario.title,
        author: basePr.createdBy,
        createdDate: date,
        updatedDate: date,
        sourceRefCommit: { commitId: r.headSha },
        targetRefCommit: { commitId: r.baseSha },
        commonRefCommit: { commitId: r.mergeBaseSha },
        hasMoreCommits: false,
        reason: i === 0 ? 'create' : r.rewritten ? 'forcePush' : 'push',
      } as AdoIteration;
    });

  const authorized = (req: FakeRequest) => {
    const header = req.headers.authorization ?? '';
    if (header === `Basic ${Buffer.from(`:${options.pat}`).toString('base64')}`) return true;
    return header.startsWith('Bearer ') && issuedTokens.includes(header.slice(7));
  };

  const notFound = (name: Parameters<typeof adoFixture>[0]): FakeReply => ({ status: 404, json: adoFixture(name) });

  /** Every `_apis` route: credentials first, then `api-version`, as the service checks them. */
  const route = (
    method: string,
    path: string,
    handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>,
    versioned = true,
  ) => {
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
      if ('repo' in req.params && req.params.repo !== ADO_REPOSITORY_ID) return notFound('error-repository-not-found');
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

  route('GET', `/${ADO_ORG}/_apis/connectionData`, () => ({ json: adoFixture('connection-data') }), false);

  route('GET', `/${ADO_ORG}/_apis/projects`, (req) => {
    const all = adoFixture<{ value: unknown[] }>('projects').value;
    const start = Number(req.query.get('continuationToken') ?? 0);
    const size = top(req, smallPage);
    const value = all.slice(start, start + size);
    const headers: Record<string, string> = {};
    if (start + size < all.length) headers['x-ms-continuationtoken'] = String(start + size);
    return { headers, json: { count: value.length, value } };
  });

  route('GET', `${P}/repositories`, () => ({ json: adoFixture('repositories') }));

  route('GET', `${R}/pullRequests/:id`, (req) => {
    const found = pr(req);
    return found ? { json: found } : notFound('error-pull-request-not-found');
  });

  route('GET', `${R}/pullRequests/:id/iterations`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    const scenario = history.pullRequests.get(found.pullRequestId);
    if (scenario) {
      const value = iterationsOf(scenario);
      return { json: { value, count: value.length } };
    }
    const fixture = adoFixture<{ value: Array<{ sourceRefCommit: { commitId: string } }> }>('iterations');
    const last = fixture.value.at(-1);
    if (last && found.lastMergeSourceCommit) last.sourceRefCommit.commitId = found.lastMergeSourceCommit.commitId;
    return { json: fixture };
  });

  route('GET', `${R}/pullRequests/:id/iterations/:iteration/changes`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    let all = changes;
    const scenario = history.pullRequests.get(found.pullRequestId);
    if (scenario) {
      const revision = scenario.revisions[Number(req.params.iteration) - 1];
      if (!revision) return { status: 404, json: { message: 'TF401181: The requested iteration was not found.' } };
      const compareTo = scenario.revisions[Number(req.query.get('$compareTo') ?? 0) - 1];
      const listed = compareTo
        ? (history.compare(compareTo.headSha, revision.headSha)?.changes ?? [])
        : revision.changes;
      all = listed.map((change, i) => changeEntryOf(found.pullRequestId, change, i));
    }
    const skip = Number(req.query.get('$skip') ?? 0);
    const size = top(req, 100);
    const changeEntries = all.slice(skip, skip + size);
    const more = skip + size < all.length;
    return { json: { changeEntries, nextSkip: more ? skip + size : 0, nextTop: more ? size : 0 } };
  });

  route('GET', `${R}/items`, (req) => {
    const path = req.query.get('path') ?? '';
    const version = req.query.get('versionDescriptor.version') ?? '';
    const versionType = req.query.get('versionDescriptor.versionType');
    if (versionType !== 'commit' && versionType !== 'branch') return { status: 400, json: { message: 'versionType' } };
    const text = versionType === 'commit' ? contents.get(`${version}:${path}`) : undefined;
    const relative = path.replace(/^\/+/, '');
    const bytes =
      text !== undefined
        ? Buffer.from(text)
        : history.fileAt(versionType === 'commit' ? version : { branch: version }, relative)?.bytes;
    if (bytes === undefined) return notFound('error-item-not-found');
    return { headers: { 'content-type': 'application/octet-stream' }, text: bytes.toString('utf8') };
  });

  route('GET', `${R}/diffs/commits`, (req) => {
    const base = req.query.get('baseVersion') ?? '';
    const target = req.query.get('targetVersion') ?? '';
    const comparison = history.compare(base, target);
    if (!comparison) {
      return {
        status: 404,
        json: {
          message: `TF401175: The version descriptor <Commit: ${base}> could not be resolved to a version in the repository.`,
          typeKey: 'GitUnresolvableToCommitException',
        },
      };
    }
    // `diffCommonCommit=true` diffs from the common commit instead of the base.
    const fromCommon = req.query.get('diffCommonCommit') === 'true' && comparison.mergeBaseSha !== base;
    const all = fromCommon ? (history.compare(comparison.mergeBaseSha, target)?.changes ?? []) : comparison.changes;
    const skip = Number(req.query.get('$skip') ?? 0);
    const size = top(req, 100);
    const page = all.slice(skip, skip + size);
    const counts: Record<string, number> = {};
    for (const change of all) {
      const kind = { added: 'Add', deleted: 'Delete', modified: 'Edit', renamed: 'Rename' }[change.changeType];
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    const relation = comparison.relation;
    return {
      json: {
        ...adoFixture<object>('commit-diffs'),
        allChangesIncluded: skip + size >= all.length,
        changeCounts: counts,
        changes: page.map((change) => {
          const previousPath = previousPathOf(change);
          return {
            item: { ...itemOf(change), gitObjectType: 'blob', commitId: target },
            changeType: changeTypeOf(change),
            ...(previousPath ? { sourceServerItem: `/${previousPath}` } : {}),
          };
        }),
        commonCommit: comparison.mergeBaseSha,
        baseCommit: base,
        targetCommit: target,
        aheadCount: relation === 'ahead' || relation === 'diverged' ? 1 : 0,
        behindCount: relation === 'behind' || relation === 'diverged' ? 1 : 0,
      },
    };
  });

  route('GET', `${R}/pullRequests/:id/threads`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    const value = threadsOf(found.pullRequestId);
    return { json: { value, count: value.length } };
  });

  /** Azure DevOps takes a comment on any line; it refuses a malformed position (and the files a test names). */
  const refused = (context: AdoThreadContext | null | undefined) => {
    if (!context) return false;
    const positions = [context.rightFileStart, context.rightFileEnd, context.leftFileStart, context.leftFileEnd];
    return (
      !context.filePath.startsWith('/') ||
      refusedPaths.has(context.filePath.slice(1)) ||
      positions.some((p) => p && (p.line < 1 || p.offset < 1))
    );
  };

  route('POST', `${R}/pullRequests/:id/threads`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    const body = req.json as Partial<AdoThread> & { comments: Array<Partial<AdoComment>> };
    if (refused(body.threadContext)) return { status: 400, json: adoFixture('error-thread-refused') };
    const now = new Date().toISOString();
    const id = nextThreadId++;
    const thread: AdoThread = {
      id,
      status: body.status ?? 'active',
      threadContext: body.threadContext ?? null,
      pullRequestThreadContext: body.pullRequestThreadContext ?? null,
      // Azure DevOps adds its own properties next to the ones it was sent.
      properties: {
        'Microsoft.TeamFoundation.Discussion.SupportsMarkdown': { $type: 'System.Int32', $value: 1 },
        'Microsoft.TeamFoundation.Discussion.UniqueID': {
          $type: 'System.String',
          $value: `0b1c2d3e-4f5a-4b6c-8d9e-${String(id).padStart(12, '0')}`,
        },
        ...body.properties,
      },
      isDeleted: false,
      comments: body.comments.map((c, i) => ({
        id: i + 1,
        parentCommentId: c.parentCommentId ?? 0,
        author: BOT,
        content: c.content ?? '',
        commentType: c.commentType ?? 'text',
        publishedDate: now,
      })),
    };
    threadsOf(found.pullRequestId).push(thread);
    return { json: thread };
  });

  route('PATCH', `${R}/pullRequests/:id/threads/:thread/comments/:comment`, (req) => {
    const comment = findThread(req)?.comments.find((c) => String(c.id) === req.params.comment);
    if (!comment) return { status: 404, json: { message: 'TF401182: The requested comment was not found.' } };
    const content = (req.json as { content?: string } | undefined)?.content;
    if (typeof content === 'string') comment.content = content;
    return { json: comment };
  });

  route('POST', `${R}/pullRequests/:id/threads/:thread/comments`, (req) => {
    const thread = findThread(req);
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
      author: BOT,
      content: body.content ?? '',
      commentType: body.commentType ?? 'text',
      publishedDate: new Date().toISOString(),
    };
    thread.comments.push(comment);
    return { json: comment };
  });

  route('PATCH', `${R}/pullRequests/:id/threads/:thread`, (req) => {
    const thread = findThread(req);
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
    }>('identities').value;
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
      return { status: 401, json: adoFixture('entra-invalid-client') };
    }
    const token = `${adoFixture<{ access_token: string }>('entra-token').access_token}.${issuedTokens.length + 1}`;
    issuedTokens.push(token);
    return { json: { ...adoFixture<object>('entra-token'), access_token: token } };
  });

  return {
    server,
    orgUrl,
    threads,
    issuedTokens,
    writes,
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
      pullRequests.set(scenario.number, scenarioPull(history.load(scenario)));
    },
    refuseThreadsOn(path) {
      refusedPaths.add(path);
    },
    close: () => server.close(),
  };
}
