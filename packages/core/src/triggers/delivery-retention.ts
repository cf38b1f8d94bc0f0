import type { TriggersDeps } from './triggers-deps.js';

const BATCH = 500;
/** One round deletes at most this many; a larger backlog shrinks over the next rounds. */
const MAX_PER_ROUND = 20 * BATCH;

/**
 * Delivery history is kept for `retentionDays` and then deleted, so a busy or attacked webhook (every
 * rejected delivery is recorded too) cannot grow the database without bound. Deliveries still
 * waiting for processing are kept whatever their age. Answers how many were deleted.
 */
export async function pruneDeliveries(deps: TriggersDeps, retentionDays: number): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - retentionDays * 86_400_000).toISOString();
  let deleted = 0;
  while (deleted < MAX_PER_ROUND) {
    const n = await deps.storage.webhookDeliveries.deleteReceivedBefore(before, BATCH);
    deleted += n;
    if (n < BATCH) break;
  }
  return deleted;
}
