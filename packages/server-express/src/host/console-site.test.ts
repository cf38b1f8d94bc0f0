import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/index.js';

describe('the gateway with the management console', () => {
  let host: TestHost;
  let bare: TestHost;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'margin-console-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>Margin</title>');
    await writeFile(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
    [host, bare] = await Promise.all([startTestHost({ env: { MARGIN_CONSOLE_DIR: dir } }), startTestHost()]);
  });
  afterAll(async () => {
    await Promise.all([host.close(), bare.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['/', '/clients/42/reviews/7?category=ai-call'])('answers %s with the console page', async (path) => {
    const res = await fetch(host.url + path, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('<title>Margin</title>');
  });

  it('serves hashed assets with a long cache and leaves missing files to the JSON 404', async () => {
    const asset = await fetch(`${host.url}/assets/index-abc.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await fetch(`${host.url}/assets/gone.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
  });

  it('keeps /healthz, /api and /webhooks as they are', async () => {
    expect(await (await fetch(`${host.url}/healthz`)).json()).toMatchObject({ status: 'ok' });
    const api = await fetch(`${host.url}/api/auth/me`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(401);
    const hook = await fetch(`${host.url}/webhooks/v1/providers/gitHostA/${'0'.repeat(32)}`, {
      method: 'POST',
      body: '{}',
    });
    expect(hook.status).toBe(404);
    expect(hook.headers.get('content-type')).toContain('application/json');
  });

  it('answers / with the JSON 404 when no console is configured', async () => {
    const res = await fetch(`${bare.url}/`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });
});
