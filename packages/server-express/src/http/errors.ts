import { ERROR_STATUS, type ErrorCode, MarginError, toMarginError } from '@margin/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../observability/logger.js';

export const JSON_BODY_LIMIT = '1mb';

/** Errors raised by Express's own body parsing, by their `type`. */
function fromExpressError(error: unknown): MarginError | undefined {
  const { type, limit } = (error ?? {}) as { type?: unknown; limit?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return MarginError.validation('The request body is not valid JSON.');
    case 'entity.too.large':
      // The parser reports the limit of the route that refused it (API JSON or webhook payloads).
      return new MarginError(
        'payload_too_large',
        `The request body is larger than the ${typeof limit === 'number' ? megabytes(limit) : JSON_BODY_LIMIT} limit.`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return MarginError.validation('The request body uses an unsupported encoding or charset.');
    case 'request.aborted':
      return MarginError.validation('The request was aborted before its body arrived.');
    default:
      return fromClientErrorStatus(error);
  }
}

/**
 * The router's URI decoding (`/clients/%FF`) and middleware using http-errors (`expose` set) throw
 * the client's mistakes with a 4xx status: never a 500. Their messages may echo the raw input, so the
 * answer is worded here and only the status carries over. Other errors with a `status` (a provider
 * SDK's, say) are not the caller's doing and stay internal.
 */
function fromClientErrorStatus(error: unknown): MarginError | undefined {
  if (typeof error !== 'object' || error === null || MarginError.isInstance(error)) return undefined;
  const { status, statusCode, expose } = error as { status?: unknown; statusCode?: unknown; expose?: unknown };
  const code = status ?? statusCode;
  if (typeof code !== 'number' || code < 400 || code > 499) return undefined;
  if (error instanceof URIError) return MarginError.validation('The request path is not validly percent-encoded.');
  if (expose !== true) return undefined;
  switch (code) {
    case 401:
      return MarginError.unauthenticated();
    case 403:
      return MarginError.forbidden();
    case 404:
      return MarginError.notFound('Not found.');
    case 413:
      return new MarginError('payload_too_large', 'The request is too large.');
    default:
      return MarginError.validation('The request is invalid.');
  }
}

/**
 * Outcomes core returns as data instead of throwing (by-coordinates, the webhook receiver) carry an
 * error code when they refuse; they answer with the status that code has when thrown.
 */
export const statusOfRefusal = (code: ErrorCode): number => ERROR_STATUS[code];

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10}mb`;

/**
 * The one place an error becomes a response: `{ error, code, ...details, requestId }`. Unexpected
 * errors are logged and answered with a generic message; nothing internal reaches the wire.
 */
export function errorResponder(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const error = fromExpressError(err) ?? toMarginError(err);
    if (error.code === 'internal' || error.code === 'service_unavailable') {
      logger.error({ err: error.cause ?? err, reqId: req.id }, 'request failed');
    }
    if (res.headersSent) return res.end();
    const retryAfter = error.details.retryAfterSeconds;
    if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
    res.status(error.status).json({ ...error.toBody(), requestId: req.id });
  };
}

export function notFoundResponder(): RequestHandler {
  return (req, res) => {
    res
      .status(404)
      .json({ error: `No endpoint matches ${req.method} ${req.path}.`, code: 'not_found', requestId: req.id });
  };
}
