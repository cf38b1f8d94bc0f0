import { createMarginCore, type MarginCore, type MarginCoreOptions } from '../core.js';
import type { BootstrapAdminInput, BootstrapAdminResult } from '../identity/index.js';
import { createReviewEngine } from '../review-engine/index.js';
import { type BackgroundWork, createBackgroundWork } from './background-work.js';
import { createHealth, type HealthReport } from './health.js';
import { consoleLogger, type MarginLogger } from './logger.js';
import { type BackgroundSettings, type BackgroundSettingsInput, resolveBackgroundSettings } from './settings.js';

export interface MarginServiceOptions extends MarginCoreOptions {
  /**
   * The review pipeline the worker hands jobs to. Default: Margin's own engine with its default
   * settings (`createReviewEngine()`); pass one to tune it or to run another `ReviewEngineV1`.
   */
  reviewEngine?: MarginCoreOptions['reviewEngine'];
  /** Where the runtime's lines go; a pino logger fits. Default: warnings and errors to the console. */
  logger?: MarginLogger | undefined;
  /**
   * The platform administrator seeded while no active one exists: the first way in. Without a
   * password one is generated and handed to `onBootstrapAdmin` once (never logged).
   */
  bootstrapAdmin?: BootstrapAdminInput | undefined;
  /** Told when the bootstrap administrator was created or restored (not when one already existed). */
  onBootstrapAdmin?: ((seeded: BootstrapAdminResult) => void) | undefined;
  /** The review worker, webhook delivery processor and crawler; `false`: none runs here (API only). */
  background?: BackgroundSettingsInput | undefined;
  /** Start the background work before returning. Default true; a host that listens first passes false. */
  startBackground?: boolean | undefined;
}

export interface MarginService {
  /** The use cases, grouped by capability; what an HTTP layer (or anything else) calls. */
  core: MarginCore;
  /** The review worker, the webhook delivery processor and the crawl scheduler. */
  background: BackgroundWork;
  /** The settings the background work runs with, defaults filled in. */
  settings: BackgroundSettings;
  logger: MarginLogger;
  /** The `/healthz` report: the database and each background part. */
  health(): Promise<HealthReport>;
  /**
   * Graceful: stops taking work, gives running reviews back to the queue (another process starts
   * them at once), then closes the storage. Stop serving requests first. Idempotent.
   */
  close(): Promise<void>;
  /** Stops dead, as a crash would (leases stay held until they expire), then closes the storage. For drills. */
  kill(): Promise<void>;
}

/**
 * Margin as a running service, without any HTTP framework: checks that the secrets key opens this
 * database's credentials, seeds the bootstrap administrator, and runs the review worker, the webhook
 * delivery processor and the crawl scheduler. Mount an HTTP layer on `core` and `health` (the
 * reference host's `createMarginRouter` does it for Express).
 *
 * The service owns `storage` from here on: `close()` closes it, and so does a failed start.
 */
export async function createMarginService(options: MarginServiceOptions): Promise<MarginService> {
  const {
    logger = consoleLogger,
    bootstrapAdmin,
    onBootstrapAdmin,
    background: backgroundInput,
    startBackground,
    ...coreOptions
  } = options;
  const { storage } = options;
  try {
    const core = createMarginCore({ ...coreOptions, reviewEngine: options.reviewEngine ?? createReviewEngine() });
    // Refuses a secrets key other than the one this database was first written with, before anything runs.
    await core.system.verifySecretsKey();
    if (bootstrapAdmin) {
      const seeded = await core.identity.ensureBootstrapAdmin(bootstrapAdmin);
      if (seeded.status !== 'exists') {
        logger.info({ username: seeded.username, status: seeded.status }, 'bootstrap platform admin seeded');
        if (onBootstrapAdmin) onBootstrapAdmin(seeded);
        else if (seeded.generatedPassword)
          logger.warn(
            { username: seeded.username },
            'bootstrap platform admin seeded with a generated password nobody was shown: pass a password or onBootstrapAdmin',
          );
      }
    }
    const settings = resolveBackgroundSettings(backgroundInput);
    const background = createBackgroundWork(core, logger, settings);
    if (startBackground !== false) background.start();

    let ending: Promise<void> | undefined;
    const end = (stopWork: () => Promise<void>) => {
      ending ??= (async () => {
        try {
          await stopWork();
        } finally {
          await storage.close();
        }
      })();
      return ending;
    };
    return {
      core,
      background,
      settings,
      logger,
      health: createHealth(core, background.contributors),
      close: () => end(() => background.stop()),
      kill: () => end(() => background.halt()),
    };
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw error;
  }
}
