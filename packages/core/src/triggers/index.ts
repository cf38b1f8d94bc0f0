import type { CoreDeps } from '../deps.js';
import type { Actor } from '../kernel/index.js';
import * as crawl from './crawl-configurations.js';
import { type CrawlRequest, crawlDueConfigurations } from './crawler.js';
import { DeliveryBatcher } from './delivery-batcher.js';
import { pruneDeliveries } from './delivery-retention.js';
import { RejectionBudget } from './rejection-budget.js';
import type { ListenerBase } from './webhook-configurations.js';
import * as webhooks from './webhook-configurations.js';
import { type IncomingDelivery, receiveWebhook } from './webhook-intake.js';
import { type ProcessRequest, processPendingDeliveries } from './webhook-processing.js';

export type { ByCoordinatesAnswer } from './by-coordinates.js';
export { DEFAULT_CRAWL_INTERVAL_SECONDS } from './crawl-configurations.js';
export { type CrawlRequest, type CrawlRoundResult, MAX_PULL_REQUESTS_PER_CRAWL } from './crawler.js';
export { branchMatches, matchRepoFilters, sameRepositoryId } from './repo-filters.js';
export * from './schemas.js';
export * from './trigger-records.js';
export { type ListenerBase, listenerUrl } from './webhook-configurations.js';
export type { IncomingDelivery, ReceiverAnswer } from './webhook-intake.js';
export { DELIVERY_RETRY_MS, MAX_DELIVERY_ATTEMPTS, type ProcessRequest } from './webhook-processing.js';

export interface TriggerOptions {
  /** How long a webhook configuration (and its opened secret) may be served from memory. Default 2000 ms. */
  configurationCacheMs?: number | undefined;
}

/**
 * Crawl and webhook configurations, the public receiver, the delivery processor and the crawler
 * (by-coordinates submissions are `core.reviewing.submitReviewByCoordinates`). `base` is where the
 * gateway is reachable from the providers (`MARGIN_PUBLIC_BASE_URL`, or the host's listen address):
 * listener URLs are built from it.
 */
export function createTriggerUseCases(deps: CoreDeps, options: TriggerOptions = {}) {
  const cache = new webhooks.WebhookConfigurationCache(deps, deps.clock, options.configurationCacheMs ?? 2000);
  // A client deactivated on this host stops receiving at once (other hosts: within the cache's TTL).
  deps.events.on('client.updated', () => cache.forgetAll());
  const batcher = new DeliveryBatcher(() => deps.storage.webhookDeliveries);
  const rejections = new RejectionBudget(deps.clock);
  return {
    createWebhookConfiguration: (actor: Actor, input: unknown, base: ListenerBase) =>
      webhooks.createWebhookConfiguration(deps, actor, input, base),
    listWebhookConfigurations: (actor: Actor, query: unknown, base: ListenerBase) =>
      webhooks.listWebhookConfigurations(deps, actor, query, base),
    getWebhookConfiguration: (actor: Actor, id: string, base: ListenerBase) =>
      webhooks.getWebhookConfiguration(deps, actor, id, base),
    patchWebhookConfiguration: (actor: Actor, id: string, input: unknown, base: ListenerBase) =>
      webhooks.patchWebhookConfiguration(deps, cache, actor, id, input, base),
    deleteWebhookConfiguration: (actor: Actor, id: string) =>
      webhooks.deleteWebhookConfiguration(deps, cache, actor, id),
    listWebhookDeliveries: (actor: Actor, id: string, query: unknown) =>
      webhooks.listWebhookDeliveries(deps, actor, id, query),
    createCrawlConfiguration: (actor: Actor, input: unknown) => crawl.createCrawlConfiguration(deps, actor, input),
    listCrawlConfigurations: (actor: Actor, query: unknown) => crawl.listCrawlConfigurations(deps, actor, query),
    getCrawlConfiguration: (actor: Actor, id: string) => crawl.getCrawlConfiguration(deps, actor, id),
    patchCrawlConfiguration: (actor: Actor, id: string, input: unknown) =>
      crawl.patchCrawlConfiguration(deps, actor, id, input),
    deleteCrawlConfiguration: (actor: Actor, id: string) => crawl.deleteCrawlConfiguration(deps, actor, id),
    /** The public receiver: no actor, the configuration's secret authenticates the delivery. */
    receiveWebhook: (incoming: IncomingDelivery) => receiveWebhook(deps, cache, batcher, rejections, incoming),
    /** For hosts: one round of the delivery processor. */
    processPendingDeliveries: (request: ProcessRequest) => processPendingDeliveries(deps, request),
    /** For hosts: deletes delivery history older than `retentionDays`; answers how many went. */
    pruneDeliveries: (retentionDays: number) => pruneDeliveries(deps, retentionDays),
    /** For hosts: one round of the crawl scheduler (idle while `crawl-configs` is unavailable). */
    crawlDue: (request: CrawlRequest) => crawlDueConfigurations(deps, request),
  };
}

export type TriggerUseCases = ReturnType<typeof createTriggerUseCases>;
export { submitByCoordinates } from './by-coordinates.js';
