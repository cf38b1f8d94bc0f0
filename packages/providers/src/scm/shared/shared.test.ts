import { describe, expect, it } from 'vitest';
import { branchName, computeUnifiedDiff, decodeFile, headsRef, withFileHeaders } from './index.js';

describe('computeUnifiedDiff', () => {
  it('gives git-style headers and a hunk with three lines of context', async () => {
    const diff = await computeUnifiedDiff({
      oldPath: 'src/a.ts',
      newPath: 'src/a.ts',
      oldText: 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n',
      newText: 'one\ntwo\nthree\nFOUR\nfive\nsix\nseven\n',
    });
    expect(diff).toBe(
      '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,7 +1,7 @@\n one\n two\n three\n-four\n+FOUR\n five\n six\n seven\n',
    );
  });

  it('uses /dev/null for added and deleted files', async () => {
    const added = await computeUnifiedDiff({ oldPath: undefined, newPath: 'n.md', oldText: '', newText: 'hi\n' });
    expect(added).toBe('--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,1 @@\n+hi\n');
    const deleted = await computeUnifiedDiff({ oldPath: 'o.md', newPath: undefined, oldText: 'bye\n', newText: '' });
    expect(deleted).toBe('--- a/o.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n');
  });

  it('names renames on both sides and gives no hunk when the content is the same', async () => {
    expect(await computeUnifiedDiff({ oldPath: 'a', newPath: 'b', oldText: 'x\n', newText: 'x\n' })).toBe(
      '--- a/a\n+++ b/b\n',
    );
  });

  it('says binary files differ instead of diffing bytes', async () => {
    expect(
      await computeUnifiedDiff({ oldPath: 'i.png', newPath: 'i.png', oldText: '', newText: '', isBinary: true }),
    ).toBe('Binary files a/i.png and b/i.png differ\n');
  });

  it('falls back to one whole-file hunk when the edit is too large for a minimal diff', async () => {
    const oldText = Array.from({ length: 300 }, (_, i) => `old ${i}`).join('\n');
    const newText = Array.from({ length: 300 }, (_, i) => `new ${i}`).join('\n');
    const diff = await computeUnifiedDiff({ oldPath: 'big', newPath: 'big', oldText, newText, maxEditLength: 50 });
    expect(diff.split('\n')[2]).toBe('@@ -1,300 +1,300 @@');
    expect(diff).toContain('-old 299\n\\ No newline at end of file\n+new 0\n');
  });

  it('prefixes hunks-only patches with the same headers', () => {
    expect(withFileHeaders('@@ -1 +1 @@\n-a\n+b', 'x', 'x')).toBe('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n');
  });
});

describe('normalisers', () => {
  it('strips and adds refs/heads/', () => {
    expect(branchName('refs/heads/feature/x')).toBe('feature/x');
    expect(branchName('main')).toBe('main');
    expect(headsRef('main')).toBe('refs/heads/main');
    expect(headsRef('refs/heads/main')).toBe('refs/heads/main');
  });

  it('decodes text and recognises binaries by a NUL byte', () => {
    expect(decodeFile(new TextEncoder().encode('\uFEFFhé\n'))).toEqual({ text: 'hé\n', sizeBytes: 7, isBinary: false });
    expect(decodeFile(new Uint8Array([0x89, 0x50, 0, 1]))).toEqual({ text: '', sizeBytes: 4, isBinary: true });
  });
});
