import { describe, expect, it } from 'vitest';
import {
  BoundedCache,
  constantTimeEqual,
  createExpiringToken,
  createTokenCache,
  encodePathSegments,
  hmacSha256Hex,
  joinUrl,
  paginate,
  parseLinkHeader,
  readArray,
  readNumber,
  readObject,
  readString,
  trimTrailingSlashes,
  verifySha256Signature,
} from './index.js';

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

describe('URLs', () => {
  it('joins a base and segments with one slash each, dropping the base query', () => {
    expect(joinUrl('https://h/openai/v1/', '/models')).toBe('https://h/openai/v1/models');
    expect(joinUrl(new URL('https://h/?api-version=1'), 'a/', '/b')).toBe('https://h/a/b');
    expect(trimTrailingSlashes('https://h/api/v4//')).toBe('https://h/api/v4');
  });

  it('encodes path segments but keeps the slashes', () => {
    expect(encodePathSegments('/src/my file#1.ts')).toBe('src/my%20file%231.ts');
  });
});

describe('JSON readers', () => {
  const body = { error: { message: 'no', code: 3, inf: Number.POSITIVE_INFINITY }, items: [1, 2], list: {} };

  it('walk a path and answer undefined at the first step of the wrong type', () => {
    expect(readString(body, 'error', 'message')).toBe('no');
    expect(readString(body, 'error', 'code')).toBeUndefined();
    expect(readString('bare')).toBe('bare');
    expect(readNumber(body, 'error', 'code')).toBe(3);
    expect(readNumber(body, 'error', 'inf')).toBeUndefined();
    expect(readObject(body, 'items')).toBeUndefined();
    expect(readObject(body, 'error', 'message', 'deeper')).toBeUndefined();
  });

  it('read a missing or mistyped list as an empty one', () => {
    expect(readArray(body, 'items')).toEqual([1, 2]);
    expect(readArray(body, 'list')).toEqual([]);
    expect(readArray(undefined)).toEqual([]);
  });
});

describe('webhook signatures', () => {
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

describe('createTokenCache', () => {
  it('keeps one token per key and shares one exchange between concurrent callers of a key', async () => {
    let clock = 0;
    const issued: string[] = [];
    const cache = createTokenCache({ now: () => clock });
    const issue = (key: string) => async () => {
      issued.push(key);
      return { token: `${key}${issued.length}`, expiresAt: clock + 3_600_000 };
    };
    expect(
      await Promise.all([cache.get('a', issue('a')), cache.get('a', issue('a')), cache.get('b', issue('b'))]),
    ).toEqual(['a1', 'a1', 'b2']);
    clock = 3_600_000 - 299_999;
    expect(await cache.get('a', issue('a'))).toBe('a3');
    cache.invalidate('b');
    expect(await cache.get('b', issue('b'))).toBe('b4');
    expect(issued).toEqual(['a', 'b', 'a', 'b']);
  });

  it('uses a token that lives shorter than twice the margin for half its life', async () => {
    let clock = 0;
    let issued = 0;
    const cache = createTokenCache({ now: () => clock });
    const issue = async () => ({ token: `t${++issued}`, expiresAt: clock + 300_000 });
    expect(await cache.get('k', issue)).toBe('t1');
    clock = 149_999;
    expect(await cache.get('k', issue)).toBe('t1');
    clock = 150_000;
    expect(await cache.get('k', issue)).toBe('t2');
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
