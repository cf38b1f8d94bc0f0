import type { ProvisionReport } from './provision-options.js';

/** A run's outcome for people: what was created or changed, and where the review ended and why. */
export function formatReport(report: ProvisionReport): string[] {
  const count = (outcome: string) => report.steps.filter((s) => s.outcome === outcome).length;
  const lines = [
    `Client ${report.clientId}: ${count('created')} created, ${count('changed')} changed, ${count('unchanged')} already in place.`,
  ];
  const review = report.review;
  if (!review) return lines;
  const job = `Review job ${review.jobId}${review.submitted ? '' : ' (submitted earlier)'}`;
  if (review.status === 'completed') lines.push(`${job}: completed.`);
  else if (review.status === 'failed') lines.push(`${job}: failed: ${review.error ?? 'no reason recorded'}`);
  else if (review.status === 'queued' || review.status === 'running')
    lines.push(`${job}: still ${review.status} when the wait ended; it goes on in the background.`);
  else lines.push(`${job}: ${review.status}.`);
  return lines;
}
