export { backgroundSettingsOf, DEFAULT_AUTH_RATE_LIMIT, type HostConfig, loadConfig } from './config.js';
export type { HostContext, HttpSettings } from './host/host-context.js';
export {
  createHostContext,
  createMarginRouter,
  type MarginRouterOptions,
  type MarginRouterSsoOptions,
} from './host/margin-router.js';
export { type MarginHost, type MarginHostOptions, startMarginHost } from './host/start-host.js';
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
export { createSsoContext, type SsoContext } from './http/sso/openid-connect.js';
export { createLogDestination, createLogger, type Logger } from './observability/logger.js';
export { createHttpMetrics, type HttpMetrics } from './observability/metrics.js';
export { buildOpenApiDocument, serializeOpenApi } from './openapi/openapi-document.js';
export { API_ROUTES } from './routes/index.js';
