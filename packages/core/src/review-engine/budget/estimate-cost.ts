import { estimateCostUsd, type ModelPrices } from '../../ai-model/index.js';
import type { Tier } from '../plan/tiers.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../tools/read-file-tool.js';
import { roundUsd } from './spend-caps.js';

/** What every chunk's conversation costs besides its diff, and at what prices. */
export interface CostBasis {
  /** The system prompt, the pull request's text and the framing around the diff. */
  prefixTokens: number;
  /**
   * The prices of the model each tier's chunks are reviewed on: the model its purpose resolves to
   * (`TIER_PURPOSE`), or the cheaper one a ladder step moved the tier to.
   */
  tierPrices: Readonly<Record<Tier, ModelPrices>>;
  /** The prices of the model `reviewVerification` resolves to, for the verifier's share. */
  verifyPrices: ModelPrices;
  /** File reads per chunk by tier where the tier's model may use tools; absent when tools are off. */
  toolCallsByTier?: Readonly<Record<Tier, number>> | undefined;
  /** `search_knowledge` and `get_symbol` are offered beside `read_file` (the job has knowledge). */
  knowledgeTools?: boolean | undefined;
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

/**
 * What the knowledge tools add to each exploration round: their two definitions, the paragraph on
 * their use and the answer schema's `knowledgeRefs` (about 450 tokens; rounded up). Their answers
 * share the reads' output cap, which `TOOL_ROUND_EXTRA_TOKENS` already counts.
 */
export const KNOWLEDGE_ROUND_EXTRA_TOKENS = 600;

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
 * verifier's share on top, an answer per chunk. Each chunk's generation is priced at its tier's
 * prices, the verifier's share at the verifying model's. Linear in the chunks, so the estimate of
 * part of a plan is the estimate of its chunks.
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
  chunks: ReadonlyArray<{ tokens: number; tier: Tier }>,
  basis: CostBasis,
  verifyShare: number,
): PlanEstimate {
  // Token counts per tier first (integers, so their sums are exact), priced once per model below.
  const byTier: Record<Tier, PricedTokens> = { low: noTokens(), medium: noTokens(), high: noTokens() };
  let diffTokens = 0;
  for (const chunk of chunks) {
    const counts = byTier[chunk.tier];
    const tokens = chunk.tokens + basis.prefixTokens;
    const samples = chunk.tier === 'high' && basis.thoroughSamples ? basis.thoroughSamples : 1;
    diffTokens += tokens;
    counts.generation += tokens * samples;
    counts.answers += samples;
    const rounds = basis.toolCallsByTier ? basis.toolCallsByTier[chunk.tier] : 0;
    if (rounds > 0) {
      counts.toolRounds += rounds;
      const perRound = TOOL_ROUND_EXTRA_TOKENS + (basis.knowledgeTools ? KNOWLEDGE_ROUND_EXTRA_TOKENS : 0);
      counts.tools += rounds * (tokens + perRound) + (samples - 1) * rounds * TOOL_READ_TOKENS;
    }
  }
  // Slots with the same prices are priced together: when every purpose falls back to one model the
  // figure is the very same sum, multiplied once, as an estimate at one price.
  const groups: Array<{ prices: ModelPrices; counts: PricedTokens }> = [];
  const groupOf = (prices: ModelPrices): PricedTokens => {
    let group = groups.find((g) => samePrices(g.prices, prices));
    if (!group) {
      group = { prices, counts: noTokens() };
      groups.push(group);
    }
    return group.counts;
  };
  for (const tier of ['low', 'medium', 'high'] as const) addTokens(groupOf(basis.tierPrices[tier]), byTier[tier]);
  groupOf(basis.verifyPrices).verifiedDiff += diffTokens;

  let inputTokens = 0;
  let costUsd = 0;
  for (const { prices, counts } of groups) {
    const input = counts.generation + counts.verifiedDiff * verifyShare + counts.tools;
    inputTokens += input;
    costUsd += estimateCostUsd(
      {
        inputTokens: input,
        outputTokens: counts.answers * ANSWER_TOKENS_PER_CHUNK + counts.toolRounds * TOOL_CALL_OUTPUT_TOKENS,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
      prices,
    );
  }
  return { inputTokens: Math.round(inputTokens), costUsd: roundUsd(costUsd) };
}

/** Whether two models cost the same per token (for the estimate, the same model). */
export function samePrices(a: ModelPrices, b: ModelPrices): boolean {
  return (
    (a.inputCostPer1MUsd ?? 0) === (b.inputCostPer1MUsd ?? 0) &&
    (a.outputCostPer1MUsd ?? 0) === (b.outputCostPer1MUsd ?? 0) &&
    (a.cachedInputCostPer1MUsd ?? a.inputCostPer1MUsd ?? 0) === (b.cachedInputCostPer1MUsd ?? b.inputCostPer1MUsd ?? 0)
  );
}

/** The tokens one model is sent and answers in a plan. */
interface PricedTokens {
  /** The review prompts, once per sample. */
  generation: number;
  /** The diffs the verifier is counted on (its share applies to them). */
  verifiedDiff: number;
  tools: number;
  answers: number;
  toolRounds: number;
}

const noTokens = (): PricedTokens => ({ generation: 0, verifiedDiff: 0, tools: 0, answers: 0, toolRounds: 0 });

function addTokens(into: PricedTokens, from: PricedTokens): void {
  into.generation += from.generation;
  into.verifiedDiff += from.verifiedDiff;
  into.tools += from.tools;
  into.answers += from.answers;
  into.toolRounds += from.toolRounds;
}
