import { type MarginCore, MarginError } from '@margin/core';
import type { RequestHandler } from 'express';

/**
 * Resolves `req.actor` from `Authorization: Bearer <access token>` or, failing that, `X-User-Pat`.
 * An invalid credential is remembered, not answered here: public routes (sign-in, the webhook
 * receiver) ignore it, every other route answers 401.
 */
export function authenticate(core: MarginCore): RequestHandler {
  return async (req, _res, next) => {
    const authorization = req.headers.authorization;
    const pat = req.headers['x-user-pat'];
    let failure: unknown;
    try {
      if (authorization?.startsWith('Bearer ')) {
        try {
          req.actor = await core.identity.authenticateAccessToken(authorization.slice(7).trim());
          return next();
        } catch (error) {
          failure = error;
        }
      }
      if (typeof pat === 'string' && pat) {
        req.actor = await core.identity.authenticatePersonalAccessToken(pat.trim());
        return next();
      }
    } catch (error) {
      failure = error;
    }
    if (failure !== undefined) {
      if (!MarginError.isInstance(failure) || failure.code !== 'unauthenticated') return next(failure);
      req.authFailure = failure;
    }
    next();
  };
}
