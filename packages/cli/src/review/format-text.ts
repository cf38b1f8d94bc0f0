import type { FindingView } from '@margin/core';
import { failingFindings, reportedFindings } from './fail-on.js';
import type { ReviewReport } from './report.js';

/** For a person at a terminal or reading a CI log: each finding with its place, then one line of totals. */
export function formatText(report: ReviewReport): string {
  const { review } = report;
  const findings = reportedFindings(review.findings);
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`${place(f)}  ${f.severity}  ${f.category}  ${f.title}`);
    lines.push(...wrap(f.message, 96).map((l) => `    ${l}`));
    if (f.publication === 'summaryOnly' && f.reason) lines.push(`    (not posted inline: ${f.reason})`);
    lines.push('');
  }
  const c = review.coverage.counts;
  const bySeverity = ['error', 'warning', 'suggestion', 'info']
    .map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}${n === 1 ? '' : 's'}`);
  const failing = failingFindings(review.findings, report.failOn).length;
  lines.push(
    `${findings.length === 0 ? 'No findings' : `${findings.length} finding${findings.length === 1 ? '' : 's'} (${bySeverity.join(', ')})`} in ${report.target}.`,
    `Files: ${c.reviewed} reviewed, ${c.partial} partial, ${c.skipped} skipped, ${c.reviewFailed} failed.` +
      ` Tokens: ${review.usage.inputTokens} in, ${review.usage.outputTokens} out` +
      (review.usage.estimatedCostUsd > 0 ? `, about US$${review.usage.estimatedCostUsd.toFixed(4)}.` : '.'),
  );
  const stopped = review.coverage.budget?.stopped;
  if (stopped) {
    lines.push(
      `Stopped at the hard spend cap of US$${review.coverage.budget?.hardUsd} (US$${stopped.spentUsd} spent): ${stopped.files} file${stopped.files === 1 ? '' : 's'} not fully reviewed.`,
    );
  }
  if (review.partial) lines.push('Some files were not fully reviewed; see the coverage in --format json.');
  if (report.published) lines.push(`Published: ${report.published.posted} posted, ${report.published.failed} refused.`);
  lines.push(
    report.failOn === 'never'
      ? 'Exit status ignores findings (--fail-on never).'
      : `${failing} finding${failing === 1 ? '' : 's'} at or above ${report.failOn}.`,
  );
  return `${lines.join('\n')}\n`;
}

function place(f: FindingView): string {
  if (f.places) return f.places.map((p) => `${p.path}${p.line ? `:${p.line}` : ''}`).join(', ');
  if (!f.filePath) return '(pull request)';
  return `${f.filePath}${f.startLine ? `:${f.startLine}` : ''}${f.side === 'old' ? ' (removed)' : ''}`;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + word.length + 1 > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}
