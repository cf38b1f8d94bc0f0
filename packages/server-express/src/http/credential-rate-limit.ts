import { MarginError } from '@margin/core';
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';

/**
 * The per-IP limit on credential endpoints (sign-in, refresh, password change): a fixed window,
 * answered 429 with `Retry-After` in the usual error shape. Counts live in this process.
 */
export function credentialRateLimit(options: { permits: number; windowSeconds: number }): RequestHandler {
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.permits,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    // An X-Forwarded-For from a proxy nobody named is ignored on purpose (MARGIN_TRUST_PROXY); the
    // library's warning about it would fire on every such request.
    validate: { xForwardedForHeader: false },
    handler: (req, _res, next) => {
      const resetTime = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = resetTime
        ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
        : options.windowSeconds;
      next(MarginError.rateLimited('Too many attempts from this address. Try again later.', seconds));
    },
  });
}
