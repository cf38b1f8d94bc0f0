import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { MarginError } from '@margin/core';
import type { RequestHandler } from 'express';
import type { HttpSettings } from '../host/host-context.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

/**
 * `/metrics` tells an outsider a lot (routes, traffic, process details), so it is served only to
 * loopback callers (a scraper beside the host) or to callers with `MARGIN_METRICS_TOKEN` as a bearer
 * token. The caller's address is `req.ip`, which honours MARGIN_TRUST_PROXY and nothing else.
 */
export function metricsAccess(settings: Pick<HttpSettings, 'metricsToken'>): RequestHandler {
  // Hashes compare in constant time whatever the lengths.
  const expected = settings.metricsToken ? sha256(settings.metricsToken) : undefined;
  return (req, _res, next) => {
    if (isLoopback(req.ip)) return next();
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (expected && given && timingSafeEqual(sha256(given), expected)) return next();
    next(
      MarginError.forbidden(
        'Metrics are served to loopback callers, or with the metrics token (MARGIN_METRICS_TOKEN).',
      ),
    );
  };
}
