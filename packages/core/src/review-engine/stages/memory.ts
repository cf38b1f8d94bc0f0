import { settleKnown } from '../pipeline/finding-lifecycle.js';
import type { ReviewIdentity } from '../pipeline/review-run.js';
import type { Filtered } from './filter.js';
import type { RunContext } from './run-context.js';

/**
 * What became of the findings earlier reviews posted: matched again by this run, resolved (their
 * file fully reviewed and their lines gone), superseded (their file left the change) or still open.
 * Recorded as a `memory` pass when there were any.
 */
export async function settleEarlierFindings(ctx: RunContext, run: Filtered): Promise<ReviewIdentity> {
  const { known, matches } = run;
  const stillChanged = new Set(
    run.files.flatMap((f) => [f.path.toLowerCase(), ...(f.previousPath ? [f.previousPath.toLowerCase()] : [])]),
  );
  const reviewedPaths = new Set(
    run.prepared.coverage
      .filter((c) => c.state === 'reviewed')
      .flatMap((c) => [c.path.toLowerCase(), ...(c.previousPath ? [c.previousPath.toLowerCase()] : [])]),
  );
  const settled = settleKnown({
    known,
    matches,
    changedPaths: stillChanged,
    fullyReviewed: (path) => reviewedPaths.has(path),
    gone: run.gone,
  });
  if (known.length > 0) {
    const pass = await ctx.protocol.pass('memory', 'Findings of earlier reviews');
    for (const [f, m] of matches) {
      pass.event({
        kind: 'decision',
        name: `known.${m.outcome}`,
        eventCategory: 'memory',
        body: { findingId: f.id, knownFindingId: m.known.id },
      });
    }
    for (const [what, list] of Object.entries(settled)) {
      for (const k of list)
        pass.event({
          kind: 'decision',
          name: `known.${what}`,
          eventCategory: 'memory',
          body: { knownFindingId: k.id, path: k.path },
        });
    }
    await pass.complete('succeeded');
  }
  return { known, dismissedByPeople: run.dismissedByPeople, matches, settled };
}
