import { createAesGcmSecretBox, createMarginCore, type MarginCore } from '@margin/core';
import { createProviderRegistry } from '@margin/providers';
import {
  createApiRouter,
  createHealth,
  createHttpMetrics,
  createLogger,
  type HostConfig,
  type HostContext,
  type Logger,
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
  logLevel?: HostConfig['logLevel'] | undefined;
  logDestination?: LogDestination;
}

export interface EmbeddedMargin {
  core: MarginCore;
  /** Margin's API with bare paths (what openapi.json lists); mount it under any prefix. */
  router: Router;
  logger: Logger;
  /** Closes the database. Stop serving requests first. */
  close(): Promise<void>;
}

/**
 * Builds Margin from its exported pieces: storage, core and the API router, the same ones
 * `startMarginHost` wires, minus the listener and the review worker, which the app owns or leaves out.
 */
export async function createEmbeddedMargin(options: EmbeddedMarginOptions): Promise<EmbeddedMargin> {
  const allowPrivateEgress = options.allowPrivateEgress === true;
  const logger = createLogger({ level: options.logLevel ?? 'info', destination: options.logDestination });
  const storage = await openKnexStorage({ url: options.databaseUrl });
  try {
    const core = createMarginCore({
      storage,
      secrets: createAesGcmSecretBox(options.secretsKey),
      auth: { jwtSecret: options.jwtSecret },
      // The save-time egress check (core) and the connect-time one (adapters) must agree.
      providers: createProviderRegistry({ allowPrivateEgress }),
      ai: { allowPrivateEgress },
    });
    // Refuses a secrets key other than the one this database was first opened with.
    await core.system.verifySecretsKey();
    await core.identity.ensureBootstrapAdmin(options.bootstrapAdmin);

    const host: HostContext = {
      config: hostConfig(options, allowPrivateEgress),
      logger,
      // No review worker runs here, so health reports the database only.
      health: createHealth(core, []),
    };
    const router = createApiRouter(core, { host, metrics: createHttpMetrics() });
    return {
      core,
      router,
      logger,
      close: async () => {
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
 * `HostContext` takes the reference host's whole configuration. The API router reads only
 * `development` (Swagger UI) and `authRateLimit`; the rest describes the reference host's own
 * listener, data dir and worker, which this app does not use, so they hold inert values.
 */
function hostConfig(options: EmbeddedMarginOptions, allowPrivateEgress: boolean): HostConfig {
  return {
    development: false,
    authRateLimit: { permits: 20, windowSeconds: 60 },
    allowPrivateEgress,
    logLevel: options.logLevel ?? 'info',
    databaseUrl: options.databaseUrl,
    bootstrapAdmin: { username: options.bootstrapAdmin.username, password: undefined },
    // Secrets were handed to the core above; the config never needs to hold them.
    jwtSecret: undefined,
    secretsKey: undefined,
    publicBaseUrl: undefined,
    port: 0,
    host: '127.0.0.1',
    dataDir: '',
    worker: { enabled: false, maxConcurrentJobs: 1, pollIntervalMs: 2000, leaseMs: 120_000 },
  };
}
