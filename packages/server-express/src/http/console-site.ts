import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import express, { type RequestHandler } from 'express';

/**
 * Serves the management console's build (packages/console) from `dir`: hashed assets cached for a
 * year, and the app's page for every other GET that wants HTML, so deep links such as
 * `/clients/<id>/reviews/<job>` open on reload. Paths with a file extension that do not exist fall
 * through to the gateway's JSON 404.
 */
export function consoleSite(dir: string): RequestHandler {
  const page = join(dir, 'index.html');
  if (!existsSync(page)) throw new Error(`MARGIN_CONSOLE_DIR has no index.html: ${dir}`);
  const files = express.static(dir, {
    index: false,
    redirect: false,
    setHeaders: (res, path) => {
      res.setHeader(
        'Cache-Control',
        path.includes(`${join(dir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    files(req, res, () => {
      if (extname(req.path) || !req.accepts('html')) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(page);
    });
  };
}
