import type { Clock, StorageSlice } from '../kernel/index.js';
import type { ClientBudgetRecord } from './budget-record.js';
import type { SpendRepositories } from './spend-deps.js';
import { MICROS_PER_USD, toMicroUsd } from './spend-records.js';

/** The engine's side of a shared budget (`SharedSpendV1` in the review engine's contract). */
export interface SharedSpend {
  claim(usd: number): Promise<boolean>;
  release(usd: number): Promise<void>;
  spent(usd: number): void;
}

export interface SharedSpendDeps {
  storage: StorageSlice<Pick<SpendRepositories, 'usageEvents' | 'inFlightSpend'>>;
  clock: Clock;
}

/**
 * A running review's claims on its client's monthly and pull-request hard caps, checked against
 * what the ledger holds plus what every running review (on any host) has claimed and spent. Claims
 * of one client are serialized by a lock named after it, so two hosts never both take the last of
 * the headroom. Costs reported through `spent` reach the shared row with the next claim or release,
 * so other hosts see them a chunk later at the most; the row goes with the job's ledger events.
 */
export function sharedSpend(
  deps: SharedSpendDeps,
  job: { id: string; clientId: string; pullRequestKey: string },
  budget: Pick<ClientBudgetRecord, 'monthlyHardCapUsd' | 'pullRequestHardCapUsd'>,
  periodStartedAt: string,
): SharedSpend {
  const key = { jobId: job.id, clientId: job.clientId, pullRequestKey: job.pullRequestKey };
  const monthlyCap = capMicros(budget.monthlyHardCapUsd);
  const pullRequestCap = capMicros(budget.pullRequestHardCapUsd);
  let unsharedMicroUsd = 0;
  const takeUnshared = () => {
    const micros = unsharedMicroUsd;
    unsharedMicroUsd = 0;
    return micros;
  };
  const at = () => deps.clock.now().toISOString();
  return {
    async claim(usd) {
      const claim = toMicroUsd(usd);
      const spent = takeUnshared();
      try {
        return await deps.storage.transaction(
          async (tx) => {
            const running = await tx.inFlightSpend.totals(job.clientId, job.pullRequestKey);
            const fits =
              (monthlyCap === undefined ||
                (await tx.usageEvents.costSince(job.clientId, periodStartedAt)) +
                  running.clientMicroUsd +
                  spent +
                  claim <=
                  monthlyCap) &&
              (pullRequestCap === undefined ||
                (await tx.usageEvents.costOfPullRequest(job.clientId, job.pullRequestKey)) +
                  running.pullRequestMicroUsd +
                  spent +
                  claim <=
                  pullRequestCap);
            await tx.inFlightSpend.adjust(key, { reservedMicroUsd: fits ? claim : 0, spentMicroUsd: spent }, at());
            return fits;
          },
          { lock: `spend:${job.clientId}` },
        );
      } catch (error) {
        unsharedMicroUsd += spent;
        throw error;
      }
    },
    async release(usd) {
      const spent = takeUnshared();
      try {
        await deps.storage.inFlightSpend.adjust(
          key,
          { reservedMicroUsd: -toMicroUsd(usd), spentMicroUsd: spent },
          at(),
        );
      } catch {
        // The claim stays counted until the job ends and its row goes: a budget errs on the safe side.
        unsharedMicroUsd += spent;
      }
    },
    spent(usd) {
      unsharedMicroUsd += toMicroUsd(usd);
    },
  };
}

const capMicros = (usd: number | null) => (usd === null ? undefined : Math.round(usd * MICROS_PER_USD));
