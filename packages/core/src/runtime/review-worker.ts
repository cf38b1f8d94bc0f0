import PQueue from 'p-queue';
import type { MarginCore } from '../core.js';
import type { ReviewJobRecord } from '../reviewing/index.js';
import type { MarginLogger } from './logger.js';
import { PolledWork } from './polled-work.js';

export interface ReviewWorkerOptions {
  core: MarginCore;
  logger: MarginLogger;
  /** False on API-only hosts (`WORKER_ENABLED=false`): jobs are queued here and run elsewhere. */
  enabled: boolean;
  /** `WORKER_MAX_CONCURRENT_REVIEW_JOBS`; one without `parallel-review-execution`. */
  maxConcurrentJobs: number;
  pollIntervalMs: number;
  /** How long a claim holds without a heartbeat; a crashed host's jobs return to the queue after it. */
  leaseMs: number;
  /** Usage-ledger events older than this are deleted, about once an hour. Default 400. */
  usageRetentionDays?: number | undefined;
}

const PRUNE_EVERY_MS = 60 * 60_000;

interface Running {
  job: ReviewJobRecord;
  abort: AbortController;
  progress: ReviewJobRecord['progress'];
}

/**
 * Claims queued jobs with a lease, runs them through the core (bounded by a p-queue), heartbeats the
 * leases while they run, and hands expired leases of crashed hosts back to the queue. Stopping gives
 * running jobs back to the queue so another host picks them up at once.
 */
export class ReviewWorker extends PolledWork {
  private readonly queue: PQueue;
  private readonly running = new Map<string, Running>();
  private readonly heartbeatMs: number;
  private lastPruneAt = 0;

  constructor(private readonly options: ReviewWorkerOptions) {
    super('worker', options.enabled, options);
    this.queue = new PQueue({ concurrency: options.maxConcurrentJobs });
    // Several heartbeats fit in one lease, so one slow or failed beat never loses the job.
    this.heartbeatMs = Math.max(50, Math.floor(options.leaseMs / 6));
  }

  get runningJobIds(): string[] {
    return [...this.running.keys()];
  }

  /** Graceful: no new claims; running jobs are aborted and given back to the queue. */
  override async stop(): Promise<void> {
    await this.poller.stop();
    const aborted = [...this.running.values()];
    for (const r of aborted) r.abort.abort();
    await this.queue.onIdle();
    for (const r of aborted) await this.options.core.worker.releaseJob(r.job.id, this.owner).catch(() => false);
  }

  /** Stops dead, as a crash would: no lease is released, nothing more is written. For crash tests. */
  async halt(): Promise<void> {
    await this.poller.stop();
    for (const r of this.running.values()) {
      r.abort.abort();
      this.running.delete(r.job.id);
    }
    this.queue.clear();
  }

  protected async tick(): Promise<void> {
    const { core } = this.options;
    const reclaimed = await core.worker.reclaimExpired(this.owner);
    if (reclaimed.requeued.length || reclaimed.failed.length) {
      this.options.logger.warn(reclaimed, 'reclaimed review jobs whose lease ran out');
    }
    this.queue.concurrency = await core.worker.allowedConcurrency(this.options.maxConcurrentJobs);
    const capacity = this.queue.concurrency - this.running.size;
    const claimed = await core.worker.claimJobs({ owner: this.owner, capacity, leaseMs: this.options.leaseMs });
    for (const job of claimed) {
      const entry: Running = { job, abort: new AbortController(), progress: job.progress };
      this.running.set(job.id, entry);
      void this.queue.add(() => this.run(entry));
    }
    if (Date.now() - this.lastPruneAt >= PRUNE_EVERY_MS) {
      this.lastPruneAt = Date.now();
      const deleted = await core.spend.pruneUsage(this.options.usageRetentionDays ?? 400);
      if (deleted > 0) this.options.logger.info({ deleted }, 'old usage-ledger events deleted');
    }
  }

  private async run(entry: Running): Promise<void> {
    const { core, logger } = this.options;
    const { job, abort } = entry;
    const heartbeat = setInterval(() => {
      core.worker
        .renewLease({ jobId: job.id, owner: this.owner, leaseMs: this.options.leaseMs, progress: entry.progress })
        .then((held) => {
          // Stopped, superseded, or reclaimed by another host: stop working on it.
          if (!held) abort.abort();
        })
        .catch((error: unknown) => logger.warn({ err: error, jobId: job.id }, 'lease heartbeat failed'));
    }, this.heartbeatMs);
    try {
      const outcome = await core.worker.executeJob(job, {
        owner: this.owner,
        signal: abort.signal,
        onProgress: (progress) => {
          entry.progress = progress;
        },
      });
      if (outcome.status === 'failed' && outcome.error !== undefined) {
        logger.warn({ err: outcome.error, jobId: job.id }, 'review failed');
      }
      logger.info({ jobId: job.id, status: outcome.status, attempt: job.attempt }, 'review finished');
    } catch (error) {
      logger.error({ err: error, jobId: job.id }, 'review run could not be recorded');
    } finally {
      clearInterval(heartbeat);
      if (this.running.get(job.id) === entry) this.running.delete(job.id);
      this.wake(); // a slot is free: claim the next job now rather than at the next poll
    }
  }
}
