import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAesGcmSecretBox, createMarginService, type MarginLogger, type MarginService } from '@margin/core';
import { createProviderRegistry } from '@margin/providers';
import { createMarginRouter } from '@margin/server-express';
import { openKnexStorage } from '@margin/storage-knex';
import express, { type Express } from 'express';

/** Everything Margin needs, handed over in code by the app rather than read from the environment. */
export interface MarginSettings {
  /** `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. Migrations run while opening. */
  databaseUrl: string;
  /** Signs Margin's access tokens; at least 32 characters. Take it from your secret store. */
  jwtSecret: string;
  /** 32 bytes that seal stored credentials (SCM tokens, AI keys). A backup is useless without it. */
  secretsKey: Uint8Array;
  /** The platform administrator created while none exists: the app's first way in. */
  bootstrapAdmin: { username: string; password: string };
  /** Where Margin's API lives inside the app. Default `/review-api`. */
  mountPath?: string | undefined;
  /**
   * The public URL of the mount point (`https://portal.example.com/review-api`): webhook listener URLs
   * and the single sign-on redirect URI (`<publicBaseUrl>/auth/sso/callback`) are built on it.
   */
  publicBaseUrl?: string | undefined;
  /** Lets AI connections and identity providers reach loopback/private hosts over plain http (local models, a lab issuer). Default false. */
  allowPrivateEgress?: boolean | undefined;
  /** A pino logger (Margin's `createLogger`) also gets the request lines; default: warnings to the console. */
  logger?: MarginLogger | undefined;
}

/** Margin inside an existing app: the service (reviews, webhooks, crawling) and its API under the mount path. */
export async function mountMargin(app: Express, settings: MarginSettings): Promise<MarginService> {
  const secrets = createAesGcmSecretBox(settings.secretsKey);
  const margin = await createMarginService({
    storage: await openKnexStorage({ url: settings.databaseUrl, secrets }),
    secrets,
    auth: { jwtSecret: settings.jwtSecret },
    providers: createProviderRegistry({ allowPrivateEgress: settings.allowPrivateEgress }),
    bootstrapAdmin: settings.bootstrapAdmin,
    logger: settings.logger,
  });
  app.use(
    settings.mountPath ?? '/review-api',
    createMarginRouter(margin, {
      publicBaseUrl: settings.publicBaseUrl,
      // Single sign-on through the identity providers tenants configure: the same box seals each
      // sign-in attempt's state cookie.
      sso: { secrets, allowPrivateEgress: settings.allowPrivateEgress },
    }),
  );
  return margin;
}

export interface AppOptions extends MarginSettings {
  /** Default 3000; 0 lets the OS pick (tests). */
  port?: number | undefined;
  /** Default 127.0.0.1. */
  host?: string | undefined;
}

export interface RunningApp {
  /** e.g. `http://127.0.0.1:3000` */
  url: string;
  margin: MarginService;
  /** Stops taking connections, lets requests in flight finish, then closes Margin. */
  close(): Promise<void>;
}

/** The team's own app, with its own route, and Margin mounted in it. */
export async function startApp(options: AppOptions): Promise<RunningApp> {
  const app = express();
  app.get('/hello', (_req, res) => {
    res.json({ app: 'team-portal', message: 'Hello from the app’s own route.' });
  });
  const margin = await mountMargin(app, options);

  const server = createServer(app);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject).listen(options.port ?? 3000, options.host ?? '127.0.0.1', resolve);
    });
  } catch (error) {
    await margin.close();
    throw error;
  }
  const { address, port, family } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`,
    margin,
    close: () => {
      // `close` ends idle keep-alive connections at once and waits for requests in flight.
      closing ??= new Promise<void>((resolve) => server.close(() => resolve())).then(() => margin.close());
      return closing;
    },
  };
}
