import './express-augment.js';
import type { MarginCore } from '@margin/core';
import cookieParser from 'cookie-parser';
import express, { type Express, Router } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import type { HostContext } from '../host/host-context.js';
import type { HttpMetrics } from '../observability/metrics.js';
import { requestObserver } from '../observability/request-observer.js';
import { buildOpenApiDocument } from '../openapi/openapi-document.js';
import { API_ROUTES } from '../routes/index.js';
import { authenticate } from './authenticate.js';
import { credentialRateLimit } from './credential-rate-limit.js';
import { errorResponder, JSON_BODY_LIMIT, notFoundResponder } from './errors.js';
import { healthz, livez } from './health-handlers.js';
import { mountRoutes, type RouteSpec } from './route.js';

export interface ApiAppOptions {
  host: HostContext;
  metrics: HttpMetrics;
  routes?: readonly RouteSpec[] | undefined;
}

/**
 * The API with bare paths, exactly what openapi.json describes, plus `/healthz`, `/livez` and
 * `/metrics`. Mount it anywhere; the reference gateway serves it under `/api`.
 */
export function createApiApp(core: MarginCore, options: ApiAppOptions): Express {
  const { host, metrics } = options;
  const routes = options.routes ?? API_ROUTES;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Proxies on loopback or private networks may tell us the client address (per-IP limits).
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');

  app.use(requestObserver(host.logger, metrics));
  app.use(helmet());

  app.get('/livez', livez);
  app.get('/healthz', healthz(host));
  app.get('/metrics', async (_req, res, next) => {
    try {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    } catch (error) {
      next(error);
    }
  });
  if (host.config.development) {
    const document = buildOpenApiDocument(routes);
    app.get('/swagger/v1/swagger.json', (_req, res) => {
      res.json(document);
    });
    app.use('/swagger', swaggerUi.serve, swaggerUi.setup(document));
  }

  app.use(express.json({ limit: JSON_BODY_LIMIT, type: ['application/json', 'application/*+json'] }));
  app.use(cookieParser());
  app.use(authenticate(core));
  const router = Router();
  mountRoutes(router, routes, core, host, { credentials: credentialRateLimit(host.config.authRateLimit) });
  app.use(router);

  app.use(notFoundResponder());
  app.use(errorResponder(host.logger));
  return app;
}
