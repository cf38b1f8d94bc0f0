import { describe, expect, it } from 'vitest';
import { diffFromVersions } from './file-versions-diff.js';

const files: Record<string, string> = {
  'old@base': 'a\nb\n',
  'new@head': 'a\nB\n',
  'added@head': 'x\n',
  'added@push1': 'w\n',
};
const read = async (path: string, sha: string) => {
  const text = files[`${path}@${sha}`];
  return text === undefined ? undefined : new TextEncoder().encode(text);
};

describe('diffFromVersions', () => {
  it('diffs a renamed file from its old path to its new one', async () => {
    const diff = await diffFromVersions(
      { path: 'new', previousPath: 'old', changeType: 'renamed' },
      'base',
      'head',
      read,
    );
    expect(diff).toBe('--- a/old\n+++ b/new\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n');
  });

  it('reads the old side of an "added" file too: between two pushes it may already exist', async () => {
    const fromMergeBase = await diffFromVersions({ path: 'added', changeType: 'added' }, 'base', 'head', read);
    expect(fromMergeBase).toBe('--- /dev/null\n+++ b/added\n@@ -0,0 +1,1 @@\n+x\n');
    const interdiff = await diffFromVersions({ path: 'added', changeType: 'added' }, 'push1', 'head', read);
    expect(interdiff).toBe('--- a/added\n+++ b/added\n@@ -1,1 +1,1 @@\n-w\n+x\n');
  });

  it('downloads nothing for a file listed as binary', async () => {
    const never = async () => {
      throw new Error('no download');
    };
    const diff = await diffFromVersions({ path: 'logo.png', changeType: 'modified', isBinary: true }, 'b', 'h', never);
    expect(diff).toBe('Binary files a/logo.png and b/logo.png differ\n');
  });
});
