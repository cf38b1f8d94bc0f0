import type { RequestHandler } from 'express';
import { requestId } from '../http/request-id.js';
import type { Logger } from './logger.js';
import type { HttpMetrics } from './metrics.js';

/**
 * Per request: an id (echoed in `X-Request-Id` and error bodies), one log line and the HTTP metrics,
 * all from a single `finish` listener. Headers and query strings are never logged, so credentials
 * cannot leak through them.
 */
export function requestObserver(logger: Logger, metrics: HttpMetrics): RequestHandler {
  // These lines carry only the fields below, none of them secret, so they skip redaction's walk.
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    req.id = requestId(req, res);
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const route = (res.locals.routeTemplate as string | undefined) ?? 'unmatched';
      metrics.observe(req.method, route, res.statusCode, seconds);
      if (lines.isLevelEnabled('info')) {
        lines.info(
          {
            reqId: req.id,
            method: req.method,
            path: req.originalUrl.split('?', 1)[0],
            route,
            status: res.statusCode,
            ms: Math.round(seconds * 10_000) / 10,
            userId: req.actor?.userId,
          },
          'request completed',
        );
      }
    });
    next();
  };
}
