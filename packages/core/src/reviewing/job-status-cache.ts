import type { Clock } from '../kernel/index.js';
import { TtlCache } from '../kernel/index.js';
import type { ReviewJobRecord, ReviewJobsRepository } from './job-record.js';

/**
 * Job records as status reads see them, kept for up to `ttlMs`. Status is polled far more often than
 * it changes; every change this host makes forgets the job at once, so only a change made by another
 * host can take up to `ttlMs` to show.
 */
export class JobStatusCache {
  private readonly cache: TtlCache<string, ReviewJobRecord | undefined>;

  constructor(
    private readonly jobs: () => ReviewJobsRepository,
    clock: Clock,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(clock, ttlMs);
  }

  get(jobId: string): Promise<ReviewJobRecord | undefined> {
    return this.cache.get(jobId, () => this.jobs().findById(jobId));
  }

  forget(...jobIds: readonly string[]): void {
    for (const id of jobIds) this.cache.delete(id);
  }
}
