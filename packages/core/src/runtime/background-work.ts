import type { MarginCore } from '../core.js';
import { ConversationWorker } from './conversation-worker.js';
import type { HealthContributor } from './health.js';
import { KnowledgeIndexWorker } from './knowledge-index-worker.js';
import type { MarginLogger } from './logger.js';
import { ReviewWorker } from './review-worker.js';
import type { BackgroundSettings } from './settings.js';
import { CrawlScheduler, WebhookDeliveryProcessor } from './trigger-workers.js';

/** Everything a Margin process runs besides answering requests. */
export interface BackgroundWork {
  worker: ReviewWorker;
  deliveryProcessor: WebhookDeliveryProcessor;
  crawler: CrawlScheduler;
  knowledgeIndexer: KnowledgeIndexWorker;
  conversations: ConversationWorker;
  /** For `createHealth`, so `/healthz` reports each of them. */
  contributors: HealthContributor[];
  /** Starts the enabled parts; once. */
  start(): void;
  /** Graceful: running jobs go back to the queue for another process. The first of `stop`/`halt` wins. */
  stop(): Promise<void>;
  /** As a crash would: leases stay held until they expire. For crash tests and drills. */
  halt(): Promise<void>;
}

/**
 * The review worker, the webhook delivery processor and the crawl scheduler, wired to wake on this
 * process's own events: a new job is claimed, and an accepted delivery processed, at once instead of
 * at the next poll.
 */
export function createBackgroundWork(
  core: MarginCore,
  logger: MarginLogger,
  settings: BackgroundSettings,
): BackgroundWork {
  const worker = new ReviewWorker({ core, logger, ...settings.worker });
  const deliveryProcessor = new WebhookDeliveryProcessor({ core, logger, ...settings.deliveries });
  const crawler = new CrawlScheduler({ core, logger, ...settings.crawler });
  const knowledgeIndexer = new KnowledgeIndexWorker({ core, logger, ...settings.knowledgeIndexer });
  const conversations = new ConversationWorker({ core, logger, ...settings.conversations });
  const wakeConversations = () => conversations.wake();
  const wakeWorker = () => worker.wake();
  const wakeIndexer = () => knowledgeIndexer.wake();
  const wakeProcessor = ({ outcome }: { outcome: string }) => {
    if (outcome === 'accepted') deliveryProcessor.wake();
  };
  let started = false;
  let ending: Promise<void> | undefined;
  const end = (how: () => Promise<unknown>) => {
    ending ??= (async () => {
      core.events.off('job.queued', wakeWorker);
      core.events.off('webhook.delivery', wakeProcessor);
      core.events.off('knowledge.refreshQueued', wakeIndexer);
      core.events.off('conversation.queued', wakeConversations);
      await how();
    })();
    return ending;
  };
  return {
    worker,
    deliveryProcessor,
    crawler,
    knowledgeIndexer,
    conversations,
    contributors: [worker, deliveryProcessor, crawler, knowledgeIndexer, conversations],
    start() {
      if (started || ending) return;
      started = true;
      worker.start();
      deliveryProcessor.start();
      crawler.start();
      knowledgeIndexer.start();
      conversations.start();
      core.events.on('job.queued', wakeWorker);
      core.events.on('knowledge.refreshQueued', wakeIndexer);
      core.events.on('webhook.delivery', wakeProcessor);
      core.events.on('conversation.queued', wakeConversations);
    },
    stop: () =>
      end(() =>
        Promise.all([
          worker.stop(),
          deliveryProcessor.stop(),
          crawler.stop(),
          knowledgeIndexer.stop(),
          conversations.stop(),
        ]),
      ),
    halt: () =>
      end(() =>
        Promise.all([
          worker.halt(),
          deliveryProcessor.stop(),
          crawler.stop(),
          knowledgeIndexer.halt(),
          conversations.stop(),
        ]),
      ),
  };
}
