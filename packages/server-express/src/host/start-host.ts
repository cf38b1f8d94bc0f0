import { mkdir } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { configuredProviderRegistry, loadPlugins, type RegistryBase } from '@margin/cli';
import {
  type BootstrapAdminResult,
  type CrawlScheduler,
  createAesGcmSecretBox,
  createMarginService,
  createReviewEngine,
  type MarginCore,
  type MarginService,
  type ReviewWorker,
  type WebhookDeliveryProcessor,
} from '@margin/core';
import {
  type Clock,
  type Ids,
  lineSymbolExtractor,
  type ProviderRegistry,
  type ReviewEngineV1,
  type SymbolExtractor,
} from '@margin/core/spec';
import { type KnexStorage, openKnexStorage, parseDatabaseUrl } from '@margin/storage-knex';
import type { DestinationStream } from 'pino';
import { backgroundSettingsOf, type HostConfig } from '../config.js';
import { createApiRouter } from '../http/api-app.js';
import { createGateway } from '../http/gateway.js';
import { createSsoContext } from '../http/sso/openid-connect.js';
import { treeSitterSymbolExtractor } from '../knowledge/tree-sitter-symbols.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createHttpMetrics } from '../observability/metrics.js';
import { loadHostSecrets } from './host-secrets.js';
import { createHostContext } from './margin-router.js';
import { listenHttps, loadTlsMaterial, type TlsMaterial } from './tls.js';

export interface MarginHostOptions {
  config: HostConfig;
  /** Where logs go; stdout by default. */
  logDestination?: DestinationStream | undefined;
  /** Shows the generated bootstrap password once; stdout by default (never the log). */
  announce?: ((message: string) => void) | undefined;
  /** The adapters; by default the built-ins and `MARGIN_PLUGINS`, as the configuration sets them up. */
  providers?: ProviderRegistry | undefined;
  /** Laid under the configuration when the host builds its registry (tests reach their fakes so). */
  registryBase?: RegistryBase | undefined;
  /** The review pipeline; Margin's own engine unless another is given. */
  reviewEngine?: ReviewEngineV1 | undefined;
  /** Definitions for the code-knowledge index; tree-sitter grammars (line patterns as fallback) unless given. */
  symbolExtractor?: SymbolExtractor | undefined;
  clock?: Clock | undefined;
  ids?: Ids | undefined;
}

export interface MarginHost {
  /** Base URL of the gateway, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /**
   * The same gateway over HTTPS (`MARGIN_TLS_PORT`), e.g. `https://127.0.0.1:8443`, with the
   * certificate it serves; undefined when TLS is off or its port could not be taken.
   */
  https: { url: string; certificate: string; fingerprint256: string } | undefined;
  /** The framework-free runtime the gateway is mounted on. */
  service: MarginService;
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

/**
 * The reference host: the environment's configuration, keys kept in the data dir, the database, the
 * runtime (`createMarginService`) and the gateway on it, listening on HOST:PORT.
 */
export async function startMarginHost(options: MarginHostOptions): Promise<MarginHost> {
  const { config } = options;
  const announce = options.announce ?? ((m: string) => process.stdout.write(`${m}\n`));
  const logger = createLogger({ level: config.logLevel, destination: options.logDestination });
  // Plugins first: one that cannot be loaded stops the start before anything is opened.
  const plugins = await loadPlugins(config.plugins);
  const providers = options.providers ?? configuredProviderRegistry(config, plugins, options.registryBase);
  for (const plugin of plugins) logger.info({ plugin: plugin.name }, 'provider plugin registered');
  const secrets = await loadHostSecrets(config);
  const target = parseDatabaseUrl(config.databaseUrl);
  if (target.dialect === 'sqlite' && target.filename !== ':memory:') {
    await mkdir(dirname(target.filename), { recursive: true });
  }
  const secretBox = createAesGcmSecretBox(secrets.secretsKey);
  // Migrations that re-seal stored credentials need the key.
  const storage = await openKnexStorage({ url: config.databaseUrl, secrets: secretBox });
  // Key check and bootstrap admin; on failure the service closes the storage.
  const service = await createMarginService({
    storage,
    secrets: secretBox,
    auth: { jwtSecret: secrets.jwtSecret },
    providers,
    // The environment decides, whichever registry was given.
    ai: { allowPrivateEgress: config.allowPrivateEgress },
    // Parsed definitions for the code-knowledge index; line patterns where no grammar loads.
    symbolExtractor: options.symbolExtractor ?? treeSitterSymbolExtractor(lineSymbolExtractor),
    reviewEngine:
      options.reviewEngine ??
      createReviewEngine({
        settings: {
          maxConcurrentModelCalls: config.review.maxConcurrentModelCalls,
          // Bound only while the `budgeting` capability is available; each job checks when it starts.
          spendCaps: config.review.spendCaps,
        },
      }),
    // The review status on the provider links the console's job page under the public address.
    providerStatus: { enabled: config.providerStatus, publicBaseUrl: config.publicBaseUrl },
    clock: options.clock,
    ids: options.ids,
    logger,
    bootstrapAdmin: config.bootstrapAdmin,
    onBootstrapAdmin: announceGeneratedPassword(announce),
    background: backgroundSettingsOf(config),
    // The gateway listens first; a port already taken must not leave reviews claimed.
    startBackground: false,
  });
  const { core, background } = service;
  const cleanup: Array<() => Promise<void>> = [() => service.close()];
  try {
    const host = createHostContext(service, config, logger);
    host.sso = createSsoContext({
      stateBox: secretBox,
      allowPrivateEgress: config.allowPrivateEgress,
      publicBaseUrlIsMount: false,
    });
    const api = createApiRouter(core, { host, metrics: createHttpMetrics() });
    const gateway = createGateway(api, host, { consoleDir: config.consoleDir });
    const server = createServer(gateway);
    // Longer than common proxy idle timeouts, so the proxy closes first and never hits a dead socket.
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    cleanup.unshift(() => closeServer(server));
    const https = config.tls ? await serveHttps(gateway, config, logger, announce) : undefined;
    if (https) cleanup.unshift(() => closeServer(https.server));
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
      https: https && {
        url: https.url,
        certificate: https.material.cert,
        fingerprint256: https.material.fingerprint256,
      },
      service,
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
          async () => https?.server.closeAllConnections(),
          () => closeServer(server),
          async () => (https ? closeServer(https.server) : undefined),
          () => service.kill(),
        ]);
        return closing;
      },
    };
  } catch (error) {
    await runAll(cleanup);
    throw error;
  }
}

/**
 * HTTPS beside HTTP with the operator's certificate or a generated one, whose fingerprint is
 * printed so a client can pin or check it. A port it cannot take never stops the start (HTTP serves
 * regardless); an operator's certificate file that cannot be read does.
 */
async function serveHttps(
  gateway: RequestListener,
  config: HostConfig,
  logger: Logger,
  announce: (message: string) => void,
): Promise<{ server: Server; url: string; material: TlsMaterial } | undefined> {
  const material = await loadTlsMaterial(config);
  if (material.generated) {
    announce(
      [
        '',
        '  Margin generated a self-signed TLS certificate.',
        `    file:    ${material.certFile}`,
        `    SHA-256: ${material.fingerprint256}`,
        '  Give clients this file as their trusted CA, or check the fingerprint when they ask.',
        '',
      ].join('\n'),
    );
  }
  const server = await listenHttps(gateway, config, material, logger);
  if (!server) return undefined;
  const address = server.address() as AddressInfo;
  const url = `https://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  logger.info({ url, certificate: material.certFile, sha256: material.fingerprint256 }, 'margin is listening on HTTPS');
  return { server, url, material };
}

/** Prints a generated bootstrap password once, outside the log. */
function announceGeneratedPassword(announce: (message: string) => void) {
  return (seeded: BootstrapAdminResult) => {
    if (!seeded.generatedPassword) return;
    announce(
      [
        '',
        '  Margin created the platform administrator.',
        `    username: ${seeded.username}`,
        `    password: ${seeded.generatedPassword}`,
        '  This password is shown only now. Sign in and change it (POST /api/users/me/password).',
        '',
      ].join('\n'),
    );
  };
}

function closeServer(server: Server): Promise<void> {
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
