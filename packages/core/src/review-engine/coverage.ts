import type { ChangeType, ListingTruncation } from '../scm-provider/index.js';
import type { Tier } from './plan/tiers.js';

export type CoverageState = 'reviewed' | 'partial' | 'carriedForward' | 'skipped' | 'reviewFailed';

/** One changed file in the coverage manifest: what the review did with it, and why. */
export interface CoverageFile {
  path: string;
  previousPath?: string | undefined;
  changeType: ChangeType;
  state: CoverageState;
  /** Why it was skipped, partial or failed (`lockFile`, `hunkTooLarge`, `unreadableAnswer`, ...). */
  reason?: string | undefined;
  /** Diff tokens sent for it (before the prompt around it). */
  tokens?: number | undefined;
  tier?: Tier | undefined;
  /**
   * What the file's change is, for carrying it forward: the provider's blob ids where it names them,
   * else a hash of the diff. The next review skips a file whose key did not change.
   */
  contentKey?: string | undefined;
}

export interface CoverageManifest {
  files: CoverageFile[];
  counts: Record<CoverageState, number>;
  /** Every changed file was listed and every reviewable one fully reviewed. */
  complete: boolean;
  /** The provider listed fewer files than the pull request has. */
  listingTruncated?: ListingTruncation | undefined;
  /** Text in the pull request looked like an attempt to instruct the reviewer; it was treated as data. */
  injectionSuspected: boolean;
  /** Token counts were estimated (the model's tokenizer is not known here). */
  tokensApproximate: boolean;
  /** What the plan expected to spend before any call, and on which rung the answers came. */
  estimate?: { inputTokens: number; costUsd: number } | undefined;
  /** How answers were read: per structured-output rung, calls that parsed and calls that failed. */
  parsing?: Record<string, { ok: number; repaired: number; failed: number }> | undefined;
  /**
   * The review this one builds on: its head, how the new head relates to it (`ahead` allows focus
   * ranges; anything else means a full review), and whether focus ranges were used.
   */
  incremental?: { sinceHeadSha: string; relation: string; focused: boolean } | undefined;
  /** The spend caps this run was held to, and what they changed; absent when none applied. */
  budget?: CoverageBudget | undefined;
}

/**
 * What the spend caps did to a run, so a capped review is never silently partial: the ladder's
 * steps on the estimate (before any call), and where the hard cap stopped it. Files the caps kept
 * from review are `skipped` (or `partial`) with reason `budget`.
 */
export interface CoverageBudget {
  softUsd?: number | undefined;
  hardUsd?: number | undefined;
  /** Ladder steps taken to bring the estimate under the soft cap, in order. */
  degraded: Array<{
    step: 'thoroughOff' | 'verifySevereOnly' | 'mediumForHigh' | 'triageForLow' | 'skipFiles';
    estimateBeforeUsd: number;
    estimateAfterUsd: number;
    /** For `skipFiles`: how many files were skipped. */
    files?: number | undefined;
  }>;
  /**
   * Even the cheapest plan was estimated over the hard cap (less `spentUsd`, what triage had
   * already spent): no file was sent to a reviewing model.
   */
  held?: { cheapestUsd: number; estimateUsd: number; spentUsd?: number | undefined } | undefined;
  /** The spend reached the hard cap: no chunk started after it (those in flight finished). */
  stopped?: { spentUsd: number; chunksNotStarted: number; files: number } | undefined;
}

export function countCoverage(files: readonly CoverageFile[]): Record<CoverageState, number> {
  const counts: Record<CoverageState, number> = {
    reviewed: 0,
    partial: 0,
    carriedForward: 0,
    skipped: 0,
    reviewFailed: 0,
  };
  for (const f of files) counts[f.state]++;
  return counts;
}
