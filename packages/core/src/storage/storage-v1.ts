import type { AiConnectionsRepository, AiLogicalModelsRepository, AiModelCatalogRepository } from '../ai/index.js';
import type {
  MembershipsRepository,
  PersonalAccessTokensRepository,
  RefreshTokensRepository,
  SignInFailuresRepository,
  UsersRepository,
} from '../identity/index.js';
import type { SettingsRepository } from '../kernel/index.js';
import type { KnowledgeSourcesRepository } from '../knowledge/index.js';
import type {
  BlockedPullRequestsRepository,
  DismissalsRepository,
  ProtocolRepository,
  ReviewFindingsRepository,
  ReviewJobsRepository,
  ReviewPublicationsRepository,
} from '../reviewing/index.js';
import type {
  ProviderConnectionsRepository,
  ProviderScopesRepository,
  ReviewerIdentitiesRepository,
} from '../scm/index.js';
import type { ClientsRepository, TenantsRepository } from '../tenancy/index.js';
import type {
  CrawlConfigurationsRepository,
  WebhookConfigurationsRepository,
  WebhookDeliveriesRepository,
} from '../triggers/index.js';

/** Every repository, one per aggregate. Inside `transaction` the same shape is bound to the transaction. */
export interface Repositories {
  users: UsersRepository;
  refreshTokens: RefreshTokensRepository;
  personalAccessTokens: PersonalAccessTokensRepository;
  signInFailures: SignInFailuresRepository;
  memberships: MembershipsRepository;
  tenants: TenantsRepository;
  clients: ClientsRepository;
  settings: SettingsRepository;
  reviewJobs: ReviewJobsRepository;
  blockedPullRequests: BlockedPullRequestsRepository;
  dismissals: DismissalsRepository;
  protocol: ProtocolRepository;
  reviewPublications: ReviewPublicationsRepository;
  reviewFindings: ReviewFindingsRepository;
  providerConnections: ProviderConnectionsRepository;
  providerScopes: ProviderScopesRepository;
  reviewerIdentities: ReviewerIdentitiesRepository;
  aiConnections: AiConnectionsRepository;
  aiLogicalModels: AiLogicalModelsRepository;
  aiModelCatalog: AiModelCatalogRepository;
  knowledgeSources: KnowledgeSourcesRepository;
  webhookConfigurations: WebhookConfigurationsRepository;
  webhookDeliveries: WebhookDeliveriesRepository;
  crawlConfigurations: CrawlConfigurationsRepository;
}

/**
 * The storage port. `storage-knex` implements it on SQLite and PostgreSQL; core ships a memory one.
 * Both must pass `describeStorageContract` from `@margin/core/testing`.
 */
export interface StorageV1 extends Repositories {
  readonly specificationVersion: 'v1';
  readonly dialect: string;
  /**
   * Runs `fn` atomically and serializably: all of its writes land or none do. `fn` may run more than
   * once (a conflicting transaction is retried), so it must do nothing but storage work: emit events
   * and call providers after it returns. Use only `tx` inside.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Resolves when the database answers; used by health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
