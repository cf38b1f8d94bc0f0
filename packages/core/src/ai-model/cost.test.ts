import { describe, expect, it } from 'vitest';
import type { AiUsage } from './ai-model-v1.js';
import { estimateCostUsd } from './cost.js';

const usage = (over: Partial<AiUsage>): AiUsage => ({
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  ...over,
});

describe('estimated cost', () => {
  it('charges uncached input, cached input and output at their own prices per million', () => {
    const cost = estimateCostUsd(
      usage({ inputTokens: 1_000_000, cachedInputTokens: 2_000_000, outputTokens: 500_000 }),
      {
        inputCostPer1MUsd: 1.25,
        cachedInputCostPer1MUsd: 0.125,
        outputCostPer1MUsd: 10,
      },
    );
    expect(cost).toBeCloseTo(1.25 + 0.25 + 5, 10);
  });

  it('charges cached input at the input price when no cached price is configured', () => {
    const cost = estimateCostUsd(usage({ cachedInputTokens: 4096 }), { inputCostPer1MUsd: 3 });
    expect(cost).toBeCloseTo((4096 * 3) / 1_000_000, 12);
  });

  it('charges cache writes as input and does not charge reasoning tokens twice', () => {
    const cost = estimateCostUsd(
      usage({ inputTokens: 100, cacheWriteTokens: 900, outputTokens: 50, reasoningTokens: 40 }),
      {
        inputCostPer1MUsd: 2,
        outputCostPer1MUsd: 8,
      },
    );
    expect(cost).toBeCloseTo((1000 * 2 + 50 * 8) / 1_000_000, 12);
  });

  it('is zero for a model without prices', () => {
    expect(estimateCostUsd(usage({ inputTokens: 10_000, outputTokens: 10_000 }), {})).toBe(0);
  });
});
