import type { PullRequestSnapshot } from '../../scm-provider/index.js';
import { checkSpendCaps, type SpendCaps } from '../budget/spend-caps.js';
import { type CoverageManifest, countCoverage } from '../coverage.js';
import type { ReviewRun, RunReviewInput } from '../pipeline/review-run.js';
import { DEFAULT_REVIEW_SETTINGS, type ReviewSettings } from '../pipeline/review-settings.js';
import type { ReviewSource } from '../pipeline/review-source.js';
import { UsageLedger } from '../pipeline/usage-ledger.js';
import type { ProtocolWriter } from '../protocol/protocol-writer.js';
import { checkThoroughSettings, type ThoroughSettings } from '../thorough/thorough-settings.js';

/** What every stage of one run shares: the input, the checked settings, the usage ledger, the protocol. */
export interface RunContext {
  input: RunReviewInput;
  /** The input's settings over the defaults. */
  settings: ReviewSettings;
  /** The settings' spend caps, checked before anything is read. */
  caps: SpendCaps;
  /** The settings' thorough mode, checked (it applies only where the repository asks for it). */
  thorough: ThoroughSettings;
  /** What every model call of the run used and cost, as it comes back. */
  ledger: UsageLedger;
  protocol: ProtocolWriter;
  signal: AbortSignal;
  source: ReviewSource;
}

export function createRunContext(input: RunReviewInput): RunContext {
  const settings: ReviewSettings = { ...DEFAULT_REVIEW_SETTINGS, ...input.settings };
  const { sharedSpend, onModelCall } = input;
  return {
    input,
    settings,
    caps: checkSpendCaps(settings.spendCaps),
    thorough: checkThoroughSettings(settings.thorough),
    ledger: new UsageLedger((call) => {
      onModelCall?.(call);
      sharedSpend?.spent(call.estimatedCostUsd);
    }),
    protocol: input.protocol,
    signal: input.signal,
    source: input.source,
  };
}

/** A stage's way of ending the run early (closed, blocked, superseded, held by the budget). */
export interface Ended {
  ended: ReviewRun;
}

/** A run that ends before review: nothing found, nothing to publish, the usage so far. */
export function endedRun(
  ctx: RunContext,
  status: Exclude<ReviewRun['status'], 'reviewed'>,
  reason: string,
  pullRequest?: PullRequestSnapshot,
  coverage = emptyCoverage(),
): ReviewRun {
  return {
    status,
    reason,
    pullRequest,
    findings: [],
    coverage,
    summary: null,
    usage: ctx.ledger.toJobUsage(),
    threads: [],
    ledger: [],
    allFailed: false,
    identity: {
      known: [],
      dismissedByPeople: [],
      matches: new Map(),
      settled: { resolved: [], superseded: [], stillOpen: [] },
    },
  };
}

function emptyCoverage(): CoverageManifest {
  return { files: [], counts: countCoverage([]), complete: false, injectionSuspected: false, tokensApproximate: true };
}

/**
 * The job's progress in files: a file is done when it needs no review, or its last chunk was
 * reviewed (or kept back by the hard cap). Reported as it moves.
 */
export class FileProgress {
  private done = 0;

  constructor(
    private readonly total: number,
    private readonly reportTo: RunReviewInput['reportProgress'],
  ) {}

  settled(count = 1): void {
    this.done += count;
  }

  report(): void {
    this.reportTo({ filesTotal: this.total, filesDone: this.done });
  }
}
