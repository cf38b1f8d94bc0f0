import { estimateCostUsd, type ModelPrices } from '../../ai/index.js';
import { roundUsd } from './spend-caps.js';

/** What every chunk's conversation costs besides its diff, and at what prices. */
export interface CostBasis {
  /** The system prompt, the pull request's text and the framing around the diff. */
  prefixTokens: number;
  prices: ModelPrices;
}

/** Answer tokens counted per chunk: findings are short, and most chunks have few or none. */
export const ANSWER_TOKENS_PER_CHUNK = 1000;

/** The verifying pass, as a share of the review's input: about 30% (reference §10). */
export const VERIFY_SHARE = 0.3;

/**
 * The verifier's share when it checks only errors and warnings: chunks whose findings are all
 * suggestions or notes skip it. A planning assumption (half), not a measurement; what the calls
 * really used comes back in the usage.
 */
export const VERIFY_SHARE_SEVERE_ONLY = VERIFY_SHARE / 2;

export interface PlanEstimate {
  inputTokens: number;
  costUsd: number;
}

/**
 * The estimate of a plan before any call: every chunk's diff plus the prompt around it, the
 * verifier's share on top, an answer per chunk, at the given prices. Linear in the chunks, so the
 * estimate of part of a plan is the estimate of its chunks.
 */
export function estimatePlan(
  chunks: ReadonlyArray<{ tokens: number }>,
  basis: CostBasis,
  verifyShare: number,
): PlanEstimate {
  let diffTokens = 0;
  for (const chunk of chunks) diffTokens += chunk.tokens + basis.prefixTokens;
  const inputTokens = diffTokens * (1 + verifyShare);
  return {
    inputTokens: Math.round(inputTokens),
    costUsd: roundUsd(
      estimateCostUsd(
        {
          inputTokens,
          outputTokens: chunks.length * ANSWER_TOKENS_PER_CHUNK,
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
        },
        basis.prices,
      ),
    ),
  };
}
