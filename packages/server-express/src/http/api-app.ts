import './express-augment.js';
import type { MarginCore } from '@margin/core';
import cookieParser from 'cookie-parser';
import express, { type Express, Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { HostContext, HttpSettings } from '../host/host-context.js';
import type { HttpMetrics } from '../observability/metrics.js';
import { requestObserver } from '../observability/request-observer.js';
import { buildOpenApiDocument } from '../openapi/openapi-document.js';
import { API_ROUTES } from '../routes/index.js';
import { authenticate } from './authenticate.js';
import { credentialRateLimit } from './credential-rate-limit.js';
import { errorResponder, JSON_BODY_LIMIT, notFoundResponder } from './errors.js';
import { healthz, livez } from './health-handlers.js';
import { metricsAccess } from './metrics-access.js';
import { refuseNulCharacters } from './refuse-nul.js';
import { mountRoutes, type RouteSpec } from './route.js';
import { securityHeaders } from './security-headers.js';

export interface ApiAppOptions {
  host: HostContext;
  metrics: HttpMetrics;
  routes?: readonly RouteSpec[] | undefined;
}

/** Settings every Margin Express app shares. */
export function configureExpressApp(app: Express, settings: Pick<HttpSettings, 'trustProxy'> = {}): Express {
  app.disable('x-powered-by');
  app.set('etag', false);
  // Forwarded headers count only from proxies the operator named (MARGIN_TRUST_PROXY): anyone can
  // send X-Forwarded-For, and the per-IP limit on credential endpoints must not be dodged by it.
  app.set('trust proxy', settings.trustProxy ?? false);
  return app;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Webhook payloads (a GitHub pull_request event with a long description easily passes 1 MB). */
export const WEBHOOK_BODY_LIMIT = '5mb';

/**
 * The API with bare paths, exactly what openapi.json describes, plus `/healthz`, `/livez` and
 * `/metrics`, as a Router: mount it in any Express app. The reference gateway serves it under `/api`.
 */
export function createApiRouter(core: MarginCore, options: ApiAppOptions): Router {
  const { host, metrics } = options;
  const routes = options.routes ?? API_ROUTES;
  const api = Router();

  api.use(requestObserver(host.logger, metrics));
  api.use(securityHeaders());

  api.get('/livez', livez);
  api.get('/healthz', healthz(host));
  api.get('/metrics', metricsAccess(host.config), async (_req, res, next) => {
    try {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    } catch (error) {
      next(error);
    }
  });
  if (host.config.development) {
    const document = buildOpenApiDocument(routes);
    api.get('/swagger/v1/swagger.json', (_req, res) => {
      res.json(document);
    });
    api.use('/swagger', swaggerUi.serve, swaggerUi.setup(document));
  }

  const json = express.json({ limit: JSON_BODY_LIMIT, type: ['application/json', 'application/*+json'] });
  // Webhook deliveries stay raw bytes (signatures cover them exactly; the receiver parses them) and
  // may be larger than API bodies: providers send whole pull requests.
  const webhookBody = express.raw({ limit: WEBHOOK_BODY_LIMIT, type: () => true });
  api.use((req, res, next) => {
    if (!BODY_METHODS.has(req.method)) return next();
    return req.path.startsWith('/webhooks/') ? webhookBody(req, res, next) : json(req, res, next);
  });
  api.use(refuseNulCharacters());
  // Only the auth endpoints read a cookie (the refresh token).
  api.use('/auth', cookieParser());
  api.use(authenticate(core));
  mountRoutes(api, routes, core, host, { credentials: credentialRateLimit(host.config.authRateLimit) });

  api.use(notFoundResponder());
  api.use(errorResponder(host.logger));
  return api;
}

/** The API as a standalone Express app with bare paths (the gateway mounts the router instead). */
export function createApiApp(core: MarginCore, options: ApiAppOptions): Express {
  const app = configureExpressApp(express(), options.host.config);
  app.use(createApiRouter(core, options));
  return app;
}
