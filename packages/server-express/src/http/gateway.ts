import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { HostContext } from '../host/host-context.js';
import { errorResponder, notFoundResponder } from './errors.js';
import { healthz, livez } from './health-handlers.js';
import { requestId } from './request-id.js';

/**
 * The reference gateway: the API under `/api` (prefix stripped), the webhook receiver forwarded at
 * its own `/webhooks/...` path, and its own `/healthz` and `/livez`.
 */
export function createGateway(api: Express, host: HostContext): Express {
  const gateway = express();
  gateway.disable('x-powered-by');
  gateway.set('etag', false);
  gateway.set('trust proxy', 'loopback, linklocal, uniquelocal');

  gateway.use('/api', api);
  const webhooks: RequestHandler = (req, res, next) =>
    req.path.startsWith('/webhooks/') ? api(req, res, next) : next();
  gateway.use(webhooks);

  gateway.use(helmet());
  gateway.use((req, res, next) => {
    req.id ??= requestId(req, res);
    next();
  });
  gateway.get('/livez', livez);
  gateway.get('/healthz', healthz(host));
  gateway.use(notFoundResponder());
  gateway.use(errorResponder(host.logger));
  return gateway;
}
