import type { RequestHandler } from 'express';
import type { HostContext } from '../host/host-context.js';

/** `/livez`: the process answers; no dependency is checked. */
export const livez: RequestHandler = (_req, res) => {
  res.locals.routeTemplate = '/livez';
  res.json({ status: 'ok' });
};

/** `/healthz`: database and background workers; 503 when unhealthy so load balancers drain us. */
export function healthz(host: HostContext): RequestHandler {
  return async (_req, res, next) => {
    res.locals.routeTemplate = '/healthz';
    try {
      const report = await host.health();
      res.status(report.status === 'unhealthy' ? 503 : 200).json(report);
    } catch (error) {
      next(error);
    }
  };
}
