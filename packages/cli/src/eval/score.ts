import type { FindingView } from '@margin/core';
import type { EvalCaseSpec } from './eval-case.js';

type Expected = EvalCaseSpec['expected'][number];

/**
 * Categories that describe one defect from different angles: an unchecked error that crashes is a
 * `bug` to one reviewer and `error-handling` to another. Any other pair is a different finding.
 */
const COMPATIBLE: Record<string, readonly string[]> = {
  bug: ['bug', 'error-handling', 'api-contract', 'concurrency'],
  'error-handling': ['error-handling', 'bug'],
  'api-contract': ['api-contract', 'bug'],
  concurrency: ['concurrency', 'bug'],
  security: ['security'],
  performance: ['performance'],
  maintainability: ['maintainability'],
  tests: ['tests'],
  docs: ['docs'],
};

export const compatibleCategories = (expected: string, found: string) =>
  (COMPATIBLE[expected] ?? [expected]).includes(found);

/** Same file, overlapping lines, compatible category: the deterministic part of a match. */
export function couldMatch(expected: Expected, finding: FindingView): boolean {
  if (finding.filePath !== expected.file || finding.startLine === null || finding.side === 'old') return false;
  const start = finding.startLine;
  const end = finding.endLine ?? start;
  return (
    start <= expected.lines[1] && end >= expected.lines[0] && compatibleCategories(expected.category, finding.category)
  );
}

export interface CaseMatch {
  /** Index of the candidate each expected finding was matched with, or -1. */
  matches: number[];
}

/**
 * Pairs expected findings with candidates, each candidate used at most once, in the order the
 * expected findings are listed; `confirm` (the optional judge) may refuse a deterministic pair.
 */
export async function matchCase(
  expected: readonly Expected[],
  candidates: readonly FindingView[],
  confirm?: (expected: Expected, finding: FindingView) => Promise<boolean>,
): Promise<CaseMatch> {
  const used = new Set<number>();
  const matches: number[] = [];
  for (const e of expected) {
    let found = -1;
    for (const [i, f] of candidates.entries()) {
      if (used.has(i) || !couldMatch(e, f)) continue;
      if (confirm && !(await confirm(e, f))) continue;
      found = i;
      break;
    }
    if (found >= 0) used.add(found);
    matches.push(found);
  }
  return { matches };
}

export const ratio = (n: number, d: number) => (d === 0 ? null : n / d);

/** F-beta with beta 0.5: precision weighs four times as much as recall (noise costs trust). */
export function fHalf(precision: number | null, recall: number | null): number | null {
  if (precision === null || recall === null) return null;
  if (precision === 0 && recall === 0) return 0;
  return (1.25 * precision * recall) / (0.25 * precision + recall);
}
