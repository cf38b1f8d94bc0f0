import type { AuditRepositories, AuditTrail } from '../audit/index.js';
import type { ConversationsRepositories } from '../conversations/index.js';
import type { Clock, EventBus, Ids, SecretBox, StorageSlice } from '../kernel/index.js';
import type { KnowledgeRepositories } from '../knowledge/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { ProviderRegistry } from '../provider-registry/index.js';
import type { JobStatusCache, KnowledgeHeadSeen, ReviewingRepositories } from '../reviewing/index.js';
import type { ScmRepositories } from '../scm/index.js';
import type { Authorizer, TenancyRepositories } from '../tenancy/index.js';
import type {
  CrawlConfigurationsRepository,
  WebhookConfigurationsRepository,
  WebhookDeliveriesRepository,
} from './trigger-records.js';

/** Triggers' part of the storage port: webhook and crawl configurations and webhook deliveries. */
export interface TriggersRepositories {
  webhookConfigurations: WebhookConfigurationsRepository;
  webhookDeliveries: WebhookDeliveriesRepository;
  crawlConfigurations: CrawlConfigurationsRepository;
}

/** What the trigger use cases, the receiver, the delivery processor and the crawler need. */
export interface TriggersDeps {
  storage: StorageSlice<
    TriggersRepositories &
      ConversationsRepositories &
      ReviewingRepositories &
      ScmRepositories &
      KnowledgeRepositories &
      TenancyRepositories &
      LicensingRepositories &
      AuditRepositories
  >;
  secrets: SecretBox;
  clock: Clock;
  ids: Ids;
  events: EventBus;
  providers: ProviderRegistry;
  authz: Authorizer;
  jobStatusCache: JobStatusCache;
  audit: AuditTrail;
  /**
   * Code knowledge hears the branch heads a crawl read (stale indexes, `branchUpdate` refreshes).
   * Absent, crawls read no branch heads.
   */
  knowledgeHeadSeen?: KnowledgeHeadSeen | undefined;
}
