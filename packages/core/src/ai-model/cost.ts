import type { AiUsage } from './ai-model-v1.js';

/** A configured model's prices, in US dollars per million tokens (spec: configured model). */
export interface ModelPrices {
  inputCostPer1MUsd?: number | undefined;
  outputCostPer1MUsd?: number | undefined;
  cachedInputCostPer1MUsd?: number | undefined;
}

const PER_MILLION = 1_000_000;

/**
 * The estimated cost of a call from its normalised usage and the model's configured prices.
 *
 * - `inputTokens` (uncached input) and cache writes are charged at the input price: cache writes
 *   are input the vendor processed, and the profile has no separate cache-write price.
 * - Cached input is charged at the cached price, or at the input price when none is configured
 *   (over-estimating is safer for budgets than silently charging nothing).
 * - Reasoning tokens are part of `outputTokens` and are not charged twice.
 * - A missing price counts as zero, so a model without prices costs 0.
 */
export function estimateCostUsd(usage: AiUsage, prices: ModelPrices): number {
  const input = prices.inputCostPer1MUsd ?? 0;
  const cached = prices.cachedInputCostPer1MUsd ?? input;
  const output = prices.outputCostPer1MUsd ?? 0;
  const micros =
    (usage.inputTokens + usage.cacheWriteTokens) * input +
    usage.cachedInputTokens * cached +
    usage.outputTokens * output;
  return micros / PER_MILLION;
}
