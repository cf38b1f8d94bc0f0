import { describe, expect, it } from 'vitest';
import { lineMapFromDiff } from './gitlab-position.js';

describe('classifying new-side lines from GitLab hunks', () => {
  // old: 1..10; new: line 2 replaced, line 3 inserted, old 8 removed.
  const diff = [
    '@@ -1,4 +1,5 @@',
    ' one',
    '-two',
    '+TWO',
    '+two and a half',
    ' three',
    ' four',
    '@@ -6,4 +7,3 @@',
    ' six',
    ' seven',
    '-eight',
    ' nine',
    '\\ No newline at end of file',
    '',
  ].join('\n');
  const classify = lineMapFromDiff(diff);

  it('marks added lines with the old counter GitLab puts in their line code', () => {
    expect(classify(2)).toEqual({ kind: 'added', newLine: 2, oldPos: 3 });
    expect(classify(3)).toEqual({ kind: 'added', newLine: 3, oldPos: 3 });
  });

  it('gives unchanged lines inside hunks their old number', () => {
    expect(classify(1)).toEqual({ kind: 'unchanged', newLine: 1, oldLine: 1 });
    expect(classify(4)).toEqual({ kind: 'unchanged', newLine: 4, oldLine: 3 });
    expect(classify(9)).toEqual({ kind: 'unchanged', newLine: 9, oldLine: 9 });
  });

  it('carries the offset to unchanged lines between and after hunks', () => {
    expect(classify(6)).toEqual({ kind: 'unchanged', newLine: 6, oldLine: 5 });
    expect(classify(12)).toEqual({ kind: 'unchanged', newLine: 12, oldLine: 12 });
  });
});
