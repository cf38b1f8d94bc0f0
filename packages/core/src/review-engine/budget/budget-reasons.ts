import type { CoverageBudget } from '../coverage.js';
import { roundUsd } from './spend-caps.js';

/** The error text of a held review: the estimate, the cap, and what to do. */
export function heldReason(held: NonNullable<CoverageBudget['held']>, hardUsd: number | undefined): string {
  const when = held.spentUsd
    ? `Held after the triage calls (US$${roundUsd(held.spentUsd)} spent): what is left of the hard spend cap of US$${hardUsd} per review does not cover even the cheapest part of this review (one file), estimated at US$${roundUsd(held.cheapestUsd)}`
    : `Held before any model call: even the cheapest part of this review (one file) is estimated at US$${roundUsd(held.cheapestUsd)}, over the hard spend cap of US$${hardUsd} per review`;
  return `${when} (the whole review: US$${held.estimateUsd}). Nothing was reviewed or posted; raise the cap and restart the job.`;
}

/** The error text of a review the hard cap stopped: what it spent, what it left, and what to do. */
export function stoppedReason(budget: CoverageBudget, stopped: NonNullable<CoverageBudget['stopped']>): string {
  const n = stopped.files;
  return `Stopped at the hard spend cap of US$${budget.hardUsd} per review (US$${stopped.spentUsd} spent): ${n} file${n === 1 ? ' was' : 's were'} not fully reviewed (coverage reason \`budget\`); the findings made so far were published. Raise the cap and restart the job to review the rest.`;
}
