import type { WebhookDeliveriesRepository, WebhookDeliveryRecord } from './trigger-records.js';

interface Pending {
  delivery: WebhookDeliveryRecord;
  resolve(result: 'recorded' | 'duplicate'): void;
  reject(error: unknown): void;
}

/**
 * Group commit for the receiver. Each delivery must be on disk before it is acknowledged, and on
 * SQLite (synchronous=FULL) a commit's flush costs far more than the insert. Deliveries that arrive
 * while a commit is under way, or in the same turn of the event loop, are written together in one
 * transaction; every request still waits for the commit that holds its row. Nothing is acknowledged
 * before it is durable, and a lone delivery waits no longer than one turn of the event loop.
 */
export class DeliveryBatcher {
  private queue: Pending[] = [];
  private scheduled = false;
  private flushing = false;

  constructor(
    private readonly repository: () => WebhookDeliveriesRepository,
    private readonly maxBatch = 256,
  ) {}

  record(delivery: WebhookDeliveryRecord): Promise<'recorded' | 'duplicate'> {
    return new Promise((resolve, reject) => {
      this.queue.push({ delivery, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // After the I/O callbacks of this turn: the requests parsed together are written together.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.write(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const results = await this.repository().recordMany(batch.map((p) => p.delivery));
      batch.forEach((p, i) => {
        const result = results[i];
        if (result) p.resolve(result);
        else p.reject(new Error('The storage answered for fewer deliveries than it was given.'));
      });
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // One bad row (say, its configuration was deleted a moment ago) must not fail the others.
      for (const p of batch) await this.write([p]);
    }
  }
}
