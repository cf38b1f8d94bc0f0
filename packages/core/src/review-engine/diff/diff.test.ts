import { describe, expect, it } from 'vitest';
import { gitDiffOf } from '../testing/git-diff.js';
import { indexDiff } from './diff-index.js';
import { changedLineCount, isWhitespaceOnly, parseDiff } from './parse-diff.js';
import { renderFileDiff } from './render-diff.js';

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join('\n');

describe('reading git diff output', () => {
  const diffs = gitDiffOf({
    'src/two-hunks.ts': {
      before: `${lines(40)}\n`,
      after: `${lines(40, (i) => (i === 3 ? 'line 3 changed' : i === 30 ? 'line 30\nline 30b' : `line ${i}`))}\n`,
    },
    'src/no-newline.ts': { before: 'a\nb', after: 'a\nB\nc' },
    'src/crlf.ts': { before: 'one\r\ntwo\r\nthree\r\n', after: 'one\r\nTWO\r\nthree\r\n' },
    'src/gone.ts': { before: 'export const gone = 1;\n' },
    'src/new.ts': { after: 'export const fresh = 2;\n' },
    'src/old-name.ts': {
      before: `${lines(12)}\n`,
      after: `${lines(12, (i) => (i === 6 ? 'six' : `line ${i}`))}\n`,
      renameTo: 'src/new-name.ts',
    },
    'src/delete-only.ts': { before: `${lines(20)}\n`, after: `${lines(20).replace('line 10\nline 11\n', '')}\n` },
    'src/indent.ts': { before: 'if (a) {\n  b();\n}\n', after: 'if (a) {\n    b();\n}\n' },
  });

  it('numbers head and base lines across two hunks', () => {
    const diff = parseDiff(diffs['src/two-hunks.ts'] ?? '');
    expect(diff.oldPath).toBe('src/two-hunks.ts');
    expect(diff.newPath).toBe('src/two-hunks.ts');
    expect(diff.hunks).toHaveLength(2);
    const added = diff.hunks.flatMap((h) => h.lines.filter((l) => l.kind === 'added'));
    expect(added.map((l) => [l.newLine, l.text])).toEqual([
      [3, 'line 3 changed'],
      [31, 'line 30b'],
    ]);
    expect(diff.hunks[0]?.lines.find((l) => l.kind === 'removed')).toMatchObject({ oldLine: 3, text: 'line 3' });
    expect(changedLineCount(diff)).toBe(3);
  });

  it('reads a missing final newline, CRLF, additions, deletions and renames', () => {
    const noNewline = parseDiff(diffs['src/no-newline.ts'] ?? '');
    expect(noNewline.hunks[0]?.lines.filter((l) => l.kind === 'added').map((l) => l.text)).toEqual(['B', 'c']);
    expect(noNewline.hunks[0]?.lines.filter((l) => l.kind === 'removed').map((l) => l.text)).toEqual(['b']);
    const crlf = parseDiff(diffs['src/crlf.ts'] ?? '');
    expect(crlf.crlf).toBe(true);
    expect(crlf.hunks[0]?.lines.find((l) => l.kind === 'added')).toMatchObject({ text: 'TWO', newLine: 2 });
    const added = parseDiff(diffs['src/new.ts'] ?? '');
    expect(added.oldPath).toBeUndefined();
    expect(added.hunks[0]?.lines).toEqual([
      { kind: 'added', text: 'export const fresh = 2;', oldLine: null, newLine: 1 },
    ]);
    const deleted = parseDiff(diffs['src/gone.ts'] ?? '');
    expect(deleted.newPath).toBeUndefined();
    expect(deleted.hunks[0]?.lines[0]).toMatchObject({ kind: 'removed', oldLine: 1 });
    const renamed = parseDiff(diffs['src/new-name.ts'] ?? '');
    expect([renamed.oldPath, renamed.newPath]).toEqual(['src/old-name.ts', 'src/new-name.ts']);
    expect(renamed.hunks[0]?.lines.find((l) => l.kind === 'added')).toMatchObject({ text: 'six', newLine: 6 });
  });

  it('knows a whitespace-only hunk', () => {
    const diff = parseDiff(diffs['src/indent.ts'] ?? '');
    expect(diff.hunks.every(isWhitespaceOnly)).toBe(true);
    expect(parseDiff(diffs['src/two-hunks.ts'] ?? '').hunks.some(isWhitespaceOnly)).toBe(false);
  });

  it('renders numbered head lines, unnumbered removals, and a delete-only hunk as one line', () => {
    const text = renderFileDiff({
      path: 'src/two-hunks.ts',
      changeType: 'modified',
      diff: parseDiff(diffs['src/two-hunks.ts'] ?? ''),
    });
    expect(text).toContain('## File: src/two-hunks.ts  (modified)  lang=typescript');
    expect(text).toMatch(/^ 3 \+ line 3 changed$/m);
    expect(text).toMatch(/^ 2 {3}line 2$/m);
    expect(text).toMatch(/^__old hunk__\n- line 3$/m);
    expect(text).not.toMatch(/^\s*\d+ - /m);
    const deleteOnly = renderFileDiff({
      path: 'src/delete-only.ts',
      changeType: 'modified',
      diff: parseDiff(diffs['src/delete-only.ts'] ?? ''),
    });
    expect(deleteOnly).toContain('(2 lines removed after line 9)');
    expect(deleteOnly).not.toContain('__new hunk__');
    const renamed = renderFileDiff({
      path: 'src/new-name.ts',
      previousPath: 'src/old-name.ts',
      changeType: 'renamed',
      diff: parseDiff(diffs['src/new-name.ts'] ?? ''),
    });
    expect(renamed).toContain('(renamed from src/old-name.ts)');
    const whitespace = renderFileDiff({
      path: 'src/indent.ts',
      changeType: 'modified',
      diff: parseDiff(diffs['src/indent.ts'] ?? ''),
    });
    expect(whitespace).not.toContain('@@');
  });

  it('indexes head lines, removed lines and hunk ranges for anchoring', () => {
    const index = indexDiff('src/two-hunks.ts', parseDiff(diffs['src/two-hunks.ts'] ?? ''));
    expect(index.newLines.get(3)).toMatchObject({ kind: 'added', text: 'line 3 changed', hunk: 0 });
    expect(index.newLines.get(4)).toMatchObject({ kind: 'context', hunk: 0 });
    expect(index.newLines.get(20)).toBeUndefined();
    expect(index.removedLines[0]).toMatchObject({ line: 3, text: 'line 3', newLineAfter: 3 });
    expect(index.hunks.map((h) => h.addedLines)).toEqual([[3], [31]]);
    expect(index.searchOrder[0]?.kind).toBe('added');
  });
});
