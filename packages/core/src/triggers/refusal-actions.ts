import type { Refusal } from '../reviewing/index.js';

/** How an automatic trigger records a request that queued nothing, in a delivery's or crawl's actions. */
export function refusalAction(refusal: Refusal): string {
  switch (refusal.refused) {
    case 'duplicateActiveJob':
      return `skipped: a review of this revision is active (${refusal.jobId})`;
    case 'alreadyReviewed':
      return 'skipped: revision already reviewed';
    case 'blocked':
      return `skipped: blocked (${refusal.reason.slice(0, 300)})`;
    case 'oneAtATime':
      return 'skipped: another review is queued or running (one at a time without parallel-review-execution)';
  }
}
