import { failingFindings } from './fail-on.js';
import type { ReviewReport } from './report.js';

/**
 * The review in the job-result shapes (`summary`, `findings` with publication and reason,
 * `coverage`, `partial`, `usage`), with what ran and whether `--fail-on` was reached. The protocol
 * is left out: it is for debugging, and large.
 */
export function formatJson(report: ReviewReport): string {
  const { review } = report;
  return `${JSON.stringify(
    {
      target: report.target,
      model: report.model,
      revision: review.revision ?? null,
      summary: review.summary,
      findings: review.findings,
      coverage: review.coverage,
      partial: review.partial,
      usage: review.usage,
      failOn: report.failOn,
      failing: failingFindings(review.findings, report.failOn).length,
      ...(report.published ? { published: report.published } : {}),
    },
    null,
    2,
  )}\n`;
}
