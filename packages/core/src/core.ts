import { type AiUseCases, createAiUseCases } from './ai/index.js';
import { type AuditUseCases, createAuditTrail, createAuditUseCases } from './audit/index.js';
import { type ConversationUseCases, createConversationUseCases } from './conversations/index.js';
import {
  type AuthSettings,
  createAccessTokens,
  createIdentityUseCases,
  DEFAULT_AUTH_SETTINGS,
  type IdentityUseCases,
  SignInThrottle,
  UserStateCache,
} from './identity/index.js';
import {
  type Clock,
  createEventBus,
  type EventBus,
  type Ids,
  randomIds,
  type SecretBox,
  systemClock,
} from './kernel/index.js';
import {
  createKnowledgeUseCases,
  type KnowledgeUseCases,
  lineSymbolExtractor,
  type SymbolExtractor,
  VectorCache,
} from './knowledge/index.js';
import { createLicensingUseCases, type LicensingUseCases } from './licensing/index.js';
import type { ProviderRegistry } from './provider-registry/index.js';
import type { ReviewEngineV1 } from './review-engine/index.js';
import {
  createReviewingUseCases,
  createWorkerUseCases,
  JobStatusCache,
  type ProviderStatusSettings,
  type ReviewingDeps,
  type ReviewingUseCases,
  type ReviewJobRecord,
  type WorkerUseCases,
} from './reviewing/index.js';
import { createScmUseCases, type ScmUseCases } from './scm/index.js';
import { createSpendUseCases, type SpendUseCases } from './spend/index.js';
import type { StorageV1 } from './storage/index.js';
import { createSystemUseCases, type SystemUseCases } from './system/index.js';
import { ClientAccessCache, createAuthorizer, createTenancyUseCases, type TenancyUseCases } from './tenancy/index.js';
import {
  type ByCoordinatesUseCase,
  conversationOriginsOf,
  createByCoordinatesUseCase,
  createTriggerUseCases,
  jobOriginsOf,
  type TriggerUseCases,
} from './triggers/index.js';

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
  /**
   * Code knowledge for a job's review, narrowed to the job's snapshotted scope (`undefined` for scope
   * `none` or nothing ready): the engine offers `search_knowledge` and `get_symbol` with it.
   */
  knowledgeForJob?: ReviewingDeps['knowledgeForJob'];
  /** How long another host's job change may take to show in a status read here. Default 1000; 0 disables. */
  jobStatusCacheMs?: number;
  /**
   * AI connection settings the host decides. `allowPrivateEgress` defaults to what the provider
   * registry declares (it enforces the same at connect time); set it here only to override.
   */
  ai?: { allowPrivateEgress?: boolean | undefined } | undefined;
  /** How long the webhook receiver may serve a configuration from memory. Default 2000; 0 disables. */
  webhookConfigurationCacheMs?: number | undefined;
  /**
   * The review status on the provider's head commit (`MARGIN_PROVIDER_STATUS`, linking the console
   * under `MARGIN_PUBLIC_BASE_URL`). Default: on, without a link.
   */
  providerStatus?: ProviderStatusSettings | undefined;
  /** Finds definitions for the code-knowledge index (`symbolMode: auto`). Default: the built-in line patterns. */
  symbolExtractor?: SymbolExtractor | undefined;
}

/**
 * Margin's use cases grouped by capability. Every use case validates its input, checks authorization
 * and licensing, and returns plain data or throws a MarginError. The groups are those of the API
 * (`x-margin-group`), plus `system` and `worker` for hosts.
 */
export interface MarginCore {
  /** What Margin announces, so a host can react without polling. */
  readonly events: EventBus;
  readonly system: SystemUseCases;
  readonly identity: IdentityUseCases;
  readonly tenancy: TenancyUseCases;
  readonly licensing: LicensingUseCases;
  /** Who changed which configuration: a tenant's trail and the installation's. */
  readonly audit: AuditUseCases;
  readonly scm: ScmUseCases;
  readonly ai: AiUseCases;
  readonly knowledge: KnowledgeUseCases;
  /** Token usage and spend reports. */
  readonly spend: SpendUseCases;
  /** By-coordinates submissions are triggers' and the conversation list is conversations', but both are served here, as in the API. */
  readonly reviewing: ReviewingUseCases & ByCoordinatesUseCase & Pick<ConversationUseCases, 'listConversations'>;
  readonly triggers: TriggerUseCases;
  /** Mentions of Margin in pull request comments: the list, and what a host's conversation worker calls. */
  readonly conversations: ConversationUseCases;
  /** What a host's review worker calls: claim with a lease, run, heartbeat, reclaim. */
  readonly worker: WorkerUseCases;
}

/**
 * Wires the ports into use cases grouped by capability: the shared pieces (clock, ids, events,
 * caches, the authorizer) are built once, and each capability gets the ones its use cases need.
 */
export function createMarginCore(options: MarginCoreOptions): MarginCore {
  const { jwtSecret, ...authOverrides } = options.auth;
  if (jwtSecret.length < 32) throw new Error('The access-token signing secret must be at least 32 characters.');
  const auth: AuthSettings = { ...DEFAULT_AUTH_SETTINGS, ...authOverrides };
  const { storage, secrets } = options;
  const providers = options.providers ?? { scm: [], ai: [] };
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const events = options.events ?? createEventBus();
  const clientAccess = new ClientAccessCache(() => storage.clients, clock, auth.accessCacheMs);
  const authz = createAuthorizer({ storage, clientAccess });
  const audit = createAuditTrail({ clock, ids });
  const jobStatusCache = new JobStatusCache(() => storage.reviewJobs, clock, options.jobStatusCacheMs ?? 1000);
  // The save-time egress guard must agree with the adapters' connect-time one: it follows the
  // registry's declaration unless the host says otherwise.
  const allowPrivateEgress = options.ai?.allowPrivateEgress ?? options.providers?.allowPrivateEgress ?? false;

  const ai = createAiUseCases({ storage, secrets, providers, clock, ids, authz, ai: { allowPrivateEgress }, audit });
  // What the knowledge, reviewing and triggers capabilities all start from.
  const shared = { storage, secrets, providers, clock, ids, events, authz };
  const knowledge = createKnowledgeUseCases({
    ...shared,
    resolvePurpose: ai.resolvePurpose,
    symbols: options.symbolExtractor ?? lineSymbolExtractor,
    vectors: new VectorCache(),
  });
  const reviewingDeps = {
    ...shared,
    jobStatusCache,
    origins: jobOriginsOf(storage),
    providerStatus: options.providerStatus,
    // Reviews consult the job's snapshotted knowledge scope unless the host brings its own.
    knowledgeForJob:
      options.knowledgeForJob ??
      ((job: ReviewJobRecord, _signal, notes) =>
        knowledge.lookupFor(
          {
            clientId: job.clientId,
            mode: job.options.knowledgeSourceScopeMode,
            sourceIds: job.options.knowledgeSourceIds,
            repositoryId: job.repository.externalRepositoryId,
          },
          notes,
        )),
    knowledgeHeadSeen: knowledge.branchHeadSeen,
  };
  const triggersDeps = { ...shared, jobStatusCache, audit, knowledgeHeadSeen: knowledge.branchHeadSeen };
  const conversations = createConversationUseCases({ ...reviewingDeps, origins: conversationOriginsOf(storage) });
  return {
    events,
    system: createSystemUseCases({ storage, secrets, clock }),
    identity: createIdentityUseCases({
      storage,
      secrets,
      allowPrivateEgress,
      clock,
      ids,
      events,
      auth,
      accessTokens: createAccessTokens(jwtSecret, auth.accessTokenTtlSeconds),
      userStates: new UserStateCache(() => storage.users, clock, auth.accessCacheMs),
      clientAccess,
      authz,
      signInThrottle: new SignInThrottle({ storage, clock, auth }),
      audit,
    }),
    tenancy: createTenancyUseCases({ storage, clock, ids, events, authz, clientAccess, audit }),
    licensing: createLicensingUseCases({ storage, clock, audit }),
    audit: createAuditUseCases({
      storage,
      access: {
        requireTenantAuditor: async (actor, tenantId) => {
          await authz.requireTenant(actor, 'tenants.audit.read', tenantId);
        },
      },
    }),
    scm: createScmUseCases({ storage, secrets, providers, clock, ids, authz, audit }),
    ai,
    knowledge,
    spend: createSpendUseCases({ storage, clock, authz, audit }),
    reviewing: {
      ...createReviewingUseCases(reviewingDeps),
      ...createByCoordinatesUseCase(triggersDeps),
      listConversations: conversations.listConversations,
    },
    triggers: createTriggerUseCases(triggersDeps, { configurationCacheMs: options.webhookConfigurationCacheMs }),
    worker: createWorkerUseCases(reviewingDeps, options.reviewEngine),
    conversations,
  };
}
