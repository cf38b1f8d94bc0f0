import type { ConversationOrigins } from '../conversations/index.js';
import type { Actor } from '../kernel/index.js';
import type { JobOrigins } from '../reviewing/index.js';
import { type ByCoordinatesAnswer, submitByCoordinates } from './by-coordinates.js';
import * as crawl from './crawl-configurations.js';
import { type CrawlRequest, type CrawlRoundResult, crawlDueConfigurations } from './crawler.js';
import { DeliveryBatcher } from './delivery-batcher.js';
import { pruneDeliveries } from './delivery-retention.js';
import { RejectionBudget } from './rejection-budget.js';
import type {
  CrawlConfigurationListBody,
  CrawlConfigurationViewBody,
  CreatedWebhookConfigurationViewBody,
  WebhookConfigurationListBody,
  WebhookConfigurationViewBody,
  WebhookDeliveryListBody,
} from './schemas.js';
import { reviewRequestFor } from './trigger-config.js';
import type { TriggersDeps, TriggersRepositories } from './triggers-deps.js';
import type { ListenerBase } from './webhook-configurations.js';
import * as webhooks from './webhook-configurations.js';
import { type IncomingDelivery, type ReceiverAnswer, receiveWebhook } from './webhook-intake.js';
import { type ProcessRequest, processPendingDeliveries } from './webhook-processing.js';

export interface TriggerOptions {
  /** How long a webhook configuration (and its opened secret) may be served from memory. Default 2000 ms. */
  configurationCacheMs?: number | undefined;
}

/**
 * Crawl and webhook configurations, the public receiver, the delivery processor and the crawler.
 * `base` is where the gateway is reachable from the providers (`MARGIN_PUBLIC_BASE_URL`, or the
 * host's listen address): listener URLs are built from it.
 */
export interface TriggerUseCases {
  createWebhookConfiguration(
    actor: Actor,
    input: unknown,
    base: ListenerBase,
  ): Promise<CreatedWebhookConfigurationViewBody>;
  listWebhookConfigurations(actor: Actor, query: unknown, base: ListenerBase): Promise<WebhookConfigurationListBody>;
  getWebhookConfiguration(actor: Actor, id: string, base: ListenerBase): Promise<WebhookConfigurationViewBody>;
  patchWebhookConfiguration(
    actor: Actor,
    id: string,
    input: unknown,
    base: ListenerBase,
  ): Promise<WebhookConfigurationViewBody>;
  deleteWebhookConfiguration(actor: Actor, id: string): Promise<void>;
  listWebhookDeliveries(actor: Actor, id: string, query: unknown): Promise<WebhookDeliveryListBody>;
  createCrawlConfiguration(actor: Actor, input: unknown): Promise<CrawlConfigurationViewBody>;
  listCrawlConfigurations(actor: Actor, query: unknown): Promise<CrawlConfigurationListBody>;
  getCrawlConfiguration(actor: Actor, id: string): Promise<CrawlConfigurationViewBody>;
  patchCrawlConfiguration(actor: Actor, id: string, input: unknown): Promise<CrawlConfigurationViewBody>;
  deleteCrawlConfiguration(actor: Actor, id: string): Promise<void>;
  /** The public receiver: no actor, the configuration's secret authenticates the delivery. */
  receiveWebhook(incoming: IncomingDelivery): Promise<ReceiverAnswer>;
  /** For hosts: one round of the delivery processor; answers how many deliveries it processed. */
  processPendingDeliveries(request: ProcessRequest): Promise<number>;
  /** For hosts: deletes delivery history older than `retentionDays`; answers how many went. */
  pruneDeliveries(retentionDays: number): Promise<number>;
  /** For hosts: one round of the crawl scheduler (idle while `crawl-configs` is unavailable). */
  crawlDue(request: CrawlRequest): Promise<CrawlRoundResult>;
}

export function createTriggerUseCases(deps: TriggersDeps, options: TriggerOptions = {}): TriggerUseCases {
  const cache = new webhooks.WebhookConfigurationCache(deps, deps.clock, options.configurationCacheMs ?? 2000);
  // A client deactivated on this host stops receiving at once (other hosts: within the cache's TTL).
  deps.events.on('client.updated', () => cache.forgetAll());
  deps.events.on('tenant.updated', () => cache.forgetAll());
  const batcher = new DeliveryBatcher(() => deps.storage.webhookDeliveries);
  const rejections = new RejectionBudget(deps.clock);
  return {
    createWebhookConfiguration: (actor, input, base) => webhooks.createWebhookConfiguration(deps, actor, input, base),
    listWebhookConfigurations: (actor, query, base) => webhooks.listWebhookConfigurations(deps, actor, query, base),
    getWebhookConfiguration: (actor, id, base) => webhooks.getWebhookConfiguration(deps, actor, id, base),
    patchWebhookConfiguration: (actor, id, input, base) =>
      webhooks.patchWebhookConfiguration(deps, cache, actor, id, input, base),
    deleteWebhookConfiguration: (actor, id) => webhooks.deleteWebhookConfiguration(deps, cache, actor, id),
    listWebhookDeliveries: (actor, id, query) => webhooks.listWebhookDeliveries(deps, actor, id, query),
    createCrawlConfiguration: (actor, input) => crawl.createCrawlConfiguration(deps, actor, input),
    listCrawlConfigurations: (actor, query) => crawl.listCrawlConfigurations(deps, actor, query),
    getCrawlConfiguration: (actor, id) => crawl.getCrawlConfiguration(deps, actor, id),
    patchCrawlConfiguration: (actor, id, input) => crawl.patchCrawlConfiguration(deps, actor, id, input),
    deleteCrawlConfiguration: (actor, id) => crawl.deleteCrawlConfiguration(deps, actor, id),
    receiveWebhook: (incoming) => receiveWebhook(deps, cache, batcher, rejections, incoming),
    processPendingDeliveries: (request) => processPendingDeliveries(deps, request),
    pruneDeliveries: (retentionDays) => pruneDeliveries(deps, retentionDays),
    crawlDue: (request) => crawlDueConfigurations(deps, request),
  };
}

/**
 * `POST /clients/{clientId}/reviewing/jobs/by-coordinates`: a review under the configuration that
 * covers the coordinates. It is served in the reviewing group of the API; triggers owns it because
 * the configuration decides.
 */
export interface ByCoordinatesUseCase {
  /** Answers with a named outcome and its HTTP status (see the by-coordinates outcome table). */
  submitReviewByCoordinates(actor: Actor, clientId: string, input: unknown): Promise<ByCoordinatesAnswer>;
}

export function createByCoordinatesUseCase(deps: TriggersDeps): ByCoordinatesUseCase {
  return {
    submitReviewByCoordinates: (actor, clientId, input) => submitByCoordinates(deps, actor, clientId, input),
  };
}

/** The configurations that queue jobs, as reviewing reads them: where a triggered job's pull request lives. */
/**
 * The review a mention's `review` command queues: an explicit one under the configuration that found
 * the comment, as a by-coordinates request would be (explicit requests may review a revision again).
 */
export function conversationOriginsOf(
  storage: Pick<TriggersRepositories, 'webhookConfigurations' | 'crawlConfigurations'>,
): ConversationOrigins {
  return {
    async reviewRequestFor(conversation, opened, pr) {
      const config =
        conversation.originKind === 'webhook'
          ? await storage.webhookConfigurations.findById(conversation.configurationId)
          : await storage.crawlConfigurations.findById(conversation.configurationId);
      if (!config || config.clientId !== conversation.clientId) return undefined;
      return reviewRequestFor(config, opened, pr, 'byCoordinates', null);
    },
  };
}

export function jobOriginsOf(
  storage: Pick<TriggersRepositories, 'webhookConfigurations' | 'crawlConfigurations'>,
): JobOrigins {
  return {
    find: async (configurationId) =>
      (await storage.webhookConfigurations.findById(configurationId)) ??
      (await storage.crawlConfigurations.findById(configurationId)),
  };
}
