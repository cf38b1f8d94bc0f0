import { createAesGcmSecretBox, createMarginCore, type MarginCore } from '@margin/core';
import { createProviderRegistry } from '@margin/providers';
import {
  type BackgroundWork,
  createApiRouter,
  createBackgroundWork,
  createHealth,
  createHttpMetrics,
  createLogger,
  type HostConfig,
  type HostContext,
  type Logger,
  loadConfig,
} from '@margin/server-express';
import { openKnexStorage } from '@margin/storage-knex';
import type { Router } from 'express';

/** Where Margin's log lines go (a pino destination); stdout when left out. */
export type LogDestination = Parameters<typeof createLogger>[0]['destination'];

/** Everything Margin needs, handed over in code by the embedding app rather than read from the environment. */
export interface EmbeddedMarginOptions {
  /** `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. Migrations run while opening. */
  databaseUrl: string;
  /** Signs Margin's access tokens; at least 32 characters. Take it from your secret store. */
  jwtSecret: string;
  /** 32 bytes that seal stored credentials (SCM tokens, AI keys). A backup is useless without it. */
  secretsKey: Uint8Array;
  /** The platform administrator created while none exists; the app's first way in. */
  bootstrapAdmin: { username: string; password: string };
  /** Lets AI connections reach loopback/private hosts over plain http (local models). Default false. */
  allowPrivateEgress?: boolean | undefined;
  /**
   * The app's public URL of Margin's mount point (e.g. `https://portal.example.com/review-api`), from
   * which webhook configurations build their listener URLs. Without it they carry only the path, with
   * a warning (Margin never trusts the request's Host header for them).
   */
  publicBaseUrl?: string | undefined;
  /** Run reviews, webhook processing and crawling in this process. Default true. */
  runBackgroundWork?: boolean | undefined;
  logLevel?: HostConfig['logLevel'] | undefined;
  logDestination?: LogDestination;
}

export interface EmbeddedMargin {
  core: MarginCore;
  /** Margin's API with bare paths (what openapi.json lists); mount it under any prefix. */
  router: Router;
  logger: Logger;
  /** The review worker, webhook processor and crawler; started unless `runBackgroundWork` is false. */
  background: BackgroundWork;
  /** Gives running reviews back to the queue, then closes the database. Stop serving requests first. */
  close(): Promise<void>;
}

/**
 * Builds Margin from its exported pieces: storage, core, the API router and the background work,
 * the same ones `startMarginHost` wires, minus the listener, which the app owns.
 */
export async function createEmbeddedMargin(options: EmbeddedMarginOptions): Promise<EmbeddedMargin> {
  const allowPrivateEgress = options.allowPrivateEgress === true;
  const logger = createLogger({ level: options.logLevel ?? 'info', destination: options.logDestination });
  const secrets = createAesGcmSecretBox(options.secretsKey);
  const storage = await openKnexStorage({ url: options.databaseUrl, secrets });
  try {
    const core = createMarginCore({
      storage,
      secrets,
      auth: { jwtSecret: options.jwtSecret },
      // The save-time egress check (core) and the connect-time one (adapters) must agree.
      providers: createProviderRegistry({ allowPrivateEgress }),
      ai: { allowPrivateEgress },
    });
    // Refuses a secrets key other than the one this database was first opened with.
    await core.system.verifySecretsKey();
    await core.identity.ensureBootstrapAdmin(options.bootstrapAdmin);

    const background = createBackgroundWork(core, logger, BACKGROUND);
    const host: HostContext = {
      config: {
        development: false,
        authRateLimit: { permits: 20, windowSeconds: 60 },
        publicBaseUrl: options.publicBaseUrl?.replace(/\/+$/, ''),
      },
      logger,
      health: createHealth(core, background.contributors),
    };
    const router = createApiRouter(core, { host, metrics: createHttpMetrics() });
    if (options.runBackgroundWork !== false) background.start();
    return {
      core,
      router,
      logger,
      background,
      close: async () => {
        await background.stop();
        await storage.close();
        logger.flush();
      },
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/**
 * The reference host's defaults for the worker, webhook processing and crawling (docs/operations.md),
 * read from the one place that defines them; several processes on one PostgreSQL share the work.
 */
const { worker, triggers } = loadConfig({});
const BACKGROUND = { worker, triggers };
