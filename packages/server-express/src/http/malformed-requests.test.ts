import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger.js';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { errorResponder } from './errors.js';

/** What the router cannot percent-decode: invalid UTF-8, a non-hex escape, a lone `%`. */
const BAD_ESCAPES = ['%FF%FE', '%ZZ', '%'];

const errorLines = (host: TestHost) => host.logs().filter((line) => Number(line.level) >= 50);

describe('malformed requests answer 4xx, never 500', () => {
  let host: TestHost;
  let admin: TestApi;
  let consoleDir: string;
  beforeAll(async () => {
    consoleDir = await mkdtemp(join(tmpdir(), 'margin-console-'));
    await writeFile(join(consoleDir, 'index.html'), '<!doctype html><title>Margin</title>');
    host = await startTestHost({ env: { MARGIN_CONSOLE_DIR: consoleDir } });
    admin = await host.admin();
  });
  afterAll(async () => {
    await host.close();
    await rm(consoleDir, { recursive: true, force: true });
  });

  it.each(BAD_ESCAPES)('refuses %s in a path segment of an API route with 400 validation_failed', async (bad) => {
    for (const [method, path] of [
      ['GET', `/clients/${bad}`],
      ['DELETE', `/clients/${bad}/members/${bad}`],
      ['POST', `/clients/${bad}/ai-connections`],
    ] as const) {
      const res = await admin.request(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
      // The raw segment is not echoed back.
      expect(JSON.stringify(res.body)).not.toContain(bad === '%' ? '%/' : bad);
    }
    expect(errorLines(host)).toEqual([]);
  });

  it.each(BAD_ESCAPES)('refuses %s on the public webhook receiver without credentials', async (bad) => {
    for (const path of [`/webhooks/v1/providers/gitHostA/${bad}`, `/webhooks/v1/providers/${bad}/abc`]) {
      for (const base of [host.url, `${host.url}/api`]) {
        const res = await fetch(base + path, { method: 'POST', body: '{}' });
        expect(res.status, base + path).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'validation_failed' });
      }
    }
    expect(errorLines(host)).toEqual([]);
  });

  it.each(BAD_ESCAPES)('lets the console site answer %s without a 5xx', async (bad) => {
    for (const path of [`/${bad}`, `/clients/${bad}/reviews`, `/assets/${bad}.js`]) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(host.url + path, { method, headers: { accept: 'text/html' } });
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
    expect(errorLines(host)).toEqual([]);
  });

  it('maps the body parser’s refusals to their codes', async () => {
    const notJson = await admin.post('/admin/tenants', '{"name":');
    expect([notJson.status, notJson.body.code]).toEqual([400, 'validation_failed']);
    const huge = await admin.post('/admin/tenants', JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
    expect([huge.status, huge.body.code]).toEqual([413, 'payload_too_large']);
    const encoded = await admin.request('POST', '/admin/tenants', '{}', { 'content-encoding': 'x-unknown' });
    expect([encoded.status, encoded.body.code]).toEqual([400, 'validation_failed']);
    const charset = await fetch(`${admin.baseUrl}/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.credentials.bearer}`, 'content-type': 'application/json; charset=x-q' },
      body: '{}',
    });
    expect([charset.status, ((await charset.json()) as { code: string }).code]).toEqual([400, 'validation_failed']);
    expect(errorLines(host)).toEqual([]);
  });

  it('answers a 100,000-item list with 400, at most 20 details and a small body', async () => {
    // Short items so 100,000 of them fit under the 1 MB body limit.
    const items = Array.from({ length: 100_000 }, () => 'x');
    const overrides = Array.from({ length: 100_000 }, () => 0);
    for (const [path, body] of [
      ['/admin/webhook-configurations', { enabledEvents: items }],
      ['/admin/licensing', { edition: 'Community', capabilityOverrides: overrides }],
    ] as const) {
      const res = await admin.request(path.endsWith('licensing') ? 'PATCH' : 'POST', path, body);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.details.length).toBeLessThanOrEqual(20);
      expect(JSON.stringify(res.body).length).toBeLessThan(8 * 1024);
    }
  });

  it('caps details at 20 and counts the rest when every entry of a map is invalid', async () => {
    const defaultHeaders = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x-h${i}`, 7]));
    const res = await admin.post('/clients/any/ai-connections', { defaultHeaders });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveLength(20);
    // 50 header issues, plus the required fields this body leaves out.
    expect(20 + res.body.detailsOmitted).toBeGreaterThanOrEqual(50);
  });

  it('refuses a map over its 50 entries as a whole, without an issue per entry', async () => {
    const defaultHeaders = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`x-h${i}`, 7]));
    const res = await admin.post('/clients/any/ai-connections', { defaultHeaders });
    expect(res.status).toBe(400);
    expect(res.body.details).toContainEqual({ path: 'defaultHeaders', message: 'at most 50 entries' });
    expect(res.body.details.filter((d: { path: string }) => d.path.startsWith('defaultHeaders.'))).toEqual([]);
  });
});

describe.each(['sqlite', 'postgres'] as const)('NUL characters on %s', (dialect) => {
  let host: TestHost;
  let admin: TestApi;
  beforeAll(async () => {
    host = await startTestHost({ dialect });
    admin = await host.admin();
  });
  afterAll(async () => {
    await host?.close();
  });

  // PostgreSQL text cannot store U+0000: these reached storage and answered 500 there.
  it('refuses a NUL in a body, a path or a query with 400 before anything reaches storage', async () => {
    const nul = 'a\u0000b';
    const answers = [
      await admin.post('/admin/users', { username: 'nul-user', password: 'long-enough-password-1', displayName: nul }),
      await admin.post('/users/me/pats', { label: nul }),
      await host.api.post('/auth/login', { username: nul, password: nul }),
      await admin.post('/users/me/pats', { label: 'ok', [nul]: 1 }),
      await admin.get('/clients/a%00b'),
      await admin.get('/admin/users?cursor=%00'),
    ];
    for (const res of answers) expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
    expect((await admin.get('/admin/users')).body.items.map((u: { username: string }) => u.username)).not.toContain(
      'nul-user',
    );
    expect(errorLines(host)).toEqual([]);
  });

  // Stored in integer columns: on PostgreSQL a larger number failed in storage as a 500.
  it('refuses a pull request number beyond the stored integer range with 400', async () => {
    const client = await admin.post('/clients', { displayName: `Big numbers ${dialect}`, tenantId: SYSTEM_TENANT_ID });
    const base = `/clients/${client.body.id}/reviewing`;
    const big = 3_000_000_000;
    const coordinates = { providerScopePath: 's', providerProjectKey: 'p', repositoryId: 'r', pullRequestId: big };
    const answers = [
      await admin.get(`${base}/findings?pullRequestId=${big}`),
      await admin.get(`${base}/jobs?pullRequestId=${big}`),
      await admin.get(
        `${base}/pull-requests/findings?providerScopePath=s&providerProjectKey=p&repositoryId=r&pullRequestId=${big}`,
      ),
      await admin.post(`${base}/blocked-prs`, { ...coordinates, reason: 'r' }),
      await admin.post(`${base}/jobs/by-coordinates`, coordinates),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.details).toContainEqual({ path: 'pullRequestId', message: 'must be at most 2147483647' });
    }
    expect(errorLines(host)).toEqual([]);
  });
});

describe('errors that carry a status', () => {
  it('keeps a 4xx status from a library that did not mean the caller internal, and uses http-errors’ own', async () => {
    const app = express();
    app.get('/provider-sdk', () => {
      // A provider SDK's failure (its own 401 with the provider) is not the caller's credentials.
      throw Object.assign(new Error('Bad credentials for https://user:secret@git.example'), { status: 401 });
    });
    app.get('/http-error', () => {
      throw Object.assign(new Error('range not satisfiable: bytes=9-'), { status: 416, expose: true });
    });
    app.use(errorResponder(createLogger({ level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const sdk = await fetch(`${base}/provider-sdk`);
      expect(sdk.status).toBe(500);
      expect(await sdk.json()).toEqual({ error: 'An internal error occurred.', code: 'internal' });
      const exposed = await fetch(`${base}/http-error`);
      expect(exposed.status).toBe(400);
      expect(await exposed.json()).toEqual({ error: 'The request is invalid.', code: 'validation_failed' });
    } finally {
      server.close();
    }
  });
});
