import type { MarginCore } from '../core.js';
import type { MarginLogger } from './logger.js';
import { PolledWork } from './polled-work.js';

export interface DeliveryProcessorOptions {
  core: MarginCore;
  logger: MarginLogger;
  /** False on intake-only processes: `start()` does nothing and health says so. Default true. */
  enabled?: boolean | undefined;
  pollIntervalMs: number;
  /** How long a claimed delivery is this host's; a crashed host's deliveries go to another after it. */
  leaseMs: number;
  /** Deliveries taken per claim. */
  batchSize?: number;
  /** History older than this is deleted, about once an hour. */
  retentionDays: number;
}

const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Turns accepted webhook deliveries into review jobs, off the request path: claims pending deliveries
 * with a lease (several hosts never process one twice), reads the pull request from the provider and
 * queues at most one job per revision. Woken at once when this host accepts a delivery.
 */
export class WebhookDeliveryProcessor extends PolledWork {
  private lastPruneAt = 0;

  constructor(private readonly options: DeliveryProcessorOptions) {
    super('webhookDeliveries', options.enabled !== false, options);
  }

  protected async tick(signal: AbortSignal): Promise<void> {
    const { core, leaseMs } = this.options;
    const limit = this.options.batchSize ?? 20;
    // Drain: keep claiming while full batches come back, so a burst does not wait for the next poll.
    while (!signal.aborted) {
      const handled = await core.triggers.processPendingDeliveries({ owner: this.owner, leaseMs, limit });
      if (handled < limit) break;
    }
    if (!signal.aborted && Date.now() - this.lastPruneAt >= PRUNE_EVERY_MS) {
      this.lastPruneAt = Date.now();
      const deleted = await core.triggers.pruneDeliveries(this.options.retentionDays);
      if (deleted > 0) this.options.logger.info({ deleted }, 'old webhook deliveries deleted');
    }
  }
}

export interface CrawlSchedulerOptions {
  core: MarginCore;
  logger: MarginLogger;
  /** False: this process never crawls (others sharing the database may). Default true. */
  enabled?: boolean | undefined;
  /** How often due configurations are looked for (each has its own `crawlIntervalSeconds`). */
  pollIntervalMs: number;
  /** How long a crawl holds its configuration; another host takes it only after this. */
  leaseMs: number;
}

/**
 * The crawl scheduler: every few seconds, leases the crawl configurations that are due and crawls
 * them. Idle (configurations stay stored) while `crawl-configs` is unavailable.
 */
export class CrawlScheduler extends PolledWork {
  private idle = false;

  constructor(private readonly options: CrawlSchedulerOptions) {
    super('crawler', options.enabled !== false, options);
  }

  /** Whether the last round found `crawl-configs` unavailable (configurations kept, nothing crawled). */
  get isIdle(): boolean {
    return this.idle;
  }

  protected async tick(signal: AbortSignal): Promise<void> {
    const { core, logger, leaseMs } = this.options;
    while (!signal.aborted) {
      const round = await core.triggers.crawlDue({ owner: this.owner, leaseMs, limit: 5 });
      this.idle = round.idle;
      for (const c of round.crawled) {
        const log = c.outcome === 'failed' ? logger.warn.bind(logger) : logger.info.bind(logger);
        log({ configurationId: c.configurationId, outcome: c.outcome, counts: c.counts }, 'crawl finished');
      }
      if (round.crawled.length < 5) return;
    }
  }
}
