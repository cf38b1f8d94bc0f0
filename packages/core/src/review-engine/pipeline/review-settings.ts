import type { SpendCaps } from '../budget/spend-caps.js';
import { DEFAULT_GATE_POLICY, type GatePolicy } from '../gate/gate.js';
import { DEFAULT_THOROUGH_SETTINGS, type ThoroughSettings } from '../thorough/thorough-settings.js';
import { DEFAULT_TOOL_CALLS_BY_TIER, type ToolCallsByTier } from '../tools/read-file-tool.js';

export interface ReviewSettings {
  /** Model conversations in flight at once, per job. */
  maxConcurrentModelCalls: number;
  /** Provider calls for diffs in flight at once, per job. */
  diffFetchConcurrency: number;
  /** Diff tokens a chunk aims at. */
  targetChunkTokens: number;
  /** The context window assumed when the configured model does not name one. */
  defaultContextTokens: number;
  /** Tokens kept free for the answer. */
  outputReserveTokens: number;
  /** A second, refuting pass over every chunk's findings. */
  verify: boolean;
  /** Used when the job's configuration names none. */
  temperature: number;
  gate: GatePolicy;
  /** What one review run may spend; absent caps mean none (the service applies them only with `budgeting`). */
  spendCaps: SpendCaps;
  /**
   * Read-only file reads a reviewing model with `supportsToolUse` may make per chunk, by tier
   * (reference §6.5: 0, 3, 8); 0 everywhere turns tools off.
   */
  toolCallsByTier: ToolCallsByTier;
  /**
   * Thorough mode's samples, temperature and agreement (reference §6.5); it runs only for
   * repositories whose `.margin/config.yml` says `thorough: true`, on high-tier chunks.
   */
  thorough: ThoroughSettings;
}

export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = {
  maxConcurrentModelCalls: 4,
  diffFetchConcurrency: 8,
  targetChunkTokens: 6000,
  defaultContextTokens: 32_000,
  outputReserveTokens: 2000,
  verify: true,
  temperature: 0.1,
  gate: DEFAULT_GATE_POLICY,
  spendCaps: {},
  toolCallsByTier: DEFAULT_TOOL_CALLS_BY_TIER,
  thorough: DEFAULT_THOROUGH_SETTINGS,
};
