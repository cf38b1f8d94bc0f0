import { MarginError } from '@margin/core/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeHttpServer, startFakeHttpServer } from '../testing/index.js';
import { createTransport } from './transport.js';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

const SECRET = 'sk-test-0123456789abcdef';
const transport = (extra: Partial<Parameters<typeof createTransport>[0]> = {}) =>
  createTransport({ provider: 'Acme', backoffBaseMs: 1, secrets: () => [SECRET], ...extra });

async function failure(promise: Promise<unknown>): Promise<MarginError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!MarginError.isInstance(error)) throw new Error(`expected a MarginError, got ${String(error)}`);
  return error;
}

describe('the HTTP transport', () => {
  it('sends JSON and query parameters and parses the JSON answer', async () => {
    fake.on('POST', '/v1/things', (req) => ({ status: 201, json: { got: req.json, q: req.query.get('x') } }));
    const res = await transport().request({
      method: 'POST',
      url: `${fake.url}/v1/things`,
      query: { x: 1, y: undefined },
      json: { a: 1 },
    });
    expect(res).toMatchObject({ status: 201, data: { got: { a: 1 }, q: '1' } });
    expect(fake.requests[0]?.query.has('y')).toBe(false);
  });

  it('waits as long as retry-after-ms says, then succeeds', async () => {
    let calls = 0;
    fake.on('GET', '/r', () =>
      ++calls === 1 ? { status: 429, headers: { 'retry-after-ms': '60' }, json: {} } : { json: { ok: true } },
    );
    const started = Date.now();
    const res = await transport().request({ url: `${fake.url}/r` });
    expect(res.data).toEqual({ ok: true });
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('honours Retry-After in seconds on 503', async () => {
    let calls = 0;
    fake.on('GET', '/r', () => (++calls < 3 ? { status: 503, headers: { 'retry-after': '0' } } : { json: [] }));
    await transport().request({ url: `${fake.url}/r` });
    expect(calls).toBe(3);
  });

  it('gives up after the retry limit with a rate-limited error carrying the status', async () => {
    fake.on('GET', '/r', () => ({ status: 429, headers: { 'retry-after': '0' }, json: { message: 'slow down' } }));
    const error = await failure(transport({ retries: 2 }).request({ url: `${fake.url}/r` }));
    expect(fake.requests).toHaveLength(3);
    expect(error.code).toBe('provider_unavailable');
    expect(error.details).toMatchObject({ providerFailure: 'rateLimited', providerStatus: 429 });
    expect(error.message).toBe('Acme answered 429: slow down');
  });

  it('does not wait for a Retry-After beyond the cap', async () => {
    fake.on('GET', '/r', () => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const error = await failure(transport({ maxRetryDelayMs: 1000 }).request({ url: `${fake.url}/r` }));
    expect(fake.requests).toHaveLength(1);
    expect(error.details).toMatchObject({ providerFailure: 'rateLimited', retryAfterMs: 3_600_000 });
  });

  it('lets the adapter declare a non-retryable quota error', async () => {
    fake.on('POST', '/chat', () => ({
      status: 429,
      json: { error: { code: 'insufficient_quota', message: 'You exceeded your quota.' } },
    }));
    const error = await failure(
      transport({
        inspectError: ({ body }) =>
          (body as { error?: { code?: string } })?.error?.code === 'insufficient_quota'
            ? { retry: false, failure: 'quotaExceeded' }
            : undefined,
      }).request({ method: 'POST', url: `${fake.url}/chat`, json: {} }),
    );
    expect(fake.requests).toHaveLength(1);
    expect(error.details).toMatchObject({ providerFailure: 'quotaExceeded' });
  });

  it('maps 401 to a credentials failure and scrubs the secret from the provider’s message', async () => {
    fake.on('GET', '/me', () => ({
      status: 401,
      json: { error: { message: `Incorrect API key provided: ${SECRET}` } },
    }));
    const error = await failure(transport().request({ url: `${fake.url}/me` }));
    expect(error.details).toMatchObject({ providerFailure: 'credentials', providerStatus: 401 });
    expect(error.message).not.toContain(SECRET);
    expect(error.message).toBe('Acme answered 401: Incorrect API key provided: [redacted]');
  });

  it('maps 404 to not_found and hands back allowed statuses instead', async () => {
    fake.on('GET', '/missing', () => ({ status: 404, json: { message: 'Not Found' } }));
    expect((await failure(transport().request({ url: `${fake.url}/missing` }))).code).toBe('not_found');
    const res = await transport().request({ url: `${fake.url}/missing`, allowStatuses: [404] });
    expect(res.status).toBe(404);
  });

  it('reports a 200 with a body that is not JSON as an invalid response', async () => {
    fake.on('GET', '/html', () => ({ text: '<html>login page</html>' }));
    const error = await failure(transport().request({ url: `${fake.url}/html` }));
    expect(error.details).toMatchObject({ providerFailure: 'invalidResponse' });
  });

  it('retries 5xx and network-level failures, then reports the provider unavailable', async () => {
    fake.on('GET', '/down', () => ({ status: 502, text: '<html>Bad gateway</html>' }));
    const error = await failure(transport({ retries: 1 }).request({ url: `${fake.url}/down` }));
    expect(fake.requests).toHaveLength(2);
    expect(error.message).toBe('Acme answered 502.');
    await fake.close();
    const unreachable = await failure(transport({ retries: 0 }).request({ url: `${fake.url}/down` }));
    expect(unreachable.details).toMatchObject({ providerFailure: 'unavailable' });
    expect(unreachable.message).toMatch(/^Acme could not be reached \(/);
    fake = await startFakeHttpServer();
  });

  it('does not retry a refusal raised by the fetch itself', async () => {
    let calls = 0;
    const refusing = (async () => {
      calls++;
      throw MarginError.provider('egressRefused', 'Refused: a private address.');
    }) as typeof fetch;
    const error = await failure(transport({ fetch: refusing }).request({ url: `${fake.url}/x` }));
    expect(calls).toBe(1);
    expect(error.details).toMatchObject({ providerFailure: 'egressRefused' });
  });

  it('times out a slow answer', async () => {
    fake.on('GET', '/slow', () => new Promise((resolve) => setTimeout(() => resolve({ json: {} }), 300)));
    const error = await failure(transport({ timeoutMs: 50, retries: 0 }).request({ url: `${fake.url}/slow` }));
    expect(error.details).toMatchObject({ providerFailure: 'timeout' });
  });

  it('does not follow redirects when told not to', async () => {
    fake.on('GET', '/moved', () => ({ status: 302, headers: { location: 'http://169.254.169.254/latest' } }));
    const error = await failure(transport({ followRedirects: false }).request({ url: `${fake.url}/moved` }));
    expect(error.message).toContain('a redirect, which is not followed');
  });

  it('sends nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(transport().request({ url: `${fake.url}/x`, signal: controller.signal }));
    expect(error.message).toBe('The call to Acme was cancelled.');
    expect(error.details).toMatchObject({ providerFailure: 'cancelled' });
    expect(fake.requests).toHaveLength(0);
  });

  it('stops a retry wait when the signal is aborted, whatever its reason', async () => {
    fake.on('GET', '/r', () => ({ status: 429, headers: { 'retry-after': '30' }, json: {} }));
    const controller = new AbortController();
    const pending = failure(transport().request({ url: `${fake.url}/r`, signal: controller.signal }));
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('superseded by a newer push'));
    const error = await pending;
    expect(error.message).toBe('The call to Acme was cancelled.');
    expect(error.details).toMatchObject({ providerFailure: 'cancelled' });
    expect(fake.requests).toHaveLength(1);
  });
});

/** A JSON answer of `size` bytes, so a trickle of one byte per interval outlasts any deadline here. */
const bigAnswer = (size = 400) => ({ padding: 'x'.repeat(size) });

/** Runs `call`, returning its failure and how long it took. */
async function timed(call: () => Promise<unknown>): Promise<{ error: MarginError; ms: number }> {
  const started = Date.now();
  const error = await failure(call());
  return { error, ms: Date.now() - started };
}

describe('the deadline of a call', () => {
  it('covers the body: an answer that trickles after its headers fails as a timeout, naming no URL', async () => {
    fake.on('GET', '/trickle', () => ({ json: bigAnswer(), trickleMs: 50 }));
    const { error, ms } = await timed(() =>
      transport({ timeoutMs: 200, retries: 0 }).request({ url: `${fake.url}/trickle?key=${SECRET}` }),
    );
    expect(error.code).toBe('provider_unavailable');
    expect(error.details).toMatchObject({ providerFailure: 'timeout' });
    expect(error.message).toBe('Acme did not answer within 0.2 s.');
    expect(error.message).not.toContain(SECRET);
    expect(ms).toBeLessThan(5_000);
  });

  it('covers the time to the headers: a provider that never answers fails as a timeout', async () => {
    const stalled = fake.stallReply(() => true);
    fake.on('GET', '/stall', () => ({ json: {} }));
    const { error, ms } = await timed(() =>
      transport({ timeoutMs: 200, retries: 0 }).request({ url: `${fake.url}/stall` }),
    );
    expect(error.details).toMatchObject({ providerFailure: 'timeout' });
    expect(error.message).toBe('Acme did not answer within 0.2 s.');
    expect(ms).toBeLessThan(5_000);
    stalled.release();
  });

  it('covers the body of an error answer, which is read to decide on a retry', async () => {
    fake.on('GET', '/busy', () => ({ status: 503, json: bigAnswer(), trickleMs: 50 }));
    const { error, ms } = await timed(() =>
      transport({ timeoutMs: 200, retries: 0 }).request({ url: `${fake.url}/busy` }),
    );
    expect(error.details).toMatchObject({ providerFailure: 'timeout' });
    expect(ms).toBeLessThan(5_000);
  });

  it('gives each retry a fresh deadline, so one stalled attempt does not fail the call', async () => {
    let calls = 0;
    fake.on('GET', '/once', () => (++calls === 1 ? { json: bigAnswer(), trickleMs: 100 } : { json: { ok: true } }));
    // A deadline long enough for a cold first connection, so the first attempt surely reaches the fake.
    const res = await transport({ timeoutMs: 1_000, retries: 1 }).request({ url: `${fake.url}/once` });
    expect(res.data).toEqual({ ok: true });
    expect(calls).toBe(2);
  });

  it('bounds the whole call, waits included, by one deadline per attempt allowed', async () => {
    fake.on('GET', '/trickle', () => ({ json: bigAnswer(), trickleMs: 50 }));
    // A backoff of up to 10 s after the first attempt: the call's deadline (0.4 s) ends the wait.
    const { error, ms } = await timed(() =>
      transport({ timeoutMs: 200, retries: 1, backoffBaseMs: 10_000 }).request({ url: `${fake.url}/trickle` }),
    );
    expect(error.details).toMatchObject({ providerFailure: 'timeout' });
    expect(error.message).toBe('Acme did not answer within 0.4 s, retries included.');
    expect(ms).toBeLessThan(5_000);
  });

  it('does not wait for a Retry-After that would outlast the call: the answer’s own error stands', async () => {
    fake.on('GET', '/r', () => ({ status: 429, headers: { 'retry-after': '2' }, json: { message: 'slow down' } }));
    const error = await failure(transport({ timeoutMs: 500, retries: 1 }).request({ url: `${fake.url}/r` }));
    expect(fake.requests).toHaveLength(1);
    expect(error.details).toMatchObject({ providerFailure: 'rateLimited', retryAfterMs: 2000 });
  });

  it('reports a caller’s abort during a trickling answer as a cancellation, at once', async () => {
    fake.on('GET', '/trickle', () => ({ json: bigAnswer(), trickleMs: 50 }));
    const controller = new AbortController();
    const pending = timed(() =>
      transport({ timeoutMs: 60_000 }).request({ url: `${fake.url}/trickle`, signal: controller.signal }),
    );
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const { error, ms } = await pending;
    expect(error.details).toMatchObject({ providerFailure: 'cancelled' });
    expect(error.message).toBe('The call to Acme was cancelled.');
    expect(fake.requests).toHaveLength(1);
    expect(ms).toBeLessThan(5_000);
  });
});
