import type { ModelPrices } from '../../ai-model/index.js';
import { MarginError } from '../../kernel/index.js';

/**
 * What one review run may spend, in US$ at the configured models' prices (`inputCostPer1MUsd`,
 * `outputCostPer1MUsd`). An absent cap is no cap. A model without prices costs nothing, so no cap
 * ever binds it.
 */
export interface SpendCaps {
  /** The plan's estimate over it degrades the review, step by step, until the estimate fits. */
  softUsd?: number | undefined;
  /**
   * The estimate of the cheapest plan over it holds the job before any model call; the spend
   * reaching it during the run stops the review (chunks in flight finish).
   */
  hardUsd?: number | undefined;
}

/**
 * The caps as given, or a `validation_failed` error naming the one that is not a positive amount,
 * or a soft cap above the hard one (which could never degrade before the stop).
 */
export function checkSpendCaps(caps: SpendCaps | undefined): SpendCaps {
  const { softUsd, hardUsd } = caps ?? {};
  for (const [name, value] of [
    ['softUsd', softUsd],
    ['hardUsd', hardUsd],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw MarginError.validation(`spendCaps.${name} must be a positive amount of US dollars.`);
    }
  }
  if (softUsd !== undefined && hardUsd !== undefined && softUsd > hardUsd) {
    throw MarginError.validation('spendCaps.softUsd must not exceed spendCaps.hardUsd.');
  }
  return { softUsd, hardUsd };
}

/** Whether a model has a price caps can count with; without one its calls cost US$0. */
export const isPriced = (prices: ModelPrices): boolean =>
  (prices.inputCostPer1MUsd ?? 0) > 0 || (prices.outputCostPer1MUsd ?? 0) > 0;

/** Whether any cap is set. */
export const hasSpendCaps = (caps: SpendCaps): boolean => caps.softUsd !== undefined || caps.hardUsd !== undefined;

/** US$ as the protocol, the coverage and the summary show them: to a millionth of a dollar. */
export const roundUsd = (usd: number): number => Math.round(usd * 1_000_000) / 1_000_000;
