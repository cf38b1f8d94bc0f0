import { type CapPlan, planWithinCaps } from '../budget/plan-within-caps.js';
import { mappedTriagePrices, tierModelsOf } from '../budget/purpose-prices.js';
import { hasSpendCaps, isPriced } from '../budget/spend-caps.js';
import type { PlannedFile } from '../pipeline/prepare-files.js';
import type { ReviewSource } from '../pipeline/review-source.js';
import { type PackedChunk, packChunks } from '../plan/pack-chunks.js';
import { lowestRiskFirst, TIER_RANK, type Tier } from '../plan/tiers.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { ReviewModel } from '../review-engine-v1.js';
import type { ToolCallsByTier } from '../tools/read-file-tool.js';
import type { Collected } from './collect.js';
import type { PlannedFiles } from './plan-files.js';
import type { ChunkWindow, Packing } from './plan-packing.js';
import type { RunContext } from './run-context.js';

/** The plan fitted to the spend caps: what will be reviewed, in which order, on which purposes. */
export interface BudgetPlan {
  capPlan: CapPlan;
  /** The chunks to review, in review order (none when the plan is held). */
  chunks: PackedChunk[];
  /** File reads each tier's chunks may make; `undefined` when tools are off. */
  toolCallsByTier: ToolCallsByTier | undefined;
}

/**
 * Prices the packed plan and fits it to the spend caps (the degrade ladder, or holding the whole
 * review when even its cheapest part is over the hard cap), recording each decision on the plan's
 * pass. Files the caps keep from review are `skipped` / `budget`.
 */
export async function planBudget(
  ctx: RunContext,
  run: Collected,
  planned: { files: PlannedFiles; packing: Packing; window: ChunkWindow; defaultModel: ReviewModel },
  pass: ProtocolPass,
): Promise<BudgetPlan> {
  const { input, settings, caps, signal } = ctx;
  const { files, packing, window, defaultModel } = planned;
  // Each purpose the plan may use, resolved once: the estimate prices every tier at its own model.
  const tierModels = await tierModelsOf(input.models);
  const verifyModel = settings.verify ? await input.models.forPurpose('reviewVerification') : defaultModel;
  const toolCallsByTier = toolBudgets(settings.toolCallsByTier, ctx.source, tierModels);
  const capPlan = planWithinCaps({
    caps,
    files: packing.packable,
    packed: packing.packed,
    pack: (some) => packChunks(some, window.limits),
    basis: {
      prefixTokens: window.prefixTokens,
      tierPrices: { low: tierModels.low.prices, medium: tierModels.medium.prices, high: tierModels.high.prices },
      verifyPrices: verifyModel.prices,
      toolCallsByTier,
      knowledgeTools: toolCallsByTier !== undefined && input.knowledge !== undefined,
      thoroughSamples: run.config.thorough ? ctx.thorough.samples : undefined,
    },
    // Only the ladder's triageForLow asks for it, and only a soft cap runs the ladder.
    triagePrices: caps.softUsd === undefined ? undefined : await mappedTriagePrices(input.models, signal),
    verify: settings.verify,
    skipOrder: () => lowestRiskFirst(packing.reviewable.map((p) => ({ ...p, path: p.file.path }))),
    spentUsd: ctx.ledger.costUsd(),
  });
  const priced = [defaultModel, verifyModel, tierModels.low, tierModels.medium, tierModels.high].some((m) =>
    isPriced(m.prices),
  );
  if (hasSpendCaps(caps) && !priced) {
    // Nothing priced costs US$0, so no cap can bind: say so rather than look capped.
    pass.event({
      kind: 'decision',
      name: 'budget.unpriced',
      eventCategory: 'operational',
      body: { caps, purpose: 'reviewDefault', remoteModelId: defaultModel.model.remoteModelId },
    });
  }
  for (const step of capPlan.steps) {
    pass.event({ kind: 'decision', name: 'budget.degraded', eventCategory: 'planning', body: { ...step, caps } });
  }
  for (const fileId of capPlan.skipped) budgetCut(files.byId.get(fileId) as PlannedFile, 'skipped');
  if (capPlan.held) {
    for (const chunk of packing.packed.chunks)
      for (const part of chunk.parts) budgetCut(files.byId.get(part.fileId) as PlannedFile, 'skipped');
    pass.event({
      kind: 'decision',
      name: 'budget.held',
      eventCategory: 'planning',
      body: { ...capPlan.held, hardUsd: caps.hardUsd },
    });
  }
  // When the estimate says the hard cap will stop the run, the riskiest chunks go first, so the
  // stop cuts the least valuable review (the order stays deterministic).
  const chunks: PackedChunk[] = capPlan.held
    ? []
    : capPlan.overHardCap
      ? [...capPlan.packed.chunks].sort((a, b) => TIER_RANK[b.tier] - TIER_RANK[a.tier])
      : capPlan.packed.chunks;
  return { capPlan, chunks, toolCallsByTier };
}

/** A file the spend caps kept (wholly or in part) from review. */
export function budgetCut(file: PlannedFile, state: 'skipped' | 'partial'): void {
  file.coverage.state = state;
  file.coverage.reason = 'budget';
}

/**
 * The file reads each tier's chunks may make: the setting where the tier's model supports tools,
 * 0 where it does not; `undefined` (tools off, nothing asked of the models) when every tier's
 * setting is 0 or the source cannot read files.
 */
function toolBudgets(
  setting: ToolCallsByTier,
  source: ReviewSource,
  models: Readonly<Record<Tier, ReviewModel>>,
): ToolCallsByTier | undefined {
  if (source.readsFiles === false) return undefined;
  const budgets: Record<Tier, number> = { low: 0, medium: 0, high: 0 };
  for (const tier of ['low', 'medium', 'high'] as const) {
    const calls = Math.max(0, Math.floor(setting[tier] ?? 0));
    if (calls > 0 && models[tier].supportsToolUse) budgets[tier] = calls;
  }
  return budgets.low + budgets.medium + budgets.high > 0 ? budgets : undefined;
}
