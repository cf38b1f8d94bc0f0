import type { MarginCore } from '@margin/core';
import type { HostConfig } from '../config.js';
import type { Logger } from '../observability/logger.js';
import type { HealthContributor } from './health.js';
import { ReviewWorker } from './review-worker.js';
import { CrawlScheduler, WebhookDeliveryProcessor } from './trigger-workers.js';

export type BackgroundWorkSettings = Pick<HostConfig, 'worker' | 'triggers'>;

/** Everything a Margin process runs besides answering requests. */
export interface BackgroundWork {
  worker: ReviewWorker;
  deliveryProcessor: WebhookDeliveryProcessor;
  crawler: CrawlScheduler;
  /** For `createHealth`, so `/healthz` reports each of them. */
  contributors: HealthContributor[];
  start(): void;
  /** Graceful: running jobs go back to the queue for another host. */
  stop(): Promise<void>;
  /** As a crash would: leases stay held until they expire. */
  halt(): Promise<void>;
}

/**
 * The review worker, the webhook delivery processor and the crawl scheduler, wired to wake on this
 * process's own events. The reference host runs them; an embedding host runs them the same way.
 */
export function createBackgroundWork(
  core: MarginCore,
  logger: Logger,
  settings: BackgroundWorkSettings,
): BackgroundWork {
  const { triggers } = settings;
  const worker = new ReviewWorker({ core, logger, ...settings.worker });
  const deliveryProcessor = new WebhookDeliveryProcessor({
    core,
    logger,
    pollIntervalMs: triggers.deliveryPollIntervalMs,
    leaseMs: triggers.deliveryLeaseMs,
    retentionDays: triggers.deliveryRetentionDays,
  });
  const crawler = new CrawlScheduler({
    core,
    logger,
    pollIntervalMs: triggers.crawlPollIntervalMs,
    leaseMs: triggers.crawlLeaseMs,
  });
  // A new job is claimed, and an accepted delivery processed, at once instead of at the next poll.
  const wakeWorker = () => worker.wake();
  const wakeProcessor = ({ outcome }: { outcome: string }) => {
    if (outcome === 'accepted') deliveryProcessor.wake();
  };
  const unsubscribe = () => {
    core.events.off('job.queued', wakeWorker);
    core.events.off('webhook.delivery', wakeProcessor);
  };
  return {
    worker,
    deliveryProcessor,
    crawler,
    contributors: [worker, deliveryProcessor, crawler],
    start() {
      worker.start();
      if (triggers.processDeliveries) deliveryProcessor.start();
      crawler.start();
      core.events.on('job.queued', wakeWorker);
      core.events.on('webhook.delivery', wakeProcessor);
    },
    async stop() {
      unsubscribe();
      await Promise.all([worker.stop(), deliveryProcessor.stop(), crawler.stop()]);
    },
    async halt() {
      unsubscribe();
      await Promise.all([worker.halt(), deliveryProcessor.stop(), crawler.stop()]);
    },
  };
}
