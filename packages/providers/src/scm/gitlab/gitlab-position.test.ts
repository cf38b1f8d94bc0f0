import { createHash } from 'node:crypto';
import type { Revision } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { lineMapFromDiff, readDiffLines, textPosition } from './gitlab-position.js';

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

describe('classifying lines from GitLab hunks', () => {
  const place = lineMapFromDiff(diff);

  it('keeps both of GitLab’s counters on every diff line', () => {
    expect(readDiffLines(`--- a/x\n+++ b/x\n${diff}`).slice(0, 3)).toEqual([
      { type: 'context', oldPos: 1, newPos: 1 },
      { type: 'removed', oldPos: 2, newPos: 2 },
      { type: 'added', oldPos: 3, newPos: 2 },
    ]);
  });

  it('marks added lines with the old counter GitLab puts in their line code', () => {
    expect(place(2, 'new')).toEqual({ kind: 'added', newLine: 2, oldPos: 3 });
    expect(place(3, 'new')).toEqual({ kind: 'added', newLine: 3, oldPos: 3 });
  });

  it('marks removed lines on the old side with the new counter where they were taken out', () => {
    expect(place(2, 'old')).toEqual({ kind: 'removed', oldLine: 2, newPos: 2 });
    expect(place(8, 'old')).toEqual({ kind: 'removed', oldLine: 8, newPos: 9 });
  });

  it('gives unchanged lines inside hunks both numbers, from either side', () => {
    expect(place(1, 'new')).toEqual({ kind: 'unchanged', newLine: 1, oldLine: 1 });
    expect(place(4, 'new')).toEqual({ kind: 'unchanged', newLine: 4, oldLine: 3 });
    expect(place(9, 'new')).toEqual({ kind: 'unchanged', newLine: 9, oldLine: 9 });
    expect(place(3, 'old')).toEqual({ kind: 'unchanged', newLine: 4, oldLine: 3 });
  });

  it('carries the offset to unchanged lines between and after hunks', () => {
    expect(place(6, 'new')).toEqual({ kind: 'unchanged', newLine: 6, oldLine: 5 });
    expect(place(12, 'new')).toEqual({ kind: 'unchanged', newLine: 12, oldLine: 12 });
    expect(place(5, 'old')).toEqual({ kind: 'unchanged', newLine: 6, oldLine: 5 });
  });
});

describe('GitLab text positions', () => {
  const revision: Revision = {
    revisionId: '8',
    headSha: 'h'.repeat(40),
    baseSha: 's'.repeat(40),
    mergeBaseSha: 'b'.repeat(40),
  };
  const place = lineMapFromDiff(diff);
  const sha1 = createHash('sha1').update('src/a.ts').digest('hex');
  const shas = { position_type: 'text', base_sha: 'b'.repeat(40), start_sha: 's'.repeat(40), head_sha: 'h'.repeat(40) };

  it('addresses a removed line by old_line alone, with the renamed file’s old path', () => {
    const anchor = { filePath: 'src/a.ts', previousPath: 'src/old.ts', startLine: 8, endLine: 8, side: 'old' as const };
    expect(textPosition(anchor, revision, 'src/old.ts', place)).toEqual({
      ...shas,
      old_path: 'src/old.ts',
      new_path: 'src/a.ts',
      old_line: 8,
    });
  });

  it('spans an old-side range from a removed line to an unchanged one with line codes of both counters', () => {
    const anchor = { filePath: 'src/a.ts', startLine: 2, endLine: 3, side: 'old' as const };
    expect(textPosition(anchor, revision, 'src/a.ts', place)).toEqual({
      ...shas,
      old_path: 'src/a.ts',
      new_path: 'src/a.ts',
      old_line: 3,
      new_line: 4,
      line_range: {
        start: { line_code: `${sha1}_2_2`, type: 'old', old_line: 2 },
        end: { line_code: `${sha1}_3_4`, type: 'old', old_line: 3, new_line: 4 },
      },
    });
  });
});
