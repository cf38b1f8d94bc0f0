import { hasSpendCaps } from '../budget/spend-caps.js';
import { type CoverageManifest, countCoverage } from '../coverage.js';
import type { Planned } from './plan.js';
import { TOKENS_APPROXIMATE } from './plan-files.js';
import type { Reviewed } from './review.js';
import type { RunContext } from './run-context.js';

/** The coverage manifest as planning left it: `complete` is decided where the run ends. */
export function coverageSoFar(run: Planned, extra: Pick<CoverageManifest, 'parsing' | 'budget'>): CoverageManifest {
  const { prepared } = run;
  return {
    files: prepared.coverage,
    counts: countCoverage(prepared.coverage),
    complete: false,
    listingTruncated: run.truncation,
    injectionSuspected: prepared.injection.length > 0,
    tokensApproximate: TOKENS_APPROXIMATE,
    estimate: run.capPlan.estimate,
    ...extra,
  };
}

/**
 * The reviewed run's coverage: how answers were read, what the spend caps changed, whether every
 * file was listed and fully reviewed, and which review an incremental one built on.
 */
export function finalCoverage(ctx: RunContext, run: Reviewed): CoverageManifest {
  const { caps } = ctx;
  const coverage = coverageSoFar(run, {
    parsing: run.parsing,
    ...(hasSpendCaps(caps)
      ? {
          budget: {
            ...caps,
            degraded: run.capPlan.steps.map((step) =>
              step.step === 'skipFiles' ? { ...step, files: step.files.length } : step,
            ),
            ...(run.stopped ? { stopped: run.stopped } : {}),
          },
        }
      : {}),
  });
  coverage.complete =
    !run.truncation &&
    coverage.counts.partial === 0 &&
    coverage.counts.reviewFailed === 0 &&
    !(hasSpendCaps(caps) && run.prepared.coverage.some((c) => c.reason === 'budget'));
  const { baseline, focus } = run;
  if (baseline)
    coverage.incremental = { sinceHeadSha: baseline.headSha, relation: focus.relation, focused: focus.lines.size > 0 };
  return coverage;
}
