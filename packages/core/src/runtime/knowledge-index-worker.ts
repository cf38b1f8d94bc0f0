import PQueue from 'p-queue';
import type { MarginCore } from '../core.js';
import type { IndexJobRecord } from '../knowledge/index.js';
import type { MarginLogger } from './logger.js';
import { PolledWork } from './polled-work.js';

export interface KnowledgeIndexWorkerOptions {
  core: MarginCore;
  logger: MarginLogger;
  /** False: this process never indexes (others sharing the database do). */
  enabled: boolean;
  /** Index jobs run at once on this process, apart from the review worker's slots. Default 2. */
  maxConcurrentJobs: number;
  pollIntervalMs: number;
  /** How long a claim holds without a heartbeat; a crashed process's jobs go to another after it. */
  leaseMs: number;
}

interface Running {
  job: IndexJobRecord;
  abort: AbortController;
}

/**
 * Runs code-knowledge index jobs: claims them with a lease (one host per branch at a time), runs
 * them through the core (its own p-queue, so indexing never takes a review slot), heartbeats the
 * leases, and on a graceful stop gives running jobs back to the queue.
 */
export class KnowledgeIndexWorker extends PolledWork {
  private readonly queue: PQueue;
  private readonly running = new Map<string, Running>();
  private readonly heartbeatMs: number;

  constructor(private readonly options: KnowledgeIndexWorkerOptions) {
    super('knowledgeIndexer', options.enabled, options);
    this.queue = new PQueue({ concurrency: options.maxConcurrentJobs });
    this.heartbeatMs = Math.max(50, Math.floor(options.leaseMs / 6));
  }

  override async stop(): Promise<void> {
    await this.poller.stop();
    const aborted = [...this.running.values()];
    for (const r of aborted) r.abort.abort();
    await this.queue.onIdle();
    for (const r of aborted) {
      await this.options.core.knowledge.indexWorker.releaseIndexJob(r.job.id, this.owner).catch(() => undefined);
    }
  }

  /** As a crash would: nothing released, nothing more written. */
  async halt(): Promise<void> {
    await this.poller.stop();
    for (const r of this.running.values()) r.abort.abort();
    this.running.clear();
    this.queue.clear();
  }

  protected async tick(): Promise<void> {
    const { core, leaseMs, maxConcurrentJobs } = this.options;
    const capacity = maxConcurrentJobs - this.running.size;
    if (capacity <= 0) return;
    const claimed = await core.knowledge.indexWorker.claimIndexJobs({ owner: this.owner, capacity, leaseMs });
    for (const job of claimed) {
      const entry: Running = { job, abort: new AbortController() };
      this.running.set(job.id, entry);
      void this.queue.add(() => this.run(entry));
    }
  }

  private async run(entry: Running): Promise<void> {
    const { core, logger, leaseMs } = this.options;
    const { job, abort } = entry;
    const heartbeat = setInterval(() => {
      core.knowledge.indexWorker
        .renewIndexJob(job.id, this.owner, leaseMs)
        .then((held) => {
          if (!held) abort.abort();
        })
        .catch((error: unknown) => logger.warn({ err: error, indexJobId: job.id }, 'index lease heartbeat failed'));
    }, this.heartbeatMs);
    try {
      const outcome = await core.knowledge.indexWorker.runIndexJob(job, { owner: this.owner, signal: abort.signal });
      const log = outcome.status === 'failed' ? logger.warn.bind(logger) : logger.info.bind(logger);
      log(
        { sourceId: job.sourceId, branchName: job.branchName, ...outcome },
        outcome.status === 'failed' ? 'knowledge index refresh failed' : 'knowledge index refreshed',
      );
    } catch (error) {
      if (!abort.signal.aborted)
        logger.error({ err: error, sourceId: job.sourceId }, 'knowledge index job could not run');
    } finally {
      clearInterval(heartbeat);
      if (this.running.get(job.id) === entry) this.running.delete(job.id);
      this.wake();
    }
  }
}
