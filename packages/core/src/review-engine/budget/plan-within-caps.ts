import type { AiPurpose, ModelPrices } from '../../ai-model/index.js';
import type { PackableFile, PackResult } from '../plan/pack-chunks.js';
import { TIER_PURPOSE, type Tier } from '../plan/tiers.js';
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
  | { step: 'mediumForHigh'; estimateBeforeUsd: number; estimateAfterUsd: number }
  | { step: 'triageForLow'; estimateBeforeUsd: number; estimateAfterUsd: number }
  | { step: 'skipFiles'; estimateBeforeUsd: number; estimateAfterUsd: number; files: string[] };

export interface CapPlanInput {
  caps: SpendCaps;
  /** The reviewable files, in packing order. */
  files: readonly PackableFile[];
  /** The plan as first packed from `files`. */
  packed: PackResult;
  /** Packs some of `files` as the plan does. */
  pack(files: readonly PackableFile[]): PackResult;
  /** The prices of each tier's own purpose (`TIER_PURPOSE`) and of the verifier. */
  basis: CostBasis;
  /**
   * The prices of the model `reviewTriage` is mapped to; absent when it is not mapped to a model of
   * its own (it would fall back to `reviewDefault`, no cheaper opinion), so low-tier files stay put.
   */
  triagePrices?: ModelPrices | undefined;
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
  /**
   * The purpose each tier's chunks are reviewed on: `TIER_PURPOSE`, unless a ladder step moved high
   * to the medium purpose (c) or low to `reviewTriage` (d). Only the model changes: a chunk keeps its
   * tier, so its file-read budget and the thorough rule stay the tier's.
   */
  purposeByTier: Readonly<Record<Tier, ReviewPurpose>>;
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
 * only errors and warnings; (c) high-tier chunks are reviewed on the medium purpose's model; (d)
 * low-tier chunks on the triage model (only when `reviewTriage` is mapped); (e) files are skipped,
 * lowest risk first. (c) and (d) are taken only when they lower the estimate: a purpose that resolves
 * to the same model, or to a dearer one, has nothing to give.
 * Spend made before the plan (triage) counts against both caps.
 *
 * Skipping searches the fewest files to drop (by bisection, each try one packing: O(n log n)), so
 * large pull requests stay within the planning budget.
 */
export function planWithinCaps(input: CapPlanInput): CapPlan {
  let { basis } = input;
  const purposeByTier: Record<Tier, ReviewPurpose> = { ...TIER_PURPOSE };
  const moves = tierMoves(input.basis, input.triagePrices);
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
    purposeByTier,
    steps,
    skipped,
    overHardCap: caps.hardUsd !== undefined && estimate.costUsd > caps.hardUsd,
  });

  if (caps.hardUsd === undefined && caps.softUsd === undefined) return outcome();

  const withChunks = new Set(packed.chunks.flatMap((c) => c.parts.map((p) => p.fileId)));
  if (caps.hardUsd !== undefined) {
    const cheapestShare = input.verify ? VERIFY_SHARE_SEVERE_ONLY : 0;
    // The cheapest plan the ladder allows: one conversation per chunk, on the cheaper models the
    // ladder may move tiers to.
    const single = cheapestBasis({ ...basis, thoroughSamples: undefined }, moves, packed.chunks, cheapestShare);
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
  /** Records a rung whose new estimate is `after`; whether the plan now fits the soft cap. */
  const took = (step: Exclude<BudgetStep['step'], 'skipFiles'>, after: PlanEstimate): boolean => {
    steps.push({ step, estimateBeforeUsd: estimate.costUsd, estimateAfterUsd: after.costUsd });
    estimate = after;
    return estimate.costUsd <= soft;
  };

  // Thorough mode first: it multiplies generation and is a precision refinement, not coverage.
  if (thorough && packed.chunks.some((c) => c.tier === 'high')) {
    basis = { ...basis, thoroughSamples: undefined };
    thorough = false;
    if (took('thoroughOff', estimatePlan(packed.chunks, basis, share))) return outcome();
  }

  if (input.verify) {
    share = VERIFY_SHARE_SEVERE_ONLY;
    verifySevereOnly = true;
    if (took('verifySevereOnly', estimatePlan(packed.chunks, basis, share))) return outcome();
  }

  // Then cheaper models for whole tiers, the riskiest tier's first move being the mildest (medium
  // effort is still a reviewing model); each only when it lowers the estimate.
  for (const move of moves) {
    if (!packed.chunks.some((c) => c.tier === move.tier)) continue;
    const moved = movedBasis(basis, move);
    const after = estimatePlan(packed.chunks, moved, share);
    if (after.costUsd >= estimate.costUsd) continue;
    basis = moved;
    purposeByTier[move.tier] = move.purpose;
    if (took(move.step, after)) return outcome();
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

/** A purpose a chunk may be reviewed on. */
export type ReviewPurpose = Exclude<AiPurpose, 'embeddingDefault'>;

/** A ladder step that reviews one tier's chunks on another purpose's model. */
interface TierMove {
  step: 'mediumForHigh' | 'triageForLow';
  tier: Tier;
  purpose: ReviewPurpose;
  prices: ModelPrices;
}

/** The moves of rungs (c) and (d), in ladder order; (d) only when `reviewTriage` has its own model. */
function tierMoves(basis: CostBasis, triagePrices: ModelPrices | undefined): TierMove[] {
  const moves: TierMove[] = [
    { step: 'mediumForHigh', tier: 'high', purpose: TIER_PURPOSE.medium, prices: basis.tierPrices.medium },
  ];
  if (triagePrices) moves.push({ step: 'triageForLow', tier: 'low', purpose: 'reviewTriage', prices: triagePrices });
  return moves;
}

function movedBasis(basis: CostBasis, move: TierMove): CostBasis {
  return { ...basis, tierPrices: { ...basis.tierPrices, [move.tier]: move.prices } };
}

/** The basis with every move that lowers the plan's estimate applied: what the hard cap's check assumes. */
function cheapestBasis(
  basis: CostBasis,
  moves: readonly TierMove[],
  chunks: ReadonlyArray<{ tokens: number; tier: Tier }>,
  share: number,
): CostBasis {
  let cheapest = basis;
  for (const move of moves) {
    const moved = movedBasis(cheapest, move);
    if (estimatePlan(chunks, moved, share).costUsd < estimatePlan(chunks, cheapest, share).costUsd) cheapest = moved;
  }
  return cheapest;
}
