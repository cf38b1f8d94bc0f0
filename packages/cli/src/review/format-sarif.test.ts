import type { FindingView, StandaloneReview } from '@margin/core';
import { describe, expect, it } from 'vitest';
import { sarifProblems } from '../testing/sarif-schema.js';
import { formatSarif } from './format-sarif.js';
import type { ReviewReport } from './report.js';

let n = 0;
function finding(overrides: Partial<FindingView>): FindingView {
  n++;
  return {
    id: `f${n}`,
    fingerprint: `${n}`.padStart(16, 'a'),
    filePath: 'src/billing.ts',
    startLine: 12,
    endLine: 12,
    severity: 'warning',
    confidence: 90,
    category: 'bug',
    title: `Finding ${n}`,
    message: 'What is wrong, and why.',
    publication: 'published',
    source: 'model',
    anchorMethod: 'quote',
    scope: 'line',
    ...overrides,
  } as FindingView;
}

function sarifOf(findings: FindingView[]) {
  const review = { findings, partial: false } as Partial<StandaloneReview> as StandaloneReview;
  const report: ReviewReport = { review, failOn: 'error', model: 'kindCompatible/m', target: 'main...feature' };
  const log = JSON.parse(formatSarif(report));
  expect(sarifProblems(log)).toEqual([]);
  return log;
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  locations: Array<{ physicalLocation: { artifactLocation: unknown; region?: unknown } }>;
}

/** The results by the finding's title (the message starts with it). */
const byTitle = (log: { runs: Array<{ results: Array<SarifResult & { message: { text: string } }> }> }) =>
  Object.fromEntries(log.runs[0]?.results.map((r) => [r.message.text.split(':')[0], r]) ?? []) as Record<
    string,
    SarifResult
  >;
const regions = (result: SarifResult) => result.locations.map((l) => l.physicalLocation.region ?? null);

describe('SARIF from a review', () => {
  it('takes level from severity: error, warning, and note for suggestions and info', () => {
    const log = sarifOf([
      finding({ severity: 'suggestion', title: 'S' }),
      finding({ severity: 'error', title: 'E' }),
      finding({ severity: 'info', title: 'I' }),
      finding({ severity: 'warning', title: 'W' }),
    ]);
    // Most severe first, as every format lists them.
    expect(
      log.runs[0].results.map((r: { level: string; message: { text: string } }) => [r.message.text[0], r.level]),
    ).toEqual([
      ['E', 'error'],
      ['W', 'warning'],
      ['S', 'note'],
      ['I', 'note'],
    ]);
  });

  it('names the rule after the category, one rule per category, and points ruleIndex at it', () => {
    const categories = ['security', 'error-handling', 'docs', 'performance'] as const;
    const log = sarifOf(categories.map((category) => finding({ category, title: category })));
    const rules = log.runs[0].tool.driver.rules as Array<{ id: string }>;
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    const results = byTitle(log);
    for (const category of categories) {
      const result = results[category];
      expect(result?.ruleId).toBe(`margin/${category}`);
      expect(rules[result?.ruleIndex ?? -1]?.id).toBe(`margin/${category}`);
    }
  });

  it('gives a range its endLine, a single line none, and findings on removed lines or the whole change no region', () => {
    const results = byTitle(
      sarifOf([
        finding({ title: 'range', filePath: 'src/a.ts', startLine: 20, endLine: 24 }),
        finding({ title: 'line', filePath: 'src/b.ts', startLine: 7, endLine: 7 }),
        // Old-side line 3 does not exist in the new file that SARIF regions refer to: the file only.
        finding({ title: 'removed', filePath: 'src/legacy.ts', startLine: 3, endLine: 5, side: 'old' }),
        finding({ title: 'change', filePath: null, startLine: null, endLine: null }),
        finding({
          title: 'places',
          filePath: 'src/c.ts',
          startLine: 4,
          endLine: 9,
          places: [
            { path: 'src/c.ts', line: 4 },
            { path: 'src/d.ts', line: null },
          ],
        }),
      ]),
    );
    expect(Object.fromEntries(Object.entries(results).map(([title, r]) => [title, regions(r)]))).toEqual({
      range: [{ startLine: 20, endLine: 24 }],
      line: [{ startLine: 7 }],
      removed: [null],
      change: [],
      places: [{ startLine: 4 }, null],
    });
    expect(results.removed?.locations[0]?.physicalLocation.artifactLocation).toEqual({
      uri: 'src/legacy.ts',
      uriBaseId: '%SRCROOT%',
    });
  });

  it('reports only posted and summary-only findings, each with the finding fingerprint', () => {
    const log = sarifOf([
      finding({ title: 'posted', fingerprint: '0123456789abcdef' }),
      finding({ title: 'summary', publication: 'summaryOnly', reason: 'lowConfidence' }),
      finding({ title: 'repeat', publication: 'suppressed', reason: 'alreadyReported' }),
      finding({ title: 'invented', publication: 'dropped', reason: 'refuted' }),
    ]);
    const results = log.runs[0].results as Array<{ message: { text: string }; partialFingerprints: object }>;
    expect(results.map((r) => r.message.text.split(':')[0])).toEqual(['posted', 'summary']);
    expect(results[0]?.partialFingerprints).toEqual({ 'marginFindingFingerprint/v1': '0123456789abcdef' });
  });
});
