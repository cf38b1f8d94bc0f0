import type { lookup as dnsLookup, LookupAddress } from 'node:dns';
import type { MarginError } from '@margin/core/spec';
import { marginErrorOf } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeHttpServer, startFakeHttpServer } from '../testing/index.js';
import { assertEgressUrlAllowed, createEgressGuardedFetch } from './egress-guard.js';
import { createTransport } from './transport.js';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

async function refusal(promise: Promise<unknown>): Promise<MarginError> {
  const error = await marginErrorOf(promise);
  expect(error.details).toMatchObject({ providerFailure: 'egressRefused' });
  return error;
}

/** A resolver that answers every name with the given addresses and records what it was asked. */
function fixedLookup(addresses: LookupAddress[], asked: string[] = []): typeof dnsLookup {
  const resolve = (hostname: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) => {
    asked.push(hostname);
    callback(null, addresses);
  };
  return resolve as unknown as typeof dnsLookup;
}

describe('the egress guard', () => {
  it('lets calls to a loopback fake through over plain http when private egress is allowed', async () => {
    fake.on('POST', '/v1/echo', (req) => ({ json: { got: req.json, auth: req.headers.authorization } }));
    const transport = createTransport({
      provider: 'Fake',
      fetch: createEgressGuardedFetch({ allowPrivateEgress: true }),
      followRedirects: false,
    });
    const res = await transport.request({
      method: 'POST',
      url: `${fake.url}/v1/echo`,
      headers: { authorization: 'Bearer k' },
      json: { a: 1 },
    });
    expect(res.data).toEqual({ got: { a: 1 }, auth: 'Bearer k' });
  });

  it('never follows a redirect, even when private egress is allowed', async () => {
    fake.on('GET', '/moved', () => ({ status: 302, headers: { location: 'http://169.254.169.254/latest' } }));
    const guarded = createEgressGuardedFetch({ allowPrivateEgress: true });
    const error = await refusal(guarded(`${fake.url}/moved`));
    expect(error.message).toMatch(/redirect/);
    expect(fake.requests).toHaveLength(1);
  });

  it('follows a same-origin redirect for source control, and refuses one to another host', async () => {
    const other = await startFakeHttpServer();
    try {
      fake.on('GET', '/diff/a..b', () => ({ status: 302, headers: { location: '/diff/canonical' } }));
      fake.on('GET', '/diff/canonical', (req) => ({ json: { token: req.headers['private-token'] } }));
      fake.on('GET', '/away', () => ({ status: 302, headers: { location: `${other.url}/steal` } }));
      const guarded = createEgressGuardedFetch({
        allowPrivateEgress: true,
        redirects: 'sameOrigin',
        label: 'source-control',
      });
      const followed = await guarded(`${fake.url}/diff/a..b`, { headers: { 'private-token': 't' } });
      expect(await followed.json()).toEqual({ token: 't' });
      const error = await refusal(guarded(`${fake.url}/away`, { headers: { 'private-token': 't' } }));
      expect(error.message).toMatch(/never follow to another host/);
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('refuses plain http without private egress', async () => {
    const error = await refusal(createEgressGuardedFetch()('http://api.example.com/v1/models'));
    expect(error.message).toMatch(/must use https/);
  });

  it('refuses other schemes whatever the setting', async () => {
    await refusal(createEgressGuardedFetch({ allowPrivateEgress: true })('file:///etc/passwd'));
  });

  it.each([
    ['https://127.0.0.1/v1/models'],
    ['https://10.1.2.3/v1/models'],
    ['https://172.20.0.1/v1/models'],
    ['https://192.168.1.10/v1/models'],
    ['https://169.254.169.254/metadata/identity/oauth2/token'],
    ['https://[::1]/v1/models'],
    ['https://[fd00::1]/v1/models'],
    ['https://[fe80::1]/v1/models'],
    ['https://[::ffff:127.0.0.1]/v1/models'],
    ['https://0x7f.1/v1/models'],
  ])('refuses the literal address in %s before connecting', async (url) => {
    const error = await refusal(createEgressGuardedFetch()(url));
    expect(error.message).toMatch(/MARGIN_ALLOW_PRIVATE_EGRESS/);
  });

  it('refuses a name that resolves to loopback (localhost), checked at connect time', async () => {
    const port = new URL(fake.url).port;
    const error = await refusal(createEgressGuardedFetch()(`https://localhost:${port}/v1/models`));
    expect(error.message).toContain('localhost (127.0.0.1)');
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a public-looking name whose resolved address is private (DNS rebinding)', async () => {
    const asked: string[] = [];
    const guarded = createEgressGuardedFetch({
      lookup: fixedLookup([{ address: '10.0.0.7', family: 4 }], asked),
    });
    const error = await refusal(guarded('https://models.example.test/v1/models'));
    expect(asked).toEqual(['models.example.test']);
    expect(error.message).toContain('models.example.test (10.0.0.7)');
  });

  it('refuses when any resolved address is private, not only the first', async () => {
    const guarded = createEgressGuardedFetch({
      lookup: fixedLookup([
        { address: '8.8.8.8', family: 4 },
        { address: 'fd12:3456::1', family: 6 },
      ]),
    });
    await refusal(guarded('https://mixed.example.test/'));
  });

  it('checks a caller-supplied fetch by resolving the name first', async () => {
    const calls: string[] = [];
    const inner = (async (url: string | URL | Request) => {
      calls.push(String(url));
      return new Response('{}', { status: 200 });
    }) as typeof fetch;
    const refusedFetch = createEgressGuardedFetch({
      fetch: inner,
      lookup: fixedLookup([{ address: '127.0.0.1', family: 4 }]),
    });
    await refusal(refusedFetch('https://intranet.example.test/'));
    const allowed = createEgressGuardedFetch({
      fetch: inner,
      lookup: fixedLookup([{ address: '8.8.8.8', family: 4 }]),
    });
    expect((await allowed('https://api.example.test/v1/models')).status).toBe(200);
    expect(calls).toEqual(['https://api.example.test/v1/models']);
  });
});

describe('the egress guard with private egress allowed', () => {
  const allowPrivateEgress = true;

  it('still refuses metadata, link-local and reserved literals', async () => {
    for (const url of [
      'http://169.254.169.254/latest',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://metadata.google.internal/',
    ]) {
      await refusal(createEgressGuardedFetch({ allowPrivateEgress })(url));
    }
  });

  it('still refuses a name that resolves to a metadata address, at connect time', async () => {
    const guarded = createEgressGuardedFetch({
      allowPrivateEgress,
      lookup: fixedLookup([{ address: '169.254.169.254', family: 4 }]),
    });
    const error = await refusal(guarded('http://models.internal.test/v1/models'));
    expect(error.message).toContain('models.internal.test (169.254.169.254)');
  });

  it('accepts an https URL with a public name without resolving it', () => {
    expect(assertEgressUrlAllowed('https://api.openai.com/v1', false).host).toBe('api.openai.com');
  });
});
