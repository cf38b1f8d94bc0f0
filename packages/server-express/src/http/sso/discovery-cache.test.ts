import type { SsoClientConfig } from '@margin/core';
import { describe, expect, it } from 'vitest';
import { DiscoveryCache } from './discovery-cache.js';

const provider = (over: Partial<SsoClientConfig> = {}): SsoClientConfig => ({
  providerId: 'idp-1',
  issuerUrl: 'https://login.example.com',
  clientId: 'margin',
  clientSecret: 'secret',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

/** A cache over a counting discovery and a clock the test moves. */
function counted(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let now = 0;
  const calls: string[] = [];
  let fail = false;
  const cache = new DiscoveryCache(
    async (p) => {
      calls.push(p.providerId);
      if (fail) throw new Error('issuer unreachable');
      return { discovered: calls.length };
    },
    { ...options, now: () => now },
  );
  return {
    cache,
    calls,
    advance: (ms: number) => {
      now += ms;
    },
    failing: (value: boolean) => {
      fail = value;
    },
  };
}

describe('the identity providers’ discovery cache', () => {
  it('discovers once per provider while its settings stay the same, for the time it is kept', async () => {
    const { cache, calls, advance } = counted({ ttlMs: 1000 });
    expect(await cache.get(provider())).toEqual({ discovered: 1 });
    advance(999);
    expect(await cache.get(provider())).toEqual({ discovered: 1 });
    advance(1);
    expect(await cache.get(provider())).toEqual({ discovered: 2 });
    expect(calls).toHaveLength(2);
  });

  it('discovers again when the provider’s issuer, client or update time changes', async () => {
    const { cache, calls } = counted();
    await cache.get(provider());
    await cache.get(provider({ updatedAt: '2026-01-02T00:00:00.000Z' }));
    await cache.get(provider({ updatedAt: '2026-01-02T00:00:00.000Z', clientId: 'other' }));
    await cache.get(provider({ updatedAt: '2026-01-02T00:00:00.000Z', clientId: 'other', issuerUrl: 'https://b' }));
    expect(calls).toHaveLength(4);
  });

  it('shares one discovery between concurrent sign-ins, and keeps no failure', async () => {
    const { cache, calls, failing } = counted();
    const [a, b] = await Promise.all([cache.get(provider()), cache.get(provider())]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);

    const other = provider({ providerId: 'idp-2' });
    failing(true);
    await expect(cache.get(other)).rejects.toThrow('issuer unreachable');
    failing(false);
    expect(await cache.get(other)).toEqual({ discovered: 3 });
  });

  it('forgets a provider on request and holds a bounded number of providers', async () => {
    const { cache, calls } = counted({ maxEntries: 2 });
    await cache.get(provider());
    cache.forget('idp-1');
    await cache.get(provider());
    expect(calls).toEqual(['idp-1', 'idp-1']);

    await cache.get(provider({ providerId: 'idp-2' }));
    await cache.get(provider({ providerId: 'idp-3' }));
    // idp-1 was the least recently used of three.
    await cache.get(provider({ providerId: 'idp-3' }));
    await cache.get(provider());
    expect(calls).toEqual(['idp-1', 'idp-1', 'idp-2', 'idp-3', 'idp-1']);
  });
});
