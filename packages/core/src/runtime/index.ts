export { type BackgroundWork, createBackgroundWork } from './background-work.js';
export { ConversationWorker, type ConversationWorkerOptions } from './conversation-worker.js';
export { createHealth, type HealthContributor, type HealthReport } from './health.js';
export { consoleLogger, type MarginLogger, silentLogger } from './logger.js';
export { Poller, type PollerOptions } from './poller.js';
export { ReviewWorker, type ReviewWorkerOptions } from './review-worker.js';
export { createMarginService, type MarginService, type MarginServiceOptions } from './service.js';
export {
  type BackgroundSettings,
  type BackgroundSettingsInput,
  type ConversationSettings,
  type CrawlerSettings,
  DEFAULT_BACKGROUND_SETTINGS,
  type DeliverySettings,
  resolveBackgroundSettings,
  type WorkerSettings,
} from './settings.js';
export {
  CrawlScheduler,
  type CrawlSchedulerOptions,
  type DeliveryProcessorOptions,
  WebhookDeliveryProcessor,
} from './trigger-workers.js';
