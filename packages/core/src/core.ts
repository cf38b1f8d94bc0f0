import * as aiChecks from './ai/connection-checks.js';
import * as aiConnections from './ai/connections.js';
import type { AiDeps } from './ai/index.js';
import { type BoundResolvePurpose, resolvePurpose } from './ai/index.js';
import * as logicalModels from './ai/logical-models.js';
import * as modelCatalog from './ai/model-catalog.js';
import type { AiPurpose } from './ai-model/index.js';
import { type AuthSettings, type CoreDeps, DEFAULT_AUTH_SETTINGS } from './deps.js';
import {
  AccessCache,
  authenticateAccessToken,
  authenticatePersonalAccessToken,
  type BootstrapAdminInput,
  createAccessTokens,
  createAuthorizer,
  ensureBootstrapAdmin,
  getMe,
  SignInThrottle,
} from './identity/index.js';
import * as members from './identity/members.js';
import * as pats from './identity/personal-access-tokens.js';
import * as sessions from './identity/sessions.js';
import * as users from './identity/users.js';
import type { Actor, SecretBox } from './kernel/index.js';
import { type Clock, createEventBus, type EventBus, type Ids, randomIds, systemClock } from './kernel/index.js';
import * as knowledgeSources from './knowledge/sources.js';
import { type CapabilityKey, getLicensing, patchLicensing, requireCapability } from './licensing/index.js';
import type { ProviderRegistry } from './provider-registry/index.js';
import type { ReviewEngineV1 } from './review-engine/index.js';
import * as blocks from './reviewing/blocks-and-dismissals.js';
import * as findings from './reviewing/findings.js';
import type { ReviewJobRecord } from './reviewing/index.js';
import { JobStatusCache, submitJob } from './reviewing/index.js';
import * as jobs from './reviewing/jobs.js';
import * as worker from './reviewing/worker.js';
import * as scmConnections from './scm/connections.js';
import * as discovery from './scm/discovery.js';
import { openScmProvider, scopeWithConnection } from './scm/index.js';
import * as reviewerIdentity from './scm/reviewer-identity.js';
import * as scopes from './scm/scopes.js';
import type { StorageV1 } from './storage/index.js';
import { checkDatabase, verifySecretsKey } from './system/index.js';
import * as clients from './tenancy/clients.js';
import * as tenants from './tenancy/tenants.js';
import { createTriggerUseCases, submitByCoordinates } from './triggers/index.js';

export interface MarginCoreOptions {
  storage: StorageV1;
  secrets: SecretBox;
  /** Signing secret for access tokens (≥ 32 characters) and optional session limits. */
  auth: { jwtSecret: string } & Partial<AuthSettings>;
  providers?: ProviderRegistry;
  clock?: Clock;
  ids?: Ids;
  events?: EventBus;
  /** The review pipeline the worker hands jobs to; without one, jobs fail with a clear reason. */
  reviewEngine?: ReviewEngineV1;
  /** How long another host's job change may take to show in a status read here. Default 1000; 0 disables. */
  jobStatusCacheMs?: number;
  /**
   * AI connection settings the host decides. `allowPrivateEgress` defaults to what the provider
   * registry declares (it enforces the same at connect time); set it here only to override.
   */
  ai?: { allowPrivateEgress?: boolean | undefined } | undefined;
  /** How long the webhook receiver may serve a configuration from memory. Default 2000; 0 disables. */
  webhookConfigurationCacheMs?: number | undefined;
}

/**
 * Wires the ports into use cases grouped by capability. Every use case validates its input, checks
 * authorization and licensing, and returns plain data or throws a MarginError.
 */
export function createMarginCore(options: MarginCoreOptions) {
  const { jwtSecret, ...authOverrides } = options.auth;
  if (jwtSecret.length < 32) throw new Error('The access-token signing secret must be at least 32 characters.');
  const auth: AuthSettings = { ...DEFAULT_AUTH_SETTINGS, ...authOverrides };
  const clock = options.clock ?? systemClock;
  const accessCache = new AccessCache(options.storage, clock, auth.accessCacheMs);
  const deps: CoreDeps = {
    storage: options.storage,
    secrets: options.secrets,
    providers: options.providers ?? { scm: [], ai: [] },
    clock,
    ids: options.ids ?? randomIds,
    events: options.events ?? createEventBus(),
    auth,
    accessTokens: createAccessTokens(jwtSecret, auth.accessTokenTtlSeconds),
    accessCache,
    authz: createAuthorizer({ storage: options.storage, accessCache }),
    jobStatusCache: new JobStatusCache(() => options.storage.reviewJobs, clock, options.jobStatusCacheMs ?? 1000),
    signInThrottle: new SignInThrottle({ storage: options.storage, clock, auth }),
  };
  // The save-time egress guard must agree with the adapters' connect-time one: it follows the
  // registry's declaration unless the host says otherwise.
  const allowPrivateEgress = options.ai?.allowPrivateEgress ?? options.providers?.allowPrivateEgress ?? false;
  const aiDeps: AiDeps = { ...deps, ai: { allowPrivateEgress } };
  const triggers = createTriggerUseCases(deps, { configurationCacheMs: options.webhookConfigurationCacheMs });
  return {
    events: deps.events,
    system: {
      checkDatabase: () => checkDatabase(deps),
      verifySecretsKey: () => verifySecretsKey(deps),
    },
    identity: {
      ensureBootstrapAdmin: (input: BootstrapAdminInput) => ensureBootstrapAdmin(deps, input),
      login: (input: unknown, context: sessions.SignInContext) => sessions.login(deps, input, context),
      refreshSession: (refreshToken: string | undefined) => sessions.refresh(deps, refreshToken),
      logout: (refreshToken: string | undefined) => sessions.logout(deps, refreshToken),
      changeMyPassword: (actor: Actor, input: unknown) => sessions.changeOwnPassword(deps, actor, input),
      authenticateAccessToken: (token: string) => authenticateAccessToken(deps, token),
      authenticatePersonalAccessToken: (token: string) => authenticatePersonalAccessToken(deps, token),
      getMe: (actor: Actor) => getMe(deps, actor),
      createPersonalAccessToken: (actor: Actor, input: unknown) => pats.createPersonalAccessToken(deps, actor, input),
      listPersonalAccessTokens: (actor: Actor, query: unknown) => pats.listPersonalAccessTokens(deps, actor, query),
      revokePersonalAccessToken: (actor: Actor, patId: string) => pats.revokePersonalAccessToken(deps, actor, patId),
      createUser: (actor: Actor, input: unknown) => users.createUser(deps, actor, input),
      listUsers: (actor: Actor, query: unknown) => users.listUsers(deps, actor, query),
      patchUser: (actor: Actor, userId: string, input: unknown) => users.patchUser(deps, actor, userId, input),
      putClientMember: (actor: Actor, clientId: string, userId: string, input: unknown) =>
        members.putClientMember(deps, actor, clientId, userId, input),
      listClientMembers: (actor: Actor, clientId: string, query: unknown) =>
        members.listClientMembers(deps, actor, clientId, query),
      removeClientMember: (actor: Actor, clientId: string, userId: string) =>
        members.removeClientMember(deps, actor, clientId, userId),
      putTenantMember: (actor: Actor, tenantId: string, userId: string, input: unknown) =>
        members.putTenantMember(deps, actor, tenantId, userId, input),
      listTenantMembers: (actor: Actor, tenantId: string, query: unknown) =>
        members.listTenantMembers(deps, actor, tenantId, query),
      removeTenantMember: (actor: Actor, tenantId: string, userId: string) =>
        members.removeTenantMember(deps, actor, tenantId, userId),
    },
    tenancy: {
      listCreatableTenants: (actor: Actor) => tenants.listCreatableTenants(deps, actor),
      createTenant: (actor: Actor, input: unknown) => tenants.createTenant(deps, actor, input),
      patchTenant: (actor: Actor, tenantId: string, input: unknown) =>
        tenants.patchTenant(deps, actor, tenantId, input),
      listClients: (actor: Actor, query: unknown) => clients.listClients(deps, actor, query),
      createClient: (actor: Actor, input: unknown) => clients.createClient(deps, actor, input),
      getClient: (actor: Actor, clientId: string) => clients.getClient(deps, actor, clientId),
      patchClient: (actor: Actor, clientId: string, input: unknown) =>
        clients.patchClient(deps, actor, clientId, input),
    },
    reviewing: {
      submitReviewJob: (actor: Actor, clientId: string, input: unknown) => submitJob(deps, actor, clientId, input),
      getReviewJobStatus: (actor: Actor, jobId: string) => jobs.getJobStatus(deps, actor, jobId),
      listReviewJobs: (actor: Actor, clientId: string, query: unknown) => jobs.listJobs(deps, actor, clientId, query),
      restartReviewJob: (actor: Actor, jobId: string) => jobs.restartJob(deps, actor, jobId),
      stopReviewJob: (actor: Actor, jobId: string) => jobs.stopJob(deps, actor, jobId),
      getReviewJobProtocol: (actor: Actor, jobId: string, query: unknown) =>
        jobs.readProtocol(deps, actor, jobId, query),
      blockPullRequest: (actor: Actor, clientId: string, input: unknown) =>
        blocks.blockPullRequest(deps, actor, clientId, input),
      unblockPullRequest: (actor: Actor, clientId: string, input: unknown) =>
        blocks.unblockPullRequest(deps, actor, clientId, input),
      listBlockedPullRequests: (actor: Actor, clientId: string, query: unknown) =>
        blocks.listBlockedPullRequests(deps, actor, clientId, query),
      dismissFinding: (actor: Actor, clientId: string, input: unknown) =>
        blocks.dismissFinding(deps, actor, clientId, input),
      listDismissals: (actor: Actor, clientId: string, query: unknown) =>
        blocks.listDismissals(deps, actor, clientId, query),
      deleteDismissal: (actor: Actor, clientId: string, dismissalId: string) =>
        blocks.deleteDismissal(deps, actor, clientId, dismissalId),
      listReviewFindings: (actor: Actor, clientId: string, query: unknown) =>
        findings.listFindings(deps, actor, clientId, query),
      getPullRequestFindings: (actor: Actor, clientId: string, query: unknown) =>
        findings.pullRequestFindings(deps, actor, clientId, query),
      /** Answers with a named outcome and its HTTP status (see the by-coordinates outcome table). */
      submitReviewByCoordinates: (actor: Actor, clientId: string, input: unknown) =>
        submitByCoordinates(deps, actor, clientId, input),
    },
    triggers,
    knowledge: {
      createKnowledgeSource: (actor: Actor, clientId: string, input: unknown) =>
        knowledgeSources.createKnowledgeSource(deps, actor, clientId, input),
      listKnowledgeSources: (actor: Actor, clientId: string, query: unknown) =>
        knowledgeSources.listKnowledgeSources(deps, actor, clientId, query),
      getKnowledgeSource: (actor: Actor, clientId: string, sourceId: string) =>
        knowledgeSources.getKnowledgeSource(deps, actor, clientId, sourceId),
    },
    /** What a host's review worker calls: claim with a lease, run, heartbeat, reclaim. */
    worker: {
      allowedConcurrency: (configured: number) => worker.allowedConcurrency(deps, configured),
      claimJobs: (request: { owner: string; capacity: number; leaseMs: number }) => worker.claimJobs(deps, request),
      executeJob: (
        job: ReviewJobRecord,
        run: { owner: string; signal: AbortSignal; onProgress(progress: ReviewJobRecord['progress']): void },
      ) => worker.executeJob(deps, options.reviewEngine, job, run),
      renewLease: (request: {
        jobId: string;
        owner: string;
        leaseMs: number;
        progress?: ReviewJobRecord['progress'];
      }) => worker.renewJobLease(deps, request),
      reclaimExpired: () => worker.reclaimExpiredJobs(deps),
      releaseJob: (jobId: string, owner: string) => worker.releaseJob(deps, jobId, owner),
    },
    scm: {
      createProviderConnection: (actor: Actor, clientId: string, input: unknown) =>
        scmConnections.createProviderConnection(deps, actor, clientId, input),
      listProviderConnections: (actor: Actor, clientId: string, query: unknown) =>
        scmConnections.listProviderConnections(deps, actor, clientId, query),
      getProviderConnection: (actor: Actor, clientId: string, connectionId: string) =>
        scmConnections.getProviderConnection(deps, actor, clientId, connectionId),
      patchProviderConnection: (actor: Actor, clientId: string, connectionId: string, input: unknown) =>
        scmConnections.patchProviderConnection(deps, actor, clientId, connectionId, input),
      deleteProviderConnection: (actor: Actor, clientId: string, connectionId: string) =>
        scmConnections.deleteProviderConnection(deps, actor, clientId, connectionId),
      verifyProviderConnection: (actor: Actor, clientId: string, connectionId: string) =>
        scmConnections.verifyProviderConnection(deps, actor, clientId, connectionId),
      createProviderScope: (actor: Actor, clientId: string, connectionId: string, input: unknown) =>
        scopes.createProviderScope(deps, actor, clientId, connectionId, input),
      listProviderScopes: (actor: Actor, clientId: string, connectionId: string, query: unknown) =>
        scopes.listProviderScopes(deps, actor, clientId, connectionId, query),
      patchProviderScope: (actor: Actor, clientId: string, connectionId: string, scopeId: string, input: unknown) =>
        scopes.patchProviderScope(deps, actor, clientId, connectionId, scopeId, input),
      deleteProviderScope: (actor: Actor, clientId: string, connectionId: string, scopeId: string) =>
        scopes.deleteProviderScope(deps, actor, clientId, connectionId, scopeId),
      resolveReviewerIdentities: (actor: Actor, clientId: string, connectionId: string, query: unknown) =>
        reviewerIdentity.resolveReviewerIdentities(deps, actor, clientId, connectionId, query),
      putReviewerIdentity: (actor: Actor, clientId: string, connectionId: string, input: unknown) =>
        reviewerIdentity.putReviewerIdentity(deps, actor, clientId, connectionId, input),
      getReviewerIdentity: (actor: Actor, clientId: string, connectionId: string) =>
        reviewerIdentity.getReviewerIdentity(deps, actor, clientId, connectionId),
      discoverProjects: (actor: Actor, clientId: string, query: unknown) =>
        discovery.discoverProjects(deps, actor, clientId, query),
      discoverSources: (actor: Actor, clientId: string, query: unknown) =>
        discovery.discoverSources(deps, actor, clientId, query),
      discoverBranches: (actor: Actor, clientId: string, query: unknown) =>
        discovery.discoverBranches(deps, actor, clientId, query),
      discoverCrawlFilters: (actor: Actor, clientId: string, query: unknown) =>
        discovery.discoverCrawlFilters(deps, actor, clientId, query),
      /** For hosts and workers: no authorization, see `openScmProvider`. */
      openProvider: (connectionId: string, options?: Parameters<typeof openScmProvider>[2]) =>
        openScmProvider(deps, connectionId, options),
      /** For hosts and workers: no authorization, see `scopeWithConnection`. */
      scopeWithConnection: (clientId: string, scopeId: string, options?: Parameters<typeof scopeWithConnection>[3]) =>
        scopeWithConnection(deps, clientId, scopeId, options),
    },
    ai: {
      listPermittedAiProviders: (actor: Actor, clientId: string) =>
        aiChecks.permittedProviders(aiDeps, actor, clientId),
      createAiConnection: (actor: Actor, clientId: string, input: unknown) =>
        aiConnections.createConnection(aiDeps, actor, clientId, input),
      listAiConnections: (actor: Actor, clientId: string, query: unknown) =>
        aiConnections.listConnections(aiDeps, actor, clientId, query),
      getAiConnection: (actor: Actor, clientId: string, connectionId: string) =>
        aiConnections.getConnection(aiDeps, actor, clientId, connectionId),
      patchAiConnection: (actor: Actor, clientId: string, connectionId: string, input: unknown) =>
        aiConnections.patchConnection(aiDeps, actor, clientId, connectionId, input),
      deleteAiConnection: (actor: Actor, clientId: string, connectionId: string) =>
        aiConnections.deleteConnection(aiDeps, actor, clientId, connectionId),
      attachCatalogModel: (actor: Actor, clientId: string, connectionId: string, input: unknown) =>
        aiConnections.attachCatalogModel(aiDeps, actor, clientId, connectionId, input),
      listClientCatalogModels: (actor: Actor, clientId: string, query: unknown) =>
        modelCatalog.listClientCatalogModels(deps, actor, clientId, query),
      probeAiConnection: (actor: Actor, clientId: string, input: unknown) =>
        aiChecks.probeConnection(aiDeps, actor, clientId, input),
      discoverAiModels: (actor: Actor, clientId: string, input: unknown) =>
        aiChecks.discoverModels(aiDeps, actor, clientId, input),
      verifyAiConnection: (actor: Actor, clientId: string, connectionId: string) =>
        aiChecks.verifyConnection(aiDeps, actor, clientId, connectionId),
      activateAiConnection: (actor: Actor, clientId: string, connectionId: string) =>
        aiChecks.activateConnection(aiDeps, actor, clientId, connectionId),
      deactivateAiConnection: (actor: Actor, clientId: string, connectionId: string) =>
        aiChecks.deactivateConnection(aiDeps, actor, clientId, connectionId),
      listClientLogicalModels: (actor: Actor, clientId: string) =>
        logicalModels.listClientLogicalModels(deps, actor, clientId),
      createClientLogicalModel: (actor: Actor, clientId: string, input: unknown) =>
        logicalModels.createClientOverride(deps, actor, clientId, input),
      getClientLogicalModel: (actor: Actor, clientId: string, name: string) =>
        logicalModels.getClientOverride(deps, actor, clientId, name),
      putClientLogicalModel: (actor: Actor, clientId: string, name: string, input: unknown) =>
        logicalModels.putClientOverride(deps, actor, clientId, name, input),
      deleteClientLogicalModel: (actor: Actor, clientId: string, name: string) =>
        logicalModels.deleteClientOverride(deps, actor, clientId, name),
      putClientPurpose: (actor: Actor, clientId: string, purpose: string, input: unknown) =>
        logicalModels.putPurpose(deps, actor, clientId, purpose, input),
      deleteClientPurpose: (actor: Actor, clientId: string, purpose: string) =>
        logicalModels.deletePurpose(deps, actor, clientId, purpose),
      listTenantLogicalModels: (actor: Actor, tenantId: string) =>
        logicalModels.listTenantLogicalModels(deps, actor, tenantId),
      createTenantLogicalModel: (actor: Actor, tenantId: string, input: unknown) =>
        logicalModels.createTenantLogicalModel(deps, actor, tenantId, input),
      putTenantLogicalModel: (actor: Actor, tenantId: string, name: string, input: unknown) =>
        logicalModels.putTenantLogicalModel(deps, actor, tenantId, name, input),
      deleteTenantLogicalModel: (actor: Actor, tenantId: string, name: string) =>
        logicalModels.deleteTenantLogicalModel(deps, actor, tenantId, name),
      listCatalogModels: (actor: Actor, tenantId: string, query: unknown) =>
        modelCatalog.listCatalogModels(deps, actor, tenantId, query),
      createCatalogModel: (actor: Actor, tenantId: string, input: unknown) =>
        modelCatalog.createCatalogModel(deps, actor, tenantId, input),
      deleteCatalogModel: (actor: Actor, tenantId: string, modelId: string) =>
        modelCatalog.deleteCatalogModel(deps, actor, tenantId, modelId),
      listCatalogProviders: (actor: Actor, tenantId: string) =>
        modelCatalog.listCatalogProviders(deps, actor, tenantId),
      listPriceOverrides: (actor: Actor, tenantId: string) => modelCatalog.listPriceOverrides(deps, actor, tenantId),
      putPriceOverride: (actor: Actor, tenantId: string, input: unknown) =>
        modelCatalog.putPriceOverride(deps, actor, tenantId, input),
      deletePriceOverride: (actor: Actor, tenantId: string, overrideId: string) =>
        modelCatalog.deletePriceOverride(deps, actor, tenantId, overrideId),
      /** The model behind a purpose, for work that calls it (no actor: the worker acts for the client). */
      resolvePurpose: ((clientId: string, purpose: AiPurpose) =>
        resolvePurpose(deps, clientId, purpose)) as BoundResolvePurpose,
    },
    licensing: {
      getLicensing: (actor: Actor) => getLicensing(deps, actor),
      patchLicensing: (actor: Actor, input: unknown) => patchLicensing(deps, actor, input),
      requireCapability: (capability: CapabilityKey) => requireCapability(deps, capability),
    },
  };
}

export type MarginCore = ReturnType<typeof createMarginCore>;
