import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileDiffFromGit } from './bitbucket-diff.js';

// `git diff` output as Bitbucket's /diff sends it, one section per file, extended headers included.
const recorded = readFileSync(new URL('./__fixtures__/diff-git.txt', import.meta.url), 'utf8');

describe('one file of Bitbucket’s git diff, as the port’s FileDiff text', () => {
  it('gives a pure rename its ---/+++ headers, which git leaves out', () => {
    const text = fileDiffFromGit(recorded, {
      path: 'src/moved.ts',
      previousPath: 'src/unmoved.ts',
      changeType: 'renamed',
    });
    expect(text).toBe('--- a/src/unmoved.ts\n+++ b/src/moved.ts\n');
  });

  it('keeps a rename with edits from its ---/+++ lines on, without git’s extended headers', () => {
    const text = fileDiffFromGit(recorded, {
      path: 'src/totals.ts',
      previousPath: 'src/sum.ts',
      changeType: 'renamed',
    });
    expect(text).toBe(
      '--- a/src/sum.ts\n+++ b/src/totals.ts\n@@ -1,2 +1,2 @@\n export const sum = 1;\n-export const count = 2;\n+export const count = 3;\n',
    );
  });

  it('gives a binary the single Binary files line', () => {
    expect(fileDiffFromGit(recorded, { path: 'assets/logo.png', changeType: 'modified' })).toBe(
      'Binary files a/assets/logo.png and b/assets/logo.png differ\n',
    );
  });

  it('uses /dev/null for added and deleted files', () => {
    expect(fileDiffFromGit(recorded, { path: 'src/legacy.ts', changeType: 'deleted' })).toBe(
      '--- a/src/legacy.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-export const old = 1;\n',
    );
    expect(fileDiffFromGit(recorded, { path: 'src/tax.ts', changeType: 'added' })).toMatch(
      /^--- \/dev\/null\n\+\+\+ b\/src\/tax\.ts\n@@ -0,0 \+1,2 @@\n/,
    );
  });

  it('reads quoted paths and keeps “no newline” markers', () => {
    const text = fileDiffFromGit(recorded, { path: 'docs/a "b".md', changeType: 'modified' });
    expect(text).toContain('\\ No newline at end of file\n+y\n\\ No newline at end of file\n');
  });

  it('decodes git’s octal escapes of non-ASCII paths', () => {
    const diff =
      'diff --git "a/caf\\303\\251.md" "b/caf\\303\\251.md"\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ "b/caf\\303\\251.md"\n@@ -0,0 +1 @@\n+x\n';
    expect(fileDiffFromGit(diff, { path: 'café.md', changeType: 'added' })).toBe(
      '--- /dev/null\n+++ b/café.md\n@@ -0,0 +1 @@\n+x\n',
    );
  });

  it('answers headers alone when Bitbucket sends nothing for the file', () => {
    expect(fileDiffFromGit('', { path: 'src/a.ts', changeType: 'modified' })).toBe('--- a/src/a.ts\n+++ b/src/a.ts\n');
  });
});
