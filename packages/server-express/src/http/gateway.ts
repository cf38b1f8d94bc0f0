import express, { type Express, type RequestHandler, type Router } from 'express';
import type { HostContext } from '../host/host-context.js';
import { configureExpressApp } from './api-app.js';
import { consoleSite } from './console-site.js';
import { errorResponder, notFoundResponder } from './errors.js';
import { healthz, livez } from './health-handlers.js';
import { requestId } from './request-id.js';
import { securityHeaders } from './security-headers.js';

/**
 * The reference gateway: the API under `/api` (prefix stripped), the webhook receiver forwarded at
 * its own `/webhooks/...` path, and its own `/healthz` and `/livez`.
 */
export function createGateway(
  api: Router,
  host: HostContext,
  options: { consoleDir?: string | undefined } = {},
): Express {
  // One Express app with the API router mounted directly: a nested app would swap request and
  // response prototypes on every call.
  const gateway = configureExpressApp(express(), host.config);

  gateway.use('/api', api);
  const webhooks: RequestHandler = (req, res, next) =>
    req.path.startsWith('/webhooks/') ? api(req, res, next) : next();
  gateway.use(webhooks);

  gateway.use(securityHeaders());
  gateway.use((req, res, next) => {
    req.id ??= requestId(req, res);
    next();
  });
  gateway.get('/livez', livez);
  gateway.get('/healthz', healthz(host));
  if (options.consoleDir) gateway.use(consoleSite(options.consoleDir));
  gateway.use(notFoundResponder());
  gateway.use(errorResponder(host.logger));
  return gateway;
}
