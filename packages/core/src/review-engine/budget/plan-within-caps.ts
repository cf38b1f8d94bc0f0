import type { PackableFile, PackResult } from '../plan/pack-chunks.js';
import {
  type CostBasis,
  estimatePlan,
  type PlanEstimate,
  VERIFY_SHARE,
  VERIFY_SHARE_SEVERE_ONLY,
} from './estimate-cost.js';
import { roundUsd, type SpendCaps } from './spend-caps.js';

/** One rung of the degrade ladder taken to bring the estimate under the soft cap. */
export type BudgetStep =
  | { step: 'thoroughOff'; estimateBeforeUsd: number; estimateAfterUsd: number }
  | { step: 'verifySevereOnly'; estimateBeforeUsd: number; estimateAfterUsd: number }
  | { step: 'skipFiles'; estimateBeforeUsd: number; estimateAfterUsd: number; files: string[] };

export interface CapPlanInput {
  caps: SpendCaps;
  /** The reviewable files, in packing order. */
  files: readonly PackableFile[];
  /** The plan as first packed from `files`. */
  packed: PackResult;
  /** Packs some of `files` as the plan does. */
  pack(files: readonly PackableFile[]): PackResult;
  basis: CostBasis;
  /** Whether the verifying pass runs at all. */
  verify: boolean;
  /** File ids, lowest risk first: the order the ladder skips files in (asked only when it does). */
  skipOrder(): readonly number[];
  /** Already spent before the plan (the triage calls): the caps bind what is left of them. */
  spentUsd?: number | undefined;
}

export interface CapPlan {
  /** The cheapest plan (one file's chunks) is over what is left of the hard cap: no review call may be made. */
  held?: { cheapestUsd: number; estimateUsd: number; spentUsd?: number | undefined } | undefined;
  packed: PackResult;
  estimate: PlanEstimate;
  /** Thorough mode still applies (it was asked for and the ladder did not turn it off). */
  thorough: boolean;
  /** The verifier checks only errors and warnings (ladder step b). */
  verifySevereOnly: boolean;
  steps: BudgetStep[];
  /** Ids of the files the ladder skipped, lowest risk first. */
  skipped: number[];
  /** The estimate is still over the hard cap: the run is expected to stop at it. */
  overHardCap: boolean;
}

/**
 * Fits the plan to the caps before any model call. The hard cap first: when even the cheapest plan
 * (the one file whose chunks cost least, verified as cheaply as the ladder allows) is estimated
 * over it, the review is held. Then the soft cap, rung by rung until the estimate fits: (a)
 * thorough mode is turned off (when `basis.thoroughSamples` asks for it); (b) the verifier checks
 * only errors and warnings; (c) files are skipped, lowest risk first. The rungs of the reference
 * that move chunks to another purpose are not taken, since the estimate prices every chunk at one
 * model's prices.
 * Spend made before the plan (triage) counts against both caps.
 *
 * Skipping searches the fewest files to drop (by bisection, each try one packing: O(n log n)), so
 * large pull requests stay within the planning budget.
 */
export function planWithinCaps(input: CapPlanInput): CapPlan {
  let { basis } = input;
  // The cheapest plan the ladder allows: one conversation per chunk.
  const single: CostBasis = { ...basis, thoroughSamples: undefined };
  const spent = input.spentUsd ?? 0;
  // What is left of each cap; the plan's own estimate never includes what was already spent.
  const caps = {
    hardUsd: input.caps.hardUsd === undefined ? undefined : input.caps.hardUsd - spent,
    softUsd: input.caps.softUsd === undefined ? undefined : input.caps.softUsd - spent,
  };
  let share = input.verify ? VERIFY_SHARE : 0;
  let packed = input.packed;
  let estimate = estimatePlan(packed.chunks, basis, share);
  let verifySevereOnly = false;
  let thorough = basis.thoroughSamples !== undefined;
  let skipped: number[] = [];
  const steps: BudgetStep[] = [];
  const outcome = (held?: CapPlan['held']): CapPlan => ({
    held,
    packed,
    estimate,
    thorough,
    verifySevereOnly,
    steps,
    skipped,
    overHardCap: caps.hardUsd !== undefined && estimate.costUsd > caps.hardUsd,
  });

  if (caps.hardUsd === undefined && caps.softUsd === undefined) return outcome();

  const withChunks = new Set(packed.chunks.flatMap((c) => c.parts.map((p) => p.fileId)));
  if (caps.hardUsd !== undefined) {
    const cheapestShare = input.verify ? VERIFY_SHARE_SEVERE_ONLY : 0;
    // Only a plan over the cap as a whole can have a cheapest part over it.
    if (estimatePlan(packed.chunks, single, cheapestShare).costUsd > caps.hardUsd) {
      let cheapestUsd = Number.POSITIVE_INFINITY;
      for (const file of input.files) {
        if (!withChunks.has(file.id)) continue;
        cheapestUsd = Math.min(cheapestUsd, estimatePlan(input.pack([file]).chunks, single, cheapestShare).costUsd);
      }
      if (cheapestUsd > caps.hardUsd)
        return outcome({
          cheapestUsd,
          estimateUsd: estimate.costUsd,
          ...(spent > 0 ? { spentUsd: roundUsd(spent) } : {}),
        });
    }
  }

  const soft = caps.softUsd;
  if (soft === undefined || estimate.costUsd <= soft) return outcome();

  // Thorough mode first: it multiplies generation and is a precision refinement, not coverage.
  if (thorough && packed.chunks.some((c) => c.tier === 'high')) {
    const before = estimate.costUsd;
    basis = single;
    thorough = false;
    estimate = estimatePlan(packed.chunks, basis, share);
    steps.push({ step: 'thoroughOff', estimateBeforeUsd: before, estimateAfterUsd: estimate.costUsd });
    if (estimate.costUsd <= soft) return outcome();
  }

  if (input.verify) {
    const before = estimate.costUsd;
    share = VERIFY_SHARE_SEVERE_ONLY;
    verifySevereOnly = true;
    estimate = estimatePlan(packed.chunks, basis, share);
    steps.push({ step: 'verifySevereOnly', estimateBeforeUsd: before, estimateAfterUsd: estimate.costUsd });
    if (estimate.costUsd <= soft) return outcome();
  }

  // The fewest files, lowest risk first, whose skipping brings the estimate under the cap. Dropping
  // every file always fits (no chunk costs nothing), so the search has an answer.
  const order = input.skipOrder().filter((id) => withChunks.has(id));
  const byId = new Map(input.files.map((f) => [f.id, f]));
  const attempt = (k: number) => {
    const drop = new Set(order.slice(0, k));
    const repacked = input.pack(input.files.filter((f) => !drop.has(f.id)));
    return { k, packed: repacked, estimate: estimatePlan(repacked.chunks, basis, share) };
  };
  let low = 0;
  let best = attempt(order.length);
  while (best.k - low > 1) {
    const tried = attempt((low + best.k) >> 1);
    if (tried.estimate.costUsd <= soft) best = tried;
    else low = tried.k;
  }
  const before = estimate.costUsd;
  packed = best.packed;
  estimate = best.estimate;
  skipped = order.slice(0, best.k);
  steps.push({
    step: 'skipFiles',
    estimateBeforeUsd: before,
    estimateAfterUsd: estimate.costUsd,
    files: skipped.map((id) => byId.get(id)?.path ?? String(id)),
  });
  return outcome();
}
