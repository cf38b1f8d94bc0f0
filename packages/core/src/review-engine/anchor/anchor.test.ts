import { describe, expect, it } from 'vitest';
import { indexDiff } from '../diff/diff-index.js';
import { parseDiff } from '../diff/parse-diff.js';
import type { ProposedFinding } from '../output/review-answer.js';
import { gitDiffOf } from '../testing/git-diff.js';
import { type AnchorableFile, anchorFinding, normaliseQuote, PathResolver } from './anchor.js';

const numbered = (n: number, f: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => f(i + 1)).join('\n')}\n`;

// Real commits: a file with two hunks (lines 40–44 and 100), a rename with an edit, a deletion,
// a CRLF file and a file without a final newline.
const before = numbered(120, (i) => `  step(${i});`);
const after = numbered(120, (i) =>
  i === 42 ? '  const total = price * qty;' : i === 100 ? '  return total / count;' : `  step(${i});`,
);
// Markdown paragraphs on one line each, longer than the quote cap; line 7 is rewritten at its end.
const WORDS = ['review', 'anchor', 'quote', 'line', 'margin', 'hunk', 'diff', 'model', 'comment', 'number', 'file'];
const paragraph = (i: number) => Array.from({ length: 40 }, (_, w) => WORDS[(w * (i + 2)) % WORDS.length]).join(' ');
const guideAfter = numbered(12, (i) => (i === 7 ? `${paragraph(i)} (rewritten)` : paragraph(i)));
const diffs = gitDiffOf({
  'src/billing.ts': { before, after },
  'src/old.ts': {
    before: numbered(10, (i) => `line ${i}`),
    after: numbered(10, (i) => (i === 5 ? 'five' : `line ${i}`)),
    renameTo: 'src/new.ts',
  },
  'src/gone.ts': { before: 'export const gone = 1;\n' },
  'src/crlf.ts': { before: 'one\r\ntwo\r\nthree\r\n', after: 'one\r\nTWO = 2\r\nthree\r\n' },
  'src/tail.ts': { before: 'a\nb', after: 'a\nb\nreturn undefined' },
  'docs/guide.md': { before: numbered(12, paragraph), after: guideAfter },
  'scripts/run.sh': {
    before: 'set -e\nread -r name <<< "$1"\ncat > out.txt <<< "$name"\nexit 0\n',
    after: 'set -e\nread -r name <<< "$1"\ncat > out.txt <<< "$name" 2>&1\nexit 0\n',
  },
  'src/sum.ts': { before: 'const total = [\n  base,\n];\n', after: 'const total = [\n  base,\n  10 + offset,\n];\n' },
  'src/rates.ts': {
    before: numbered(8, (i) => (i === 4 ? '  const rate = TAX_TABLE[order.region] ?? DEFAULT_RATE;' : `  step(${i});`)),
    after: numbered(8, (i) => (i === 4 ? '  const rate = TAX_TABLE[order.region] ?? DEFAULT_RATES;' : `  step(${i});`)),
  },
});

function file(path: string, extra: Partial<AnchorableFile> = {}): AnchorableFile {
  const diff = parseDiff(diffs[path] ?? '');
  return { path, deleted: diff.newPath === undefined, index: indexDiff(path, diff), ...extra };
}

const files = new PathResolver([
  file('src/billing.ts'),
  file('src/new.ts', { previousPath: 'src/old.ts' }),
  file('src/gone.ts'),
  file('src/crlf.ts'),
  file('src/tail.ts'),
  file('docs/guide.md'),
  file('scripts/run.sh'),
  file('src/rates.ts'),
  file('src/sum.ts'),
]);

function finding(over: Partial<ProposedFinding>): ProposedFinding {
  return {
    path: 'src/billing.ts',
    quote: '',
    startLine: null,
    endLine: null,
    category: 'bug',
    title: 't',
    evidence: '',
    claim: { kind: 'none', symbol: null, path: null },
    severity: 'warning',
    confidence: 80,
    message: 'm',
    suggestion: null,
    ruleId: null,
    ...over,
  };
}

describe('anchoring findings on git diffs', () => {
  it('trusts the quote over a wrong line number', () => {
    const out = anchorFinding(finding({ quote: 'const total = price * qty;', startLine: 40, endLine: 40 }), files);
    expect(out).toMatchObject({
      kind: 'anchored',
      anchor: { startLine: 42, endLine: 42, method: 'quote', scope: 'onChangedLine', agreed: false },
    });
  });

  it('marks agreement when quote and number match, and strips a copied number and marker', () => {
    expect(normaliseQuote(' 42 +   const total = price * qty;')).toBe('const total = price * qty;');
    const out = anchorFinding(finding({ quote: '42 + const total = price * qty;', startLine: 42, endLine: 42 }), files);
    expect(out).toMatchObject({ kind: 'anchored', anchor: { startLine: 42, agreed: true } });
  });

  it('matches a slightly misquoted line fuzzily', () => {
    const out = anchorFinding(finding({ quote: 'const total = price * qtty;', startLine: 10, endLine: 10 }), files);
    expect(out).toMatchObject({ kind: 'anchored', anchor: { startLine: 42, method: 'fuzzy' } });
  });

  it('uses the number without a quote: a context line is adjacent to the change', () => {
    const out = anchorFinding(finding({ startLine: 40, endLine: 40 }), files);
    expect(out).toMatchObject({
      kind: 'anchored',
      anchor: { startLine: 40, method: 'line', scope: 'adjacentToChange' },
    });
  });

  it('anchors removed code on the old side', () => {
    const out = anchorFinding(finding({ quote: 'step(42);', startLine: 42, endLine: 42 }), files);
    expect(out).toMatchObject({
      kind: 'anchored',
      anchor: { startLine: 42, side: 'old', method: 'oldSide', anchorText: '  step(42);' },
    });
  });

  it('snaps a line just outside a hunk onto the nearest added line, with a note', () => {
    const out = anchorFinding(finding({ startLine: 104, endLine: 104 }), files);
    expect(out).toMatchObject({
      kind: 'anchored',
      anchor: { startLine: 100, method: 'snapped', note: '(about line 104)' },
    });
  });

  it('sends a finding far from any hunk to the summary, never inline', () => {
    const out = anchorFinding(finding({ startLine: 70, endLine: 70 }), files);
    expect(out).toEqual({
      kind: 'prLevel',
      path: 'src/billing.ts',
      scope: 'outsideChange',
      reason: 'outsideDiff',
      startLine: 70,
    });
  });

  it('keeps a range inside one hunk and at most 20 lines', () => {
    const across = anchorFinding(finding({ startLine: 42, endLine: 100 }), files);
    expect(across).toMatchObject({ kind: 'anchored', anchor: { startLine: 42, endLine: 45 } });
    const shifted = anchorFinding(finding({ quote: 'const total = price * qty;', startLine: 30, endLine: 32 }), files);
    expect(shifted).toMatchObject({ kind: 'anchored', anchor: { startLine: 42, endLine: 44 } });
  });

  it('resolves paths written loosely and drops invented ones', () => {
    for (const path of ['./src/billing.ts', 'b/src/billing.ts', '/SRC/Billing.ts', 'billing.ts', 'src\\billing.ts']) {
      expect(anchorFinding(finding({ path, quote: 'const total = price * qty;' }), files)).toMatchObject({
        kind: 'anchored',
        anchor: { path: 'src/billing.ts' },
      });
    }
    expect(anchorFinding(finding({ path: 'src/nope.ts', startLine: 1 }), files)).toEqual({
      kind: 'dropped',
      reason: 'unknownPath',
    });
  });

  it('anchors renamed, CRLF and no-final-newline files, and keeps deleted files at PR level', () => {
    expect(anchorFinding(finding({ path: 'src/old.ts', quote: 'five' }), files)).toMatchObject({
      anchor: { path: 'src/new.ts', previousPath: 'src/old.ts', startLine: 5 },
    });
    expect(anchorFinding(finding({ path: 'src/crlf.ts', quote: 'TWO = 2' }), files)).toMatchObject({
      anchor: { startLine: 2 },
    });
    expect(anchorFinding(finding({ path: 'src/tail.ts', quote: 'return undefined' }), files)).toMatchObject({
      anchor: { startLine: 3 },
    });
    expect(anchorFinding(finding({ path: 'src/gone.ts', startLine: 1 }), files)).toMatchObject({
      kind: 'prLevel',
      reason: 'deletedFile',
    });
  });

  it('anchors a quote cut at the cap on the long line it begins, nearest the given number', () => {
    const line7 = guideAfter.split('\n')[6] as string;
    const out = anchorFinding(finding({ path: 'docs/guide.md', quote: line7.slice(0, 200), startLine: 9 }), files);
    expect(out).toMatchObject({ kind: 'anchored', anchor: { startLine: 7, side: 'new', method: 'quote' } });
    const line5 = guideAfter.split('\n')[4] as string;
    const context = anchorFinding(finding({ path: 'docs/guide.md', quote: line5.slice(0, 150), startLine: 2 }), files);
    expect(context).toMatchObject({
      kind: 'anchored',
      anchor: { startLine: 5, side: 'new', scope: 'adjacentToChange' },
    });
  });

  it('matches a long line fuzzily by its beginning', () => {
    const line7 = guideAfter.split('\n')[6] as string;
    const misquoted = `${line7.slice(0, 60)}X${line7.slice(61, 200)}`;
    const out = anchorFinding(finding({ path: 'docs/guide.md', quote: misquoted, startLine: 7 }), files);
    expect(out).toMatchObject({ kind: 'anchored', anchor: { side: 'new', method: 'fuzzy' } });
  });

  it('matches a line quoted as the fence showed it (escaped here-strings), and the raw form too', () => {
    for (const quote of ['cat > out.txt ‹‹‹ "$name" 2>&1', 'cat > out.txt <<< "$name" 2>&1']) {
      expect(anchorFinding(finding({ path: 'scripts/run.sh', quote, startLine: 1 }), files)).toMatchObject({
        kind: 'anchored',
        anchor: { startLine: 3, side: 'new', method: 'quote' },
      });
    }
  });

  it('anchors a removed line quoted with its old number on the old side, not on its edited replacement', () => {
    const quote = 'const rate = TAX_TABLE[order.region] ?? DEFAULT_RATE;';
    const out = anchorFinding(finding({ path: 'src/rates.ts', quote, startLine: 4 }), files);
    expect(out).toMatchObject({
      kind: 'anchored',
      anchor: { startLine: 4, side: 'old', method: 'oldSide', anchorText: `  ${quote}`, agreed: true },
    });
    // Only a quote that matches no line exactly falls back on similarity, on the head side.
    const typo = anchorFinding(
      finding({ path: 'src/rates.ts', quote: `${quote.slice(0, -2)}Z;`, startLine: 4 }),
      files,
    );
    expect(typo).toMatchObject({ kind: 'anchored', anchor: { side: 'new', method: 'fuzzy', startLine: 4 } });
  });

  it('anchors a quote of part of a line on the line that contains it, nearest the given number', () => {
    const out = anchorFinding(finding({ quote: 'total / count', startLine: 97 }), files);
    expect(out).toMatchObject({ kind: 'anchored', anchor: { startLine: 100, side: 'new', method: 'quote' } });
    const removed = anchorFinding(finding({ path: 'src/rates.ts', quote: '?? DEFAULT_RATE;', startLine: 4 }), files);
    expect(removed).toMatchObject({ kind: 'anchored', anchor: { startLine: 4, side: 'old' } });
  });

  it('sends a quote no shown line has to the summary, whatever line its number names', () => {
    const out = anchorFinding(finding({ quote: 'step(70);', startLine: 42, endLine: 42 }), files);
    expect(out).toMatchObject({ kind: 'prLevel', reason: 'quoteNotFound', startLine: 42 });
  });

  it('finds a line that itself begins with a number and a plus, which the stripping of a copied marker removes', () => {
    const out = anchorFinding(finding({ path: 'src/sum.ts', quote: '10 + offset,', startLine: 3 }), files);
    expect(out).toMatchObject({ kind: 'anchored', anchor: { startLine: 3, method: 'quote' } });
  });

  it('takes the first line of a quote of several lines, with tabs and CR as whitespace', () => {
    expect(normaliseQuote('\n\tconst total =\tprice * qty;\r\n  return total;')).toBe('const total = price * qty;');
  });
});
