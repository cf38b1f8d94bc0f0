import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * helmet's headers, worked out once. With the default options they are the same for every response,
 * so setting a precomputed list costs a loop instead of helmet's dozen middlewares per request.
 */
export function securityHeaders(): RequestHandler {
  const headers = new Map<string, string | number | readonly string[]>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name, value);
      return recorder;
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
    getHeader: (name: string) => headers.get(name),
  };
  helmet()({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  const entries = [...headers];
  return (_req, res, next) => {
    for (const [name, value] of entries) res.setHeader(name, value);
    res.removeHeader('X-Powered-By');
    next();
  };
}
