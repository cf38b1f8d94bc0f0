import type { FindingView, Severity } from '@margin/core';

export const FAIL_ON = ['error', 'warning', 'suggestion', 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];

const RANK: Record<Severity, number> = { error: 3, warning: 2, suggestion: 1, info: 0 };

/**
 * What the review reports: findings posted or kept for the summary. Suppressed (a repeat, a
 * dismissal) and dropped (refuted, invented) findings are not the change's problems.
 */
export const isReported = (f: FindingView) => f.publication === 'published' || f.publication === 'summaryOnly';

/** Reported findings at or above the `--fail-on` severity; `never` fails on none. */
export function failingFindings(findings: readonly FindingView[], failOn: FailOn): FindingView[] {
  if (failOn === 'never') return [];
  return findings.filter((f) => isReported(f) && RANK[f.severity] >= RANK[failOn]);
}

/** Reported findings, most severe first, then by file and line. */
export function reportedFindings(findings: readonly FindingView[]): FindingView[] {
  return findings
    .filter(isReported)
    .sort(
      (a, b) =>
        RANK[b.severity] - RANK[a.severity] ||
        (a.filePath ?? '').localeCompare(b.filePath ?? '') ||
        (a.startLine ?? 0) - (b.startLine ?? 0),
    );
}
