import { describe, expect, it } from 'vitest';
import { retryDelayFromHeaders, retryInfoDelay } from './retry-after.js';

describe('retryDelayFromHeaders', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after': '2' }, 2000],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, 5000],
    [{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) }, 30_000],
    [{ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(now / 1000 + 30) }, undefined],
    [{ 'ratelimit-reset': '7' }, 7000],
    [{}, undefined],
  ])('reads %o as %s ms', (headers, expected) => {
    expect(retryDelayFromHeaders(new Headers(headers), now)).toBe(expected);
  });
});

describe('retryInfoDelay', () => {
  it('reads Google RetryInfo from an error body', () => {
    const body = {
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure' },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '32s' },
        ],
      },
    };
    expect(retryInfoDelay(body)).toBe(32_000);
    expect(retryInfoDelay({ error: {} })).toBeUndefined();
  });
});
