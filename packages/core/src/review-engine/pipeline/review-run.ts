import type { Clock, Ids } from '../../kernel/index.js';
import type { PullRequestSnapshot, ReviewThread, Revision } from '../../scm-provider/index.js';
import type { CoverageManifest } from '../coverage.js';
import type { KnownMatch } from '../dedupe/dedupe.js';
import type { EngineFinding } from '../engine-finding.js';
import type { KnownFinding, PublicationEntry, ReviewMemory } from '../memory/review-memory.js';
import type { JobUsage, ModelCallUsage } from '../protocol/job-usage.js';
import type { ProtocolWriter } from '../protocol/protocol-writer.js';
import type { ReviewModels, SharedSpendV1 } from '../review-engine-v1.js';
import type { Settled } from './finding-lifecycle.js';
import type { ReviewSettings } from './review-settings.js';
import type { ReviewSource } from './review-source.js';

export interface RunReviewInput {
  jobId: string;
  source: ReviewSource;
  models: ReviewModels;
  memory: ReviewMemory;
  protocol: ProtocolWriter;
  clock: Clock;
  ids: Ids;
  signal: AbortSignal;
  reportProgress(progress: { filesTotal: number; filesDone: number }): void;
  /** The revision the job names; `null` reviews the pull request's newest. */
  revision: { headSha: string; baseSha: string } | null;
  temperature?: number | undefined;
  blockedReason?: (() => Promise<string | undefined>) | undefined;
  settings?: Partial<ReviewSettings> | undefined;
  /** A hard cap other reviews draw on too; claimed before each chunk. */
  sharedSpend?: SharedSpendV1 | undefined;
  /** Hears each model call as it returns. */
  onModelCall?: ((call: ModelCallUsage) => void) | undefined;
}

export interface ReviewRun {
  /**
   * `budgetHeld`: even the cheapest plan was estimated over the hard spend cap, so no model was
   * called (the reason says the estimate and the cap). A run the hard cap stopped is `reviewed`,
   * with `coverage.budget.stopped` set.
   */
  status: 'reviewed' | 'cancelled' | 'superseded' | 'budgetHeld';
  reason?: string | undefined;
  pullRequest?: PullRequestSnapshot | undefined;
  revision?: Revision | undefined;
  findings: EngineFinding[];
  coverage: CoverageManifest;
  summary: string | null;
  usage: JobUsage;
  /** What the provider showed before this run posted anything. */
  threads: ReviewThread[];
  ledger: PublicationEntry[];
  /** Every chunk failed: the review produced nothing it can stand behind. */
  allFailed: boolean;
  /** How this run's findings relate to those earlier reviews posted, and what became of those. */
  identity: ReviewIdentity;
}

export interface ReviewIdentity {
  /** As loaded, with people's closures applied. */
  known: KnownFinding[];
  /** Findings people closed as won't-fix or by design since the last review. */
  dismissedByPeople: KnownFinding[];
  matches: Map<EngineFinding, KnownMatch>;
  settled: Settled;
}

/** Counts for the result and the summary: what became of earlier findings. */
export function lifecycleOf(identity: ReviewIdentity) {
  return {
    resolved: identity.settled.resolved.length,
    reopened: [...identity.matches.values()].filter((m) => m.outcome === 'reopen').length,
    stillOpen:
      identity.settled.stillOpen.length +
      [...identity.matches.values()].filter(
        (m) => m.outcome === 'seen' && (m.known.state === 'open' || m.known.state === 'reopened'),
      ).length,
    superseded: identity.settled.superseded.length,
    dismissedByPeople: identity.dismissedByPeople.length,
  };
}

export type Lifecycle = ReturnType<typeof lifecycleOf>;
