export type { ByCoordinatesAnswer } from './by-coordinates.js';
export { DEFAULT_CRAWL_INTERVAL_SECONDS } from './crawl-configurations.js';
export { type CrawlRequest, type CrawlRoundResult, MAX_PULL_REQUESTS_PER_CRAWL } from './crawler.js';
export { branchMatches, matchRepoFilters, sameRepositoryId } from './repo-filters.js';
export * from './schemas.js';
export * from './trigger-records.js';
export type { TriggersDeps, TriggersRepositories } from './triggers-deps.js';
export {
  type ByCoordinatesUseCase,
  conversationOriginsOf,
  createByCoordinatesUseCase,
  createTriggerUseCases,
  jobOriginsOf,
  type TriggerOptions,
  type TriggerUseCases,
} from './use-cases.js';
export { type ListenerBase, listenerUrl } from './webhook-configurations.js';
export type { IncomingDelivery, ReceiverAnswer } from './webhook-intake.js';
export { DELIVERY_RETRY_MS, MAX_DELIVERY_ATTEMPTS, type ProcessRequest } from './webhook-processing.js';
