import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configureExpressApp } from '@margin/server-express';
import express, { type Express } from 'express';
import { createEmbeddedMargin, type EmbeddedMargin, type EmbeddedMarginOptions } from './embedded-margin.js';

export interface AppOptions extends EmbeddedMarginOptions {
  /** Where Margin's API lives inside the app. Default `/review-api`. */
  mountPath?: string | undefined;
  /** Default 3000; 0 lets the OS pick (tests). */
  port?: number | undefined;
  /** Default 127.0.0.1. */
  host?: string | undefined;
}

export interface RunningApp {
  /** e.g. `http://127.0.0.1:3000` */
  url: string;
  mountPath: string;
  margin: EmbeddedMargin;
  /** Stops taking connections, lets requests in flight finish, then closes Margin's database. */
  close(): Promise<void>;
}

/** The team's own app: its routes, with Margin's API mounted under `mountPath`. */
export function createApp(margin: EmbeddedMargin, mountPath: string): Express {
  // Margin's shared settings: no `x-powered-by`, no etags, and no proxy trusted for client addresses
  // (Margin rate-limits sign-in per IP): pass `{ trustProxy: [...] }` naming the app's own proxies.
  const app = configureExpressApp(express());
  app.get('/hello', (_req, res) => {
    res.json({ app: 'team-portal', message: 'Hello from the app’s own route.' });
  });
  app.use(mountPath, margin.router);
  return app;
}

export async function startApp(options: AppOptions): Promise<RunningApp> {
  const mountPath = options.mountPath ?? '/review-api';
  const margin = await createEmbeddedMargin(options);
  const server = createServer(createApp(margin, mountPath));
  try {
    await listen(server, options.port ?? 3000, options.host ?? '127.0.0.1');
  } catch (error) {
    await margin.close();
    throw error;
  }
  const { address, port, family } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`,
    mountPath,
    margin,
    close: () => {
      closing ??= closeServer(server).then(() => margin.close());
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    // A client that never finishes its request must not hold shutdown forever.
    const cut = setTimeout(() => server.closeAllConnections(), 10_000);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
