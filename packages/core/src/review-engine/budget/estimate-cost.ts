import { estimateCostUsd, type ModelPrices } from '../../ai/index.js';
import type { Tier } from '../plan/tiers.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../tools/read-file-tool.js';
import { roundUsd } from './spend-caps.js';

/** What every chunk's conversation costs besides its diff, and at what prices. */
export interface CostBasis {
  /** The system prompt, the pull request's text and the framing around the diff. */
  prefixTokens: number;
  prices: ModelPrices;
  /** File reads per chunk by tier where the tier's model may use tools; absent when tools are off. */
  toolCallsByTier?: Readonly<Record<Tier, number>> | undefined;
  /**
   * Thorough mode: samples asked per high-tier chunk; absent when off. Each sample is a whole
   * generation (prompt and answer); the verifier still runs once, on the survivors.
   */
  thoroughSamples?: number | undefined;
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

/**
 * One exploration round's input besides the chunk's prompt: the tool's definition and the answer
 * instructions (about 1,000 tokens), and every read so far, counted at the chunk's output cap
 * (characters ÷ 3.5) so the figure is an upper bound.
 */
export const TOOL_ROUND_EXTRA_TOKENS = 1000 + Math.ceil(MAX_TOOL_OUTPUT_CHARS / 3.5);

/** One read's output as a later thorough sample is sent it again (the first sample's reads are reused). */
export const TOOL_READ_TOKENS = Math.ceil(MAX_TOOL_OUTPUT_CHARS / 3.5);

/** A round's output: the tool call's arguments, or an answer's share counted with the chunk. */
export const TOOL_CALL_OUTPUT_TOKENS = 100;

export interface PlanEstimate {
  inputTokens: number;
  costUsd: number;
}

/**
 * The estimate of a plan before any call: every chunk's diff plus the prompt around it, the
 * verifier's share on top, an answer per chunk, at the given prices. Linear in the chunks, so the
 * estimate of part of a plan is the estimate of its chunks.
 *
 * A chunk whose tier may read files counts as if its model spent the whole budget one read per
 * round: each read is one more round that sends the chunk's prompt again with everything read so
 * far (at most the output cap). Real runs spend less; the usage says what.
 *
 * A thorough (high-tier) chunk counts its generation `thoroughSamples` times: the prompt and an
 * answer per sample, plus the first sample's reads sent again with each later one. The verifier's
 * share stays that of one conversation, since it runs once on what the samples agreed on.
 */
export function estimatePlan(
  chunks: ReadonlyArray<{ tokens: number; tier?: Tier | undefined }>,
  basis: CostBasis,
  verifyShare: number,
): PlanEstimate {
  let diffTokens = 0;
  let generationTokens = 0;
  let answers = 0;
  let toolRounds = 0;
  let toolTokens = 0;
  for (const chunk of chunks) {
    const tokens = chunk.tokens + basis.prefixTokens;
    const samples = chunk.tier === 'high' && basis.thoroughSamples ? basis.thoroughSamples : 1;
    diffTokens += tokens;
    generationTokens += tokens * samples;
    answers += samples;
    const rounds = chunk.tier && basis.toolCallsByTier ? basis.toolCallsByTier[chunk.tier] : 0;
    if (rounds > 0) {
      toolRounds += rounds;
      toolTokens += rounds * (tokens + TOOL_ROUND_EXTRA_TOKENS) + (samples - 1) * rounds * TOOL_READ_TOKENS;
    }
  }
  const inputTokens = generationTokens + diffTokens * verifyShare + toolTokens;
  return {
    inputTokens: Math.round(inputTokens),
    costUsd: roundUsd(
      estimateCostUsd(
        {
          inputTokens,
          outputTokens: answers * ANSWER_TOKENS_PER_CHUNK + toolRounds * TOOL_CALL_OUTPUT_TOKENS,
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
        },
        basis.prices,
      ),
    ),
  };
}
