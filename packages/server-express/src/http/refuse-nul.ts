import { MarginError } from '@margin/core';
import type { RequestHandler } from 'express';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in a path, a query or a JSON body used to fail deep
 * in storage as a 500. No field of this API means anything with one: it is refused at the door.
 * Webhook deliveries stay raw bytes here; their receiver parses them.
 */
export function refuseNulCharacters(): RequestHandler {
  return (req, _res, next) => {
    if (/%00/i.test(req.originalUrl))
      return next(MarginError.validation('The request path or query must not contain a NUL character (%00).'));
    if (!Buffer.isBuffer(req.body) && containsNul(req.body))
      return next(MarginError.validation('The request body must not contain a NUL character (\\u0000).'));
    return next();
  };
}

/** Walks keys and strings without recursion: a body may nest thousands of levels deep. */
function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, element] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        pending.push(element);
      }
    }
  }
  return false;
}
