import { describe, expect, it } from 'vitest';
import { diffVersions, splitGitDiff, unquote } from './forgejo-diff.js';

describe('splitting git diff output per file', () => {
  const diff = [
    'diff --git a/src/a.ts b/src/a.ts',
    'index 1111111..2222222 100644',
    '--- a/src/a.ts',
    '+++ b/src/a.ts',
    '@@ -1 +1 @@',
    '-a',
    '+b',
    'diff --git a/old name.ts b/new name.ts',
    'similarity index 100%',
    'rename from old name.ts',
    'rename to new name.ts',
    'diff --git "a/caf\\303\\251.md" "b/caf\\303\\251.md"',
    'deleted file mode 100644',
    'index 3333333..0000000',
    '--- "a/caf\\303\\251.md"',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-gone',
    'diff --git a/logo.png b/logo.png',
    'index 4444444..5555555 100644',
    'Binary files a/logo.png and b/logo.png differ',
    'diff --git a/run.sh b/run.sh',
    'old mode 100644',
    'new mode 100755',
    '',
  ].join('\n');
  const sections = splitGitDiff(diff);

  it('keeps the file headers and hunks in the port shape', () => {
    expect(sections.get('src/a.ts')?.text).toBe('--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n');
  });

  it('gives a pure rename its headers and no hunks, keyed by the new path', () => {
    expect(sections.get('new name.ts')).toMatchObject({
      isRename: true,
      oldPath: 'old name.ts',
      text: '--- a/old name.ts\n+++ b/new name.ts\n',
    });
  });

  it('unquotes paths git quoted and keys a deletion by its old path', () => {
    expect(sections.get('café.md')?.text).toBe('--- a/café.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n');
    expect(unquote('"tab\\there"')).toBe('tab\there');
  });

  it('reduces a binary file to the one line git prints, and a mode change to its headers', () => {
    expect(sections.get('logo.png')?.text).toBe('Binary files a/logo.png and b/logo.png differ\n');
    expect(sections.get('run.sh')?.text).toBe('--- a/run.sh\n+++ b/run.sh\n');
  });
});

describe('diffing two file versions here', () => {
  it('writes hunks as git does, with the missing final newline marked', async () => {
    expect(
      await diffVersions({ oldPath: 'a.txt', newPath: 'a.txt', oldText: '1\n2\n3\n', newText: '1\n2\nthree' }),
    ).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n 1\n 2\n-3\n+three\n\\ No newline at end of file\n');
  });

  it('diffs an added file from /dev/null and a binary one as a single line', async () => {
    expect(await diffVersions({ oldPath: undefined, newPath: 'n.txt', oldText: '', newText: 'x\ny\n' })).toBe(
      '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n',
    );
    expect(await diffVersions({ oldPath: 'b.bin', newPath: 'b.bin', oldText: '', newText: '', isBinary: true })).toBe(
      'Binary files a/b.bin and b/b.bin differ\n',
    );
  });
});
