import { describe, expect, it } from 'vitest';
import {
  type CostBasis,
  estimatePlan,
  KNOWLEDGE_ROUND_EXTRA_TOKENS,
  TOOL_ROUND_EXTRA_TOKENS,
} from './estimate-cost.js';

/**
 * The estimate priced per purpose (reference §10): each chunk at the prices of the model its tier's
 * purpose resolves to, the verifier's share at the verifying model's — and, when every purpose falls
 * back to one model, exactly the estimate at that one model's prices.
 */

const chunks = [
  { tokens: 1000, tier: 'low' as const },
  { tokens: 2000, tier: 'high' as const },
];
const ONE = { inputCostPer1MUsd: 2, outputCostPer1MUsd: 8 };
const sameEverywhere: CostBasis = {
  prefixTokens: 500,
  tierPrices: { low: ONE, medium: ONE, high: ONE },
  verifyPrices: ONE,
};

describe('the estimate', () => {
  it('is the one-price estimate when every purpose resolves to the same prices', () => {
    // (1,500 + 2,500) prompt tokens + 30% of them for the verifier = 5,200 in; two answers of 1,000 out.
    expect(estimatePlan(chunks, sameEverywhere, 0.3)).toEqual({
      inputTokens: 5200,
      costUsd: (5200 * 2 + 2000 * 8) / 1_000_000,
    });
  });

  it('prices each tier at its own model and the verifier at the verifying model', () => {
    const basis: CostBasis = {
      ...sameEverywhere,
      tierPrices: { low: { inputCostPer1MUsd: 1, outputCostPer1MUsd: 4 }, medium: ONE, high: ONE },
      verifyPrices: { inputCostPer1MUsd: 0.5, outputCostPer1MUsd: 0 },
    };
    // low: 1,500 in at 1 + 1,000 out at 4; high: 2,500 in at 2 + 1,000 out at 8; verifier: 1,200 in at 0.5.
    expect(estimatePlan(chunks, basis, 0.3)).toEqual({
      inputTokens: 5200,
      costUsd: (1500 * 1 + 1000 * 4 + 2500 * 2 + 1000 * 8 + 1200 * 0.5) / 1_000_000,
    });
  });

  it('counts a tier with an unpriced model as free, and the rest as before', () => {
    const basis: CostBasis = { ...sameEverywhere, tierPrices: { low: {}, medium: ONE, high: ONE } };
    expect(estimatePlan(chunks, basis, 0.3).costUsd).toBe((2500 * 2 + 1000 * 8 + 1200 * 2) / 1_000_000);
  });

  it('counts the knowledge tools on every exploration round when the job has knowledge', () => {
    const withReads: CostBasis = { ...sameEverywhere, toolCallsByTier: { low: 0, medium: 3, high: 8 } };
    const reads = estimatePlan(chunks, withReads, 0.3);
    // The high chunk explores 8 rounds of its 2,500-token prompt plus the tools' extra (not verified).
    expect(reads.inputTokens).toBe(5200 + 8 * (2500 + TOOL_ROUND_EXTRA_TOKENS));
    const knowing = estimatePlan(chunks, { ...withReads, knowledgeTools: true }, 0.3);
    expect(knowing.inputTokens - reads.inputTokens).toBe(8 * KNOWLEDGE_ROUND_EXTRA_TOKENS);
  });
});
