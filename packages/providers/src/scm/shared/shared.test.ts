import { describe, expect, it } from 'vitest';
import {
  BoundedCache,
  branchName,
  computeUnifiedDiff,
  constantTimeEqual,
  createExpiringToken,
  decodeFile,
  encodePathSegments,
  headsRef,
  hmacSha256Hex,
  paginate,
  parseLinkHeader,
  verifySha256Signature,
  withFileHeaders,
} from './index.js';

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

describe('paging', () => {
  it('parses every relation of a Link header', () => {
    const links = parseLinkHeader(
      '<https://api.github.com/repositories/1/pulls?page=2>; rel="next", <https://api.github.com/repositories/1/pulls?page=5>; rel="last"',
    );
    expect(links).toEqual({
      next: 'https://api.github.com/repositories/1/pulls?page=2',
      last: 'https://api.github.com/repositories/1/pulls?page=5',
    });
    expect(parseLinkHeader(null)).toEqual({});
  });

  it('asks for one page at a time and stops on a repeated cursor', async () => {
    const asked: Array<number | undefined> = [];
    const pages = paginate<number, number>(undefined, async (cursor) => {
      asked.push(cursor);
      const start = cursor ?? 0;
      return { items: [start, start + 1], next: start >= 4 ? start : start + 2 };
    });
    const seen: number[] = [];
    for await (const item of pages) {
      seen.push(item);
      if (seen.length === 2) expect(asked).toEqual([undefined]);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
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

  it('encodes path segments but keeps the slashes', () => {
    expect(encodePathSegments('/src/my file#1.ts')).toBe('src/my%20file%231.ts');
  });
});

describe('secrets', () => {
  it('compares in constant time, including different lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });

  it('verifies sha256= signatures over the raw bytes only', () => {
    const body = new TextEncoder().encode('{"a":1}');
    const header = `sha256=${hmacSha256Hex('s3cret', body)}`;
    expect(verifySha256Signature(header, body, 's3cret')).toBe(true);
    expect(verifySha256Signature(header, body, 'other')).toBe(false);
    expect(verifySha256Signature(header, new TextEncoder().encode('{"a":2}'), 's3cret')).toBe(false);
    expect(verifySha256Signature(undefined, body, 's3cret')).toBe(false);
    expect(verifySha256Signature(`sha1=${'0'.repeat(40)}`, body, 's3cret')).toBe(false);
    expect(verifySha256Signature(header, body, '')).toBe(false);
  });
});

describe('createExpiringToken', () => {
  it('caches until shortly before expiry and shares one request between concurrent callers', async () => {
    let clock = 0;
    let issued = 0;
    const source = createExpiringToken(
      async () => {
        issued++;
        return { token: `t${issued}`, expiresAt: clock + 3_600_000 };
      },
      { now: () => clock },
    );
    expect(await Promise.all([source.get(), source.get(), source.get()])).toEqual(['t1', 't1', 't1']);
    clock = 3_600_000 - 300_001;
    expect(await source.get()).toBe('t1');
    clock = 3_600_000 - 299_999;
    expect(await source.get()).toBe('t2');
    source.invalidate();
    expect(await source.get()).toBe('t3');
    expect(issued).toBe(3);
  });

  it('does not cache a failed request', async () => {
    let fail = true;
    const source = createExpiringToken(async () => {
      if (fail) throw new Error('nope');
      return { token: 'ok', expiresAt: Date.now() + 3_600_000 };
    });
    await expect(source.get()).rejects.toThrow('nope');
    fail = false;
    expect(await source.get()).toBe('ok');
  });
});

describe('BoundedCache', () => {
  it('evicts the least recently used entry', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.size).toBe(2);
  });
});
