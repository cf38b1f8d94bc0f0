export { type HostConfig, loadConfig } from './config.js';
export {
  type BackgroundWork,
  type BackgroundWorkSettings,
  createBackgroundWork,
} from './host/background-work.js';
export { createHealth, type HealthContributor, type HealthReport } from './host/health.js';
export type { HostContext, HttpSettings } from './host/host-context.js';
export { Poller, type PollerOptions } from './host/poller.js';
export { ReviewWorker, type ReviewWorkerOptions } from './host/review-worker.js';
export { type MarginHost, type MarginHostOptions, startMarginHost } from './host/start-host.js';
export {
  CrawlScheduler,
  type CrawlSchedulerOptions,
  type DeliveryProcessorOptions,
  WebhookDeliveryProcessor,
} from './host/trigger-workers.js';
export { type ApiAppOptions, configureExpressApp, createApiApp, createApiRouter } from './http/api-app.js';
export { createGateway } from './http/gateway.js';
export {
  mountRoutes,
  type PublicRouteContext,
  publicRoute,
  type RouteContext,
  type RouteResult,
  type RouteSpec,
  route,
} from './http/route.js';
export { createLogDestination, createLogger, type Logger } from './observability/logger.js';
export { createHttpMetrics, type HttpMetrics } from './observability/metrics.js';
export { buildOpenApiDocument, serializeOpenApi } from './openapi/openapi-document.js';
export { API_ROUTES } from './routes/index.js';
