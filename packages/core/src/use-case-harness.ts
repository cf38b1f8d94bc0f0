/**
 * Test support for core's use-case tests (reviewing, scm, tenancy): the real core on the memory
 * storage, driven as a host drives it, with the source-control families faked at the port and a
 * review engine the test scripts. No package entry reaches this file, so it is never published; it
 * sits here rather than in `testing/` because capability folders may import `testing/` only through
 * its door, which is the published `@margin/core/testing`.
 */
import { createMarginCore, type MarginCore, type MarginCoreOptions } from './core.js';
import type { Actor, ClientRole, TenantRole } from './kernel/index.js';
import {
  createAesGcmSecretBox,
  MarginError,
  SYSTEM_TENANT_ID,
  toMarginError,
  type ValidationIssue,
} from './kernel/index.js';
import type { Edition } from './licensing/index.js';
import type { ReviewContext, ReviewEngineV1, ReviewOutcome } from './review-engine/index.js';
import type { ExecutionOutcome, ReviewJobRecord } from './reviewing/index.js';
import type {
  BuiltInProviderFamily,
  PullRequestRef,
  PullRequestSnapshot,
  ScmConnectionConfig,
  ScmProviderFamilyV1,
  ScmProviderV1,
  ScmRepository,
  ScmUser,
} from './scm-provider/index.js';
import { createMemoryStorage, type StorageV1 } from './storage/index.js';
import {
  createManualClock,
  createSequentialIds,
  type ManualClock,
  marginErrorOf,
  type PullRequestScenario,
} from './testing/index.js';

export const PLATFORM_ADMIN: Actor = {
  userId: 'platform-admin',
  username: 'admin',
  globalRole: 'platformAdmin',
  via: 'accessToken',
};

/** The error a host would answer a call's refusal with (a zod failure is `validation_failed`). */
export function refusalOf(call: Promise<unknown>): Promise<MarginError> {
  return marginErrorOf(
    call.catch((error: unknown) => {
      throw toMarginError(error);
    }),
  );
}

/** The field-level issues of a validation refusal, as the host's body lists them under `details`. */
export function issuesOf(error: MarginError): ValidationIssue[] {
  return (error.details.details as ValidationIssue[] | undefined) ?? [];
}

// ---------------------------------------------------------------------------------------------
// Source control, faked at the port

export const SCM_HOST = 'https://scm.example.com';
/** The one scope (organization, owner, group, workspace) the fake provider knows. */
export const SCM_SCOPE_PATH = `${SCM_HOST}/acme`;
const SCM_PROJECT_KEY = 'acme';
/** The credential the fake accepts; any other is refused as a provider refuses a bad token. */
export const SCM_SECRET = 'scm-canary-secret-5f2c9a7e41d3';
const SCM_REPOSITORIES: readonly ScmRepository[] = [
  {
    repositoryId: '4242',
    name: 'uploader',
    projectKey: SCM_PROJECT_KEY,
    defaultBranch: 'main',
    webUrl: `${SCM_SCOPE_PATH}/uploader`,
  },
  { repositoryId: '4343', name: 'empty', projectKey: SCM_PROJECT_KEY },
];
const SCM_BRANCHES = ['main', 'feature/retries'];
const SCM_USERS: readonly ScmUser[] = [
  { externalUserId: '7', login: 'ada', displayName: 'Ada Lovelace', isBot: false },
  { externalUserId: '99', login: 'margin-bot', displayName: 'Margin', isBot: true },
];

/** What each built-in family declares, as its adapter in `@margin/providers` does. */
const FAMILY_FACTS: Record<
  BuiltInProviderFamily,
  Pick<
    ScmProviderFamilyV1,
    'displayName' | 'authenticationKinds' | 'receiverSegment' | 'codeReviewPlatform' | 'capabilities'
  >
> = {
  suiteDevOps: {
    displayName: 'Azure DevOps',
    authenticationKinds: ['oauthClientCredentials', 'personalAccessToken'],
    receiverSegment: 'devopsA',
    codeReviewPlatform: 'pullRequest',
    capabilities: { repositoriesById: false, wikiSources: true },
  },
  gitHostA: {
    displayName: 'GitHub',
    authenticationKinds: ['personalAccessToken', 'appInstallation'],
    receiverSegment: 'gitHostA',
    codeReviewPlatform: 'pullRequest',
    capabilities: { repositoriesById: true, wikiSources: false },
  },
  gitHostB: {
    displayName: 'GitLab',
    authenticationKinds: ['personalAccessToken'],
    receiverSegment: 'gitHostB',
    codeReviewPlatform: 'mergeRequest',
    capabilities: { repositoriesById: true, wikiSources: false },
  },
  gitHostC: {
    displayName: 'Bitbucket',
    authenticationKinds: ['personalAccessToken'],
    receiverSegment: 'gitHostC',
    codeReviewPlatform: 'pullRequest',
    capabilities: { repositoriesById: false, wikiSources: false },
  },
};

/**
 * One source-control provider behind every built-in family: it serves `SCM_SCOPE_PATH` with its
 * project, repositories, branches and users, and the pull requests a test loads, to connections
 * holding `SCM_SECRET`. It remembers every connection made, so a test can tell where a stored
 * secret went.
 */
export interface FakeScm {
  families: ScmProviderFamilyV1[];
  /** Every connection an adapter was asked for, with its opened secret, in order. */
  connected: ScmConnectionConfig[];
  /** The scope path of every user search, in order. */
  userSearches: string[];
  /** While true, every call fails as an unreachable host does. */
  unreachable: boolean;
  /**
   * Serves the scenario's pull request (its number) in one repository, `4242` unless named, owned
   * by `acme` unless the provider is to say otherwise. Loading the same number again is a push.
   */
  loadPullRequest(
    scenario: PullRequestScenario,
    where?: { repositoryId?: string; repositoryOwner?: string | undefined },
  ): void;
}

function createFakeScm(): FakeScm {
  const pullRequests = new Map<string, Omit<PullRequestSnapshot, 'ref'>>();
  const prKey = (repositoryId: string, number: number) => `${repositoryId}#${number}`;

  const fake: FakeScm = {
    families: [],
    connected: [],
    userSearches: [],
    unreachable: false,
    loadPullRequest(scenario, where = {}) {
      const repositoryId = where.repositoryId ?? '4242';
      const repository = SCM_REPOSITORIES.find((r) => r.repositoryId === repositoryId);
      pullRequests.set(prKey(repositoryId, scenario.number), {
        title: scenario.title,
        description: scenario.description,
        status: scenario.status ?? 'open',
        isDraft: scenario.isDraft ?? false,
        sourceBranch: scenario.sourceBranch,
        targetBranch: scenario.targetBranch,
        author: SCM_USERS[0] as ScmUser,
        revision: {
          revisionId: scenario.headSha,
          headSha: scenario.headSha,
          baseSha: scenario.baseSha,
          mergeBaseSha: scenario.mergeBaseSha ?? scenario.baseSha,
        },
        repositoryName: repository?.name ?? 'unknown',
        repositoryOwner: 'repositoryOwner' in where ? where.repositoryOwner : SCM_PROJECT_KEY,
      });
    },
  };

  const connect = (family: BuiltInProviderFamily, config: ScmConnectionConfig): ScmProviderV1 => {
    fake.connected.push(config);
    const answer = () => {
      if (fake.unreachable) throw MarginError.provider('unavailable', 'The provider could not be reached.');
      if (config.secret !== SCM_SECRET) {
        throw MarginError.provider('credentials', 'The provider refused the credentials.', { providerStatus: 401 });
      }
    };
    const inScope = (scopePath: string) => {
      answer();
      if (scopePath !== SCM_SCOPE_PATH) throw MarginError.notFound('The provider knows no such scope.');
    };
    const notServed = (what: string) => () => {
      throw new Error(`${what} is not served by the use-case fake`);
    };
    return {
      specificationVersion: 'v1',
      family,
      async verify() {
        answer();
        return { login: 'margin-bot', displayName: 'Margin' };
      },
      async getPullRequest(ref: PullRequestRef) {
        answer();
        const found = pullRequests.get(prKey(ref.repositoryId, ref.pullRequestId));
        if (!found) throw MarginError.notFound('The provider knows no such pull request.');
        return { ref, ...structuredClone(found) };
      },
      async *listProjects(scopePath) {
        inScope(scopePath);
        yield { projectKey: SCM_PROJECT_KEY, name: 'Acme' };
      },
      async *listRepositories(scope) {
        inScope(scope.scopePath);
        for (const repository of SCM_REPOSITORIES) if (repository.projectKey === scope.projectKey) yield repository;
      },
      async *listBranches(ref) {
        inScope(ref.scopePath);
        if (ref.repositoryId === '4242') yield* SCM_BRANCHES;
      },
      async searchUsers(scopePath, search) {
        answer();
        fake.userSearches.push(scopePath);
        const wanted = search.toLowerCase();
        return SCM_USERS.filter((u) => `${u.login} ${u.displayName}`.toLowerCase().includes(wanted));
      },
      listRevisions: notServed('listRevisions'),
      listChangedFiles: notServed('listChangedFiles'),
      compareCommits: notServed('compareCommits'),
      getFileContent: notServed('getFileContent'),
      getFileDiff: notServed('getFileDiff'),
      listThreads: notServed('listThreads'),
      createThread: notServed('createThread'),
      createThreads: notServed('createThreads'),
      editComment: notServed('editComment'),
      reply: notServed('reply'),
      setThreadStatus: notServed('setThreadStatus'),
      listOpenPullRequests: notServed('listOpenPullRequests'),
    };
  };

  fake.families = (Object.keys(FAMILY_FACTS) as BuiltInProviderFamily[]).map((family) => ({
    specificationVersion: 'v1',
    family,
    ...FAMILY_FACTS[family],
    connect: (config) => connect(family, config),
    webhook: {
      authenticate: () => false,
      parse: () => ({ kind: 'unclassified', eventType: 'unused', idempotencyKey: 'unused' }),
    },
  }));
  return fake;
}

/** A pull request scenario with plain defaults: open, `feature` into `main`, head `a…`, base `b…`. */
export function pullRequestScenario(number: number, overrides: Partial<PullRequestScenario> = {}): PullRequestScenario {
  return {
    number,
    title: `Change ${number}`,
    description: 'A change.',
    sourceBranch: 'feature',
    targetBranch: 'main',
    headSha: 'a'.repeat(40),
    baseSha: 'b'.repeat(40),
    files: [],
    ...overrides,
  };
}

/** A connection body the fake provider accepts; spread overrides over it. */
export function connectionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    providerFamily: 'gitHostA',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: SCM_HOST,
    displayName: 'GitHub',
    secret: SCM_SECRET,
    ...overrides,
  };
}

// ---------------------------------------------------------------------------------------------
// Reviews

const NO_USAGE = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, estimatedCostUsd: 0, byModel: [] };

/** What the scripted engine answers unless a test says otherwise. */
export const REVIEWED: ReviewOutcome = {
  status: 'completed',
  result: { summary: 'Nothing to say.', findings: [], coverage: { files: [] } },
  usage: NO_USAGE,
};

/** A review engine whose runs do what the test's `script` says (complete, by default). */
export interface ScriptedEngine extends ReviewEngineV1 {
  script: (job: ReviewJobRecord, context: ReviewContext) => Promise<ReviewOutcome>;
  /** Ids of the jobs it was handed, in order. */
  reviewed: string[];
}

function scriptedEngine(): ScriptedEngine {
  const engine: ScriptedEngine = {
    specificationVersion: 'v1',
    script: async () => REVIEWED,
    reviewed: [],
    review(job, context) {
      engine.reviewed.push(job.id);
      // The worker hands the engine the whole stored record; scripts may read any of it.
      return engine.script(job as ReviewJobRecord, context);
    },
  };
  return engine;
}

/** An explicit submission body for a GitHub pull request, with a named revision unless `revision` is false. */
export function reviewSubmission(
  number: number,
  options: { head?: string; repositoryId?: string; revision?: boolean; providerRevisionId?: string } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    provider: 'gitHostA',
    hostBaseUrl: 'https://github.com',
    repository: {
      externalRepositoryId: options.repositoryId ?? '4242',
      ownerOrNamespace: 'acme',
      projectPath: 'acme/uploader',
    },
    codeReview: { platform: 'pullRequest', externalReviewId: String(number), number },
  };
  if (options.revision !== false) {
    body.reviewRevision = {
      headSha: (options.head ?? 'a').repeat(40),
      baseSha: 'b'.repeat(40),
      ...(options.providerRevisionId ? { providerRevisionId: options.providerRevisionId } : {}),
    };
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// The core

export interface UseCaseHarness {
  core: MarginCore;
  storage: StorageV1;
  clock: ManualClock;
  scm: FakeScm;
  engine: ScriptedEngine;
  setEdition(
    edition: Edition,
    capabilityOverrides?: Array<{ capability: string; overrideState: string }>,
  ): Promise<void>;
  /** A client of the tenant (the System tenant unless named), made by the platform administrator. */
  newClient(tenantId?: string): Promise<string>;
  /** A signed-in user without any role, as the host builds its actor. */
  newUser(): Promise<Actor>;
  /** A client with a connection to the fake provider and an enabled scope on `SCM_SCOPE_PATH`. */
  scopedClient(): Promise<{ clientId: string; connectionId: string; scopeId: string }>;
  /** A user with a role on the client. */
  clientMember(clientId: string, role: ClientRole): Promise<Actor>;
  /** A user with a role on the tenant. */
  tenantMember(tenantId: string, role: TenantRole): Promise<Actor>;
  /** What a host's worker does: claims every queued job it may and runs each through the engine. */
  runQueued(): Promise<ExecutionOutcome[]>;
}

export const WORKER = 'worker-1';
export const LEASE_MS = 60_000;

/**
 * A fresh core on its own memory storage, Community unless told otherwise, with a manual clock,
 * counting ids, the fake source-control families and the scripted engine (none `withoutEngine`).
 */
export async function startUseCases(
  options: {
    edition?: Edition;
    jobStatusCacheMs?: number;
    withoutEngine?: boolean;
    knowledgeForJob?: MarginCoreOptions['knowledgeForJob'];
  } = {},
): Promise<UseCaseHarness> {
  const storage = createMemoryStorage();
  const clock = createManualClock();
  const scm = createFakeScm();
  const engine = scriptedEngine();
  const core = createMarginCore({
    storage,
    secrets: createAesGcmSecretBox(Buffer.alloc(32, 3)),
    auth: { jwtSecret: 'use-case-tests-signing-secret-of-32+' },
    providers: { scm: scm.families, ai: [] },
    clock,
    ids: createSequentialIds(),
    ...(options.withoutEngine ? {} : { reviewEngine: engine }),
    ...(options.jobStatusCacheMs === undefined ? {} : { jobStatusCacheMs: options.jobStatusCacheMs }),
    knowledgeForJob: options.knowledgeForJob,
  });
  let made = 0;
  const newUser = async (): Promise<Actor> => {
    const username = `user-${++made}`;
    const user = await core.identity.createUser(PLATFORM_ADMIN, { username, password: 'a-long-enough-password' });
    return { userId: user.id, username, globalRole: 'user', via: 'accessToken' };
  };
  const harness: UseCaseHarness = {
    core,
    storage,
    clock,
    scm,
    engine,
    async setEdition(edition, capabilityOverrides) {
      await core.licensing.patchLicensing(PLATFORM_ADMIN, { edition, capabilityOverrides });
    },
    async newClient(tenantId = SYSTEM_TENANT_ID) {
      return (await core.tenancy.createClient(PLATFORM_ADMIN, { displayName: `Client ${++made}`, tenantId })).id;
    },
    newUser,
    async scopedClient() {
      const clientId = await harness.newClient();
      const connection = await core.scm.createProviderConnection(PLATFORM_ADMIN, clientId, connectionBody());
      const scope = await core.scm.createProviderScope(PLATFORM_ADMIN, clientId, connection.id, {
        scopeType: 'organization',
        scopePath: SCM_SCOPE_PATH,
      });
      return { clientId, connectionId: connection.id, scopeId: scope.id };
    },
    async clientMember(clientId, role) {
      const actor = await newUser();
      await core.identity.putClientMember(PLATFORM_ADMIN, clientId, actor.userId, { role });
      return actor;
    },
    async tenantMember(tenantId, role) {
      const actor = await newUser();
      await core.identity.putTenantMember(PLATFORM_ADMIN, tenantId, actor.userId, { role });
      return actor;
    },
    async runQueued() {
      const claimed = await core.worker.claimJobs({ owner: WORKER, capacity: 100, leaseMs: LEASE_MS });
      const outcomes: ExecutionOutcome[] = [];
      for (const job of claimed) {
        outcomes.push(
          await core.worker.executeJob(job, {
            owner: WORKER,
            signal: new AbortController().signal,
            onProgress: () => undefined,
          }),
        );
      }
      return outcomes;
    },
  };
  if (options.edition) await harness.setEdition(options.edition);
  return harness;
}

// ---------------------------------------------------------------------------------------------
// Who may do what

/** The callers every authorization check is run as. */
const PERSONAS = ['clientUser', 'clientAdmin', 'otherClientAdmin', 'tenantAdmin', 'platformAdmin'] as const;
export type Persona = (typeof PERSONAS)[number];

export interface Personas {
  /** The client the ClientUser and ClientAdministrator personas have their role on. */
  clientA: string;
  /** The client the other ClientAdministrator administers. */
  clientB: string;
  actors: Record<Persona, Actor>;
}

/**
 * Two System-tenant clients (client A made by the caller when given), a member of each role, and an
 * administrator of the System tenant.
 */
export async function setUpPersonas(h: UseCaseHarness, givenClientA?: string): Promise<Personas> {
  const clientA = givenClientA ?? (await h.newClient());
  const clientB = await h.newClient();
  return {
    clientA,
    clientB,
    actors: {
      clientUser: await h.clientMember(clientA, 'ClientUser'),
      clientAdmin: await h.clientMember(clientA, 'ClientAdministrator'),
      otherClientAdmin: await h.clientMember(clientB, 'ClientAdministrator'),
      tenantAdmin: await h.tenantMember(SYSTEM_TENANT_ID, 'TenantAdministrator'),
      platformAdmin: PLATFORM_ADMIN,
    },
  };
}

/** What a call answers each persona: `ok`, or the code of the error a host would answer with. */
export async function outcomesByPersona(
  actors: Record<Persona, Actor>,
  call: (actor: Actor) => Promise<unknown>,
): Promise<Record<Persona, string>> {
  const outcomes = {} as Record<Persona, string>;
  for (const persona of PERSONAS) {
    outcomes[persona] = await call(actors[persona]).then(
      () => 'ok',
      (error: unknown) => toMarginError(error).code,
    );
  }
  return outcomes;
}

/** ClientUser and up on client A; the other client's administrator does not learn the client exists. */
export const CLIENT_USERS: Record<Persona, string> = {
  clientUser: 'ok',
  clientAdmin: 'ok',
  otherClientAdmin: 'not_found',
  tenantAdmin: 'ok',
  platformAdmin: 'ok',
};
/** ClientAdministrator and up on client A (a tenant administrator is one on every client of its tenant). */
export const CLIENT_ADMINS: Record<Persona, string> = { ...CLIENT_USERS, clientUser: 'forbidden' };
