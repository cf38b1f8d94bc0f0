import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import {
  type Clock,
  createAesGcmSecretBox,
  createMarginCore,
  createReviewEngine,
  type Ids,
  type MarginCore,
  type ProviderRegistry,
  type ReviewEngineV1,
} from '@margin/core';
import { createProviderRegistry } from '@margin/providers';
import { type KnexStorage, openKnexStorage, parseDatabaseUrl } from '@margin/storage-knex';
import type { DestinationStream } from 'pino';
import type { HostConfig } from '../config.js';
import { createApiRouter } from '../http/api-app.js';
import { createGateway } from '../http/gateway.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createHttpMetrics } from '../observability/metrics.js';
import { createBackgroundWork } from './background-work.js';
import { createHealth } from './health.js';
import type { HostContext } from './host-context.js';
import { loadHostSecrets } from './host-secrets.js';
import type { ReviewWorker } from './review-worker.js';
import type { CrawlScheduler, WebhookDeliveryProcessor } from './trigger-workers.js';

export interface MarginHostOptions {
  config: HostConfig;
  /** Where logs go; stdout by default. */
  logDestination?: DestinationStream | undefined;
  /** Shows the generated bootstrap password once; stdout by default (never the log). */
  announce?: ((message: string) => void) | undefined;
  providers?: ProviderRegistry | undefined;
  /** The review pipeline; Margin's own engine unless another is given. */
  reviewEngine?: ReviewEngineV1 | undefined;
  clock?: Clock | undefined;
  ids?: Ids | undefined;
}

export interface MarginHost {
  /** Base URL of the gateway, e.g. `http://127.0.0.1:8080`. */
  url: string;
  core: MarginCore;
  storage: KnexStorage;
  logger: Logger;
  worker: ReviewWorker;
  deliveryProcessor: WebhookDeliveryProcessor;
  crawler: CrawlScheduler;
  /** Graceful: stops taking work, gives running jobs back to the queue, lets requests finish, closes the database. */
  close(): Promise<void>;
  /** Stops dead, as a crash would: leases stay held until they expire. For crash tests and drills. */
  kill(): Promise<void>;
}

/** The reference host: database, core, gateway and background workers, listening on HOST:PORT. */
export async function startMarginHost(options: MarginHostOptions): Promise<MarginHost> {
  const { config } = options;
  const logger = createLogger({ level: config.logLevel, destination: options.logDestination });
  const secrets = await loadHostSecrets(config);
  const target = parseDatabaseUrl(config.databaseUrl);
  if (target.dialect === 'sqlite' && target.filename !== ':memory:') {
    await mkdir(dirname(target.filename), { recursive: true });
  }
  const secretBox = createAesGcmSecretBox(secrets.secretsKey);
  // Migrations that re-seal stored credentials need the key.
  const storage = await openKnexStorage({ url: config.databaseUrl, secrets: secretBox });
  const cleanup: Array<() => Promise<void>> = [() => storage.close()];
  try {
    const core = createMarginCore({
      storage,
      secrets: secretBox,
      auth: { jwtSecret: secrets.jwtSecret },
      providers: options.providers ?? createProviderRegistry({ allowPrivateEgress: config.allowPrivateEgress }),
      clock: options.clock,
      reviewEngine:
        options.reviewEngine ??
        createReviewEngine({ settings: { maxConcurrentModelCalls: config.review.maxConcurrentModelCalls } }),
      ids: options.ids,
      ai: { allowPrivateEgress: config.allowPrivateEgress },
    });
    await core.system.verifySecretsKey();
    await bootstrapAdmin(core, config, options.announce ?? ((m) => process.stdout.write(`${m}\n`)), logger);

    const background = createBackgroundWork(core, logger, config);
    const host: HostContext = { config, logger, health: createHealth(core, background.contributors) };
    const api = createApiRouter(core, { host, metrics: createHttpMetrics() });
    const server = createServer(createGateway(api, host, { consoleDir: config.consoleDir }));
    // Longer than common proxy idle timeouts, so the proxy closes first and never hits a dead socket.
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    cleanup.unshift(() => closeServer(server));
    background.start();
    cleanup.unshift(() => background.stop());

    const address = server.address() as AddressInfo;
    const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    host.listenUrl = url;
    logger.info({ url, database: target.dialect }, 'margin is listening');

    cleanup.push(async () => logger.flush());
    let closing: Promise<void> | undefined;
    return {
      url,
      core,
      storage,
      logger,
      worker: background.worker,
      deliveryProcessor: background.deliveryProcessor,
      crawler: background.crawler,
      close: () => {
        closing ??= runAll(cleanup);
        return closing;
      },
      kill: () => {
        closing ??= runAll([
          () => background.halt(),
          async () => server.closeAllConnections(),
          () => closeServer(server),
          () => storage.close(),
        ]);
        return closing;
      },
    };
  } catch (error) {
    await runAll(cleanup);
    throw error;
  }
}

async function bootstrapAdmin(core: MarginCore, config: HostConfig, announce: (m: string) => void, logger: Logger) {
  const result = await core.identity.ensureBootstrapAdmin(config.bootstrapAdmin);
  if (result.status === 'exists') return;
  logger.info({ username: result.username, status: result.status }, 'bootstrap platform admin seeded');
  if (result.generatedPassword) {
    announce(
      [
        '',
        '  Margin created the platform administrator.',
        `    username: ${result.username}`,
        `    password: ${result.generatedPassword}`,
        '  This password is shown only now. Sign in and change it (POST /api/users/me/password).',
        '',
      ].join('\n'),
    );
  }
}

function closeServer(server: ReturnType<typeof createServer>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // Requests still running after 10 s are cut; a stuck client must not block shutdown.
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  });
}

async function runAll(steps: Array<() => Promise<void>>): Promise<void> {
  for (const step of steps) {
    try {
      await step();
    } catch {
      // keep closing the rest
    }
  }
}
