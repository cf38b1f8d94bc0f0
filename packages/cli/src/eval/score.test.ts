import type { FindingView } from '@margin/core';
import { describe, expect, it } from 'vitest';
import type { EvalCaseSpec } from './eval-case.js';
import { type CaseResult, totalsOf } from './eval-run.js';
import { compatibleCategories, couldMatch, fHalf, matchCase, ratio } from './score.js';

type Expected = EvalCaseSpec['expected'][number];

const expected = (over: Partial<Expected> = {}): Expected => ({
  file: 'src/cart.ts',
  lines: [14, 15],
  category: 'bug',
  description: 'An empty cart averages to NaN.',
  ...over,
});

const found = (over: Partial<FindingView> = {}): FindingView =>
  ({
    id: 'f',
    fingerprint: '0123456789abcdef',
    filePath: 'src/cart.ts',
    startLine: 15,
    endLine: 15,
    severity: 'error',
    confidence: 90,
    category: 'bug',
    title: 'NaN average',
    message: 'Zero units.',
    publication: 'published',
    source: 'model',
    ...over,
  }) as FindingView;

describe('the deterministic matcher', () => {
  it('matches the same file, an overlapping line window and a compatible category', () => {
    expect(couldMatch(expected(), found())).toBe(true);
    expect(couldMatch(expected(), found({ startLine: 10, endLine: 14 }))).toBe(true); // touches the first line
    expect(couldMatch(expected(), found({ startLine: 15, endLine: 30 }))).toBe(true); // touches the last line
    expect(couldMatch(expected(), found({ startLine: 1, endLine: 40 }))).toBe(true); // spans the window
    expect(couldMatch(expected(), found({ startLine: 14, endLine: null }))).toBe(true); // one line
    expect(couldMatch(expected(), found({ category: 'error-handling' }))).toBe(true);
  });

  it('refuses another file, a window beside the expected one, an old-side or unanchored finding, an unrelated category', () => {
    expect(couldMatch(expected(), found({ filePath: 'src/summary.ts' }))).toBe(false);
    expect(couldMatch(expected(), found({ startLine: 10, endLine: 13 }))).toBe(false);
    expect(couldMatch(expected(), found({ startLine: 16, endLine: 16 }))).toBe(false);
    expect(couldMatch(expected(), found({ startLine: 16, endLine: null }))).toBe(false);
    expect(couldMatch(expected(), found({ side: 'old' }))).toBe(false);
    expect(couldMatch(expected(), found({ startLine: null, endLine: null }))).toBe(false);
    expect(couldMatch(expected(), found({ category: 'security' }))).toBe(false);
    expect(couldMatch(expected(), found({ category: 'maintainability' }))).toBe(false);
  });

  it('counts categories as compatible only as listed: a bug may be found as error handling, not as a security issue', () => {
    expect(compatibleCategories('bug', 'concurrency')).toBe(true);
    expect(compatibleCategories('concurrency', 'bug')).toBe(true);
    expect(compatibleCategories('error-handling', 'concurrency')).toBe(false);
    expect(compatibleCategories('security', 'bug')).toBe(false);
    expect(compatibleCategories('docs', 'docs')).toBe(true);
  });

  it('uses each finding for one expected finding at most, in the order expected findings are listed', async () => {
    const two = [expected({ description: 'first' }), expected({ description: 'second' })];
    expect(await matchCase(two, [found()])).toEqual({ matches: [0, -1] });
    expect(await matchCase(two, [found(), found({ startLine: 14 })])).toEqual({ matches: [0, 1] });
    expect(await matchCase(two, [found({ filePath: 'x.ts' }), found()])).toEqual({ matches: [1, -1] });
    expect(await matchCase([], [found()])).toEqual({ matches: [] });
  });

  it('lets the judge refuse a deterministic pair, and then tries the next candidate', async () => {
    const judged: string[] = [];
    const confirm = async (_e: Expected, f: FindingView) => {
      judged.push(f.title);
      return f.title !== 'wrong description';
    };
    const match = await matchCase(
      [expected()],
      [found({ title: 'wrong description' }), found({ title: 'right' })],
      confirm,
    );
    expect(match).toEqual({ matches: [1] });
    expect(judged).toEqual(['wrong description', 'right']);
    // The judge is only asked about pairs the deterministic matcher allows.
    expect(await matchCase([expected()], [found({ filePath: 'x.ts' })], confirm)).toEqual({ matches: [-1] });
    expect(judged).toHaveLength(2);
  });
});

describe('precision, recall and F0.5', () => {
  it('answers null for an empty denominator, else the ratio', () => {
    expect(ratio(0, 0)).toBeNull();
    expect(ratio(0, 4)).toBe(0);
    expect(ratio(3, 4)).toBe(0.75);
  });

  it('weighs precision four times as much as recall', () => {
    expect(fHalf(1, 1)).toBe(1);
    expect(fHalf(0, 0)).toBe(0);
    expect(fHalf(1, 0)).toBe(0);
    expect(fHalf(null, 1)).toBeNull();
    expect(fHalf(1, null)).toBeNull();
    // (1 + 0.25) · P · R / (0.25 · P + R)
    expect(fHalf(1, 0.5)).toBeCloseTo((1.25 * 0.5) / 0.75, 12); // 0.8333
    expect(fHalf(0.5, 1)).toBeCloseTo((1.25 * 0.5) / 1.125, 12); // 0.5556: the same numbers the other way round score lower
  });
});

function caseResult(over: Partial<CaseResult>): CaseResult {
  return {
    id: 'c',
    language: 'typescript',
    kind: 'defect',
    expected: 0,
    candidates: 0,
    found: 0,
    falseFindings: 0,
    summaryOnly: 0,
    missed: [],
    anchor: { anchored: 0, agreed: 0 },
    parsing: {},
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    findings: [],
    ...over,
  };
}

describe('the totals of a run', () => {
  it('scores precision over every posted finding, recall over every expected one, and false findings on clean cases apart', () => {
    const totals = totalsOf([
      caseResult({
        id: 'a',
        expected: 2,
        candidates: 3,
        found: 2,
        falseFindings: 1,
        tokens: { input: 900, output: 100 },
      }),
      caseResult({ id: 'b', expected: 1, candidates: 0, found: 0, costUsd: 0.002 }),
      caseResult({ id: 'c', kind: 'clean', candidates: 2, falseFindings: 2, costUsd: 0.0010004 }),
      caseResult({ id: 'd', kind: 'clean', error: 'The model could not be reached.' }),
    ]);
    expect(totals).toMatchObject({
      cases: 4,
      failedCases: 1,
      expected: 3,
      candidates: 5,
      found: 2,
      precision: 2 / 5,
      recall: 2 / 3,
      cleanCases: 2,
      falseFindingsOnClean: 2,
      cleanCasesWithFindings: 1,
      anchorAgreement: null,
      tokensPerCase: 250,
      costUsd: 0.003,
      costPerCaseUsd: 0.00075,
    });
    expect(totals.f05).toBeCloseTo((1.25 * 0.4 * (2 / 3)) / (0.25 * 0.4 + 2 / 3), 12);
  });

  it('adds anchor agreement and parse outcomes per rung over the cases', () => {
    const totals = totalsOf([
      caseResult({
        anchor: { anchored: 3, agreed: 2 },
        parsing: { nativeSchema: { ok: 2, repaired: 0, failed: 0 }, text: { ok: 0, repaired: 1, failed: 0 } },
      }),
      caseResult({
        anchor: { anchored: 1, agreed: 1 },
        parsing: { forcedTool: { ok: 1, repaired: 0, failed: 1 }, text: { ok: 1, repaired: 0, failed: 1 } },
      }),
    ]);
    expect(totals.anchorAgreement).toBe(3 / 4);
    expect(totals.parsing).toEqual({
      nativeSchema: { ok: 2, repaired: 0, failed: 0 },
      forcedTool: { ok: 1, repaired: 0, failed: 1 },
      text: { ok: 1, repaired: 1, failed: 1 },
    });
  });

  it('scores silence: no finding posted is F0.5 0 when something was expected, and no score at all on clean cases only', () => {
    const missedAll = totalsOf([caseResult({ expected: 2 })]);
    expect([missedAll.precision, missedAll.recall, missedAll.f05]).toEqual([null, 0, 0]);
    const cleanOnly = totalsOf([caseResult({ kind: 'clean' }), caseResult({ kind: 'clean' })]);
    expect(cleanOnly).toMatchObject({
      precision: null,
      recall: null,
      f05: null,
      falseFindingsOnClean: 0,
      cleanCasesWithFindings: 0,
    });
  });
});
