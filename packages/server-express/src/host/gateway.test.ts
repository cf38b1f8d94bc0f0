import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/index.js';

describe('the gateway', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it.each(['/api/healthz', '/healthz'])('%s reports the database, worker and trigger checks', async (path) => {
    const res = await fetch(host.url + path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      checks: {
        database: { status: 'ok' },
        worker: { status: 'ok' },
        webhookDeliveries: { status: 'ok' },
        crawler: { status: 'ok' },
        knowledgeIndexer: { status: 'ok' },
        conversations: { status: 'ok' },
      },
    });
  });

  it.each(['/api/livez', '/livez'])('%s answers without checking dependencies', async (path) => {
    const res = await fetch(host.url + path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves Prometheus metrics through the prefix, labelled by route template', async () => {
    await fetch(`${host.url}/api/healthz`);
    const res = await fetch(`${host.url}/api/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(
      /margin_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/,
    );
    expect(text).toContain('margin_process_cpu_seconds_total');
  });

  it('answers an unknown API route with 404 in the error shape', async () => {
    const res = await fetch(`${host.url}/api/no/such/thing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: 'No endpoint matches GET /no/such/thing.',
      code: 'not_found',
      requestId: expect.any(String),
    });
  });

  it('answers an unknown path outside /api with 404 in the error shape', async () => {
    const res = await fetch(`${host.url}/elsewhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await fetch(`${host.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username": "admin", ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'The request body is not valid JSON.',
      code: 'validation_failed',
      requestId: expect.any(String),
    });
  });

  it('answers a 2 MB body with 413 in the error shape', async () => {
    const res = await fetch(`${host.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large', error: expect.stringContaining('1mb') });
  });

  it('sets security headers and hides the framework', async () => {
    const res = await fetch(`${host.url}/api/healthz`);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('keeps a well-formed X-Request-Id and returns it in headers and error bodies', async () => {
    const res = await fetch(`${host.url}/api/missing`, { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect(await res.json()).toMatchObject({ requestId: 'trace-123' });
    const replaced = await fetch(`${host.url}/api/missing`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('does not serve Swagger UI outside development', async () => {
    expect((await fetch(`${host.url}/api/swagger`)).status).toBe(404);
    expect((await fetch(`${host.url}/api/swagger/v1/swagger.json`)).status).toBe(404);
  });

  it('writes one structured log line per request with its request id', async () => {
    await fetch(`${host.url}/api/livez`, { headers: { 'x-request-id': 'log-line-check' } });
    const line = host.logs().find((l) => l.reqId === 'log-line-check');
    expect(line).toMatchObject({ msg: 'request completed', method: 'GET', path: '/api/livez', status: 200 });
  });
});

describe('metrics at the edge', () => {
  const TOKEN = 'metrics-token-for-tests-9f2c4e6a';
  let host: TestHost;
  beforeAll(async () => {
    // The test's own requests come from loopback; trusting loopback proxies lets a test stand in
    // for a remote caller behind a proxy with X-Forwarded-For.
    host = await startTestHost({ env: { MARGIN_TRUST_PROXY: 'loopback', MARGIN_METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await host.close();
  });
  const remote = { 'x-forwarded-for': '203.0.113.7' };

  it('serves /api/metrics to loopback callers, and to others only with MARGIN_METRICS_TOKEN', async () => {
    expect((await fetch(`${host.url}/api/metrics`)).status).toBe(200);
    const refused = await fetch(`${host.url}/api/metrics`, { headers: remote });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: 'forbidden',
      error: 'Metrics are served to loopback callers, or with the metrics token (MARGIN_METRICS_TOKEN).',
    });
    const wrong = await fetch(`${host.url}/api/metrics`, { headers: { ...remote, authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(403);
    const allowed = await fetch(`${host.url}/api/metrics`, {
      headers: { ...remote, authorization: `Bearer ${TOKEN}` },
    });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('margin_process_cpu_seconds_total');
  });
});

describe('the gateway in development', () => {
  it.each(['Development', 'DEVELOPMENT'])('serves Swagger UI for NODE_ENV=%s, whatever its case', async (value) => {
    const host = await startTestHost({ env: { NODE_ENV: value } });
    try {
      expect((await fetch(`${host.url}/api/swagger/v1/swagger.json`)).status).toBe(200);
    } finally {
      await host.close();
    }
  });

  it('serves Swagger UI and the document under /api/swagger', async () => {
    const host = await startTestHost({ env: { NODE_ENV: 'development' } });
    try {
      const ui = await fetch(`${host.url}/api/swagger/`);
      expect(ui.status).toBe(200);
      expect(await ui.text()).toContain('swagger-ui');
      const doc = await fetch(`${host.url}/api/swagger/v1/swagger.json`);
      expect(doc.status).toBe(200);
      expect(await doc.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'Margin API' } });
    } finally {
      await host.close();
    }
  });
});
