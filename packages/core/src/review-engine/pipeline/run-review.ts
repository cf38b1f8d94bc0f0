import { collect } from '../stages/collect.js';
import { filter } from '../stages/filter.js';
import { learnFromThreads, settleEarlierFindings } from '../stages/memory.js';
import { plan } from '../stages/plan.js';
import { resolve } from '../stages/resolve.js';
import { review } from '../stages/review.js';
import { createRunContext } from '../stages/run-context.js';
import { finalCoverage } from '../stages/run-coverage.js';
import { summarize } from '../stages/summarize.js';
import type { ReviewRun, RunReviewInput } from './review-run.js';

// The run's input, result and settings, beside the function that takes and gives them.
export type { ReviewRun, RunReviewInput } from './review-run.js';
export { DEFAULT_REVIEW_SETTINGS, type ReviewSettings } from './review-settings.js';

/**
 * Stages resolve → collect → plan → thread memory → review (with verify and anchoring per chunk) →
 * filter (dedupe, thread memory and gate) → summarize, each writing protocol passes (reference §6; one file per stage in
 * `stages/`). A closed, blocked or superseded pull request ends the run at resolve, a plan over the
 * hard spend cap at plan. Nothing is posted here; `publishReview` does that.
 */
export async function runReview(input: RunReviewInput): Promise<ReviewRun> {
  const ctx = createRunContext(input);
  const resolved = await resolve(ctx);
  if ('ended' in resolved) return resolved.ended;
  const collected = await collect(ctx, resolved);
  const planned = await plan(ctx, collected);
  if ('ended' in planned) return planned.ended;
  // After planning, so a run the budget holds calls no model for memory either.
  const reviewed = await review(ctx, await learnFromThreads(ctx, planned));
  const filtered = await filter(ctx, reviewed);
  const identity = await settleEarlierFindings(ctx, filtered);
  return summarize(ctx, filtered, { identity, coverage: finalCoverage(ctx, filtered) });
}
