import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningApp, startApp } from './app.js';

const ADMIN = { username: 'admin', password: 'example-admin-password' };

/** Listening servers and open sockets of this process: what a clean shutdown must give back. */
const tcpHandles = () =>
  process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'TCPSocketWrap').length;

describe('Margin embedded in an existing Express app under /review-api', () => {
  let dir: string;
  let app: RunningApp;
  let logs = '';
  let handlesBefore: number;

  beforeAll(async () => {
    handlesBefore = tcpHandles();
    dir = await mkdtemp(join(tmpdir(), 'margin-embed-'));
    app = await startApp({
      databaseUrl: `sqlite:${join(dir, 'app.db')}`,
      jwtSecret: randomBytes(48).toString('base64url'),
      secretsKey: randomBytes(32),
      bootstrapAdmin: ADMIN,
      port: 0,
      logDestination: new Writable({
        write(chunk, _encoding, done) {
          logs += chunk.toString();
          done();
        },
      }),
    });
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  const call = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(app.url + path, {
      ...init,
      headers: {
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
    });
  const signIn = async () => {
    const res = await call('/review-api/auth/login', { method: 'POST', body: JSON.stringify(ADMIN) });
    expect(res.status).toBe(200);
    return { res, token: ((await res.json()) as { accessToken: string }).accessToken };
  };

  it('keeps serving the app’s own route', async () => {
    const res = await call('/hello');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ app: 'team-portal', message: 'Hello from the app’s own route.' });
  });

  it('serves Margin only under the prefix', async () => {
    const health = await call('/review-api/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'ok' }, worker: { status: 'ok' }, webhookDeliveries: { status: 'ok' } },
    });
    // Outside the prefix the app answers, not Margin: Express's own 404, not Margin's JSON error body.
    const outside = await call('/clients');
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).not.toContain('application/json');
  });

  it('signs in as the bootstrap admin and calls authenticated endpoints through the prefix', async () => {
    const { res, token } = await signIn();
    // The refresh cookie is scoped to the auth routes where they are mounted, not to Margin's default `/api`.
    expect(res.headers.get('set-cookie')).toMatch(/margin_refresh=[^;]+;.*Path=\/review-api\/auth/);

    const me = await call('/review-api/auth/me', { token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'admin', globalRole: 'platformAdmin' });

    const anonymous = await call('/review-api/clients');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'unauthenticated', requestId: expect.any(String) });

    const tenants = (await (await call('/review-api/admin/tenants', { token })).json()) as { items: { id: string }[] };
    const created = await call('/review-api/clients', {
      method: 'POST',
      token,
      body: JSON.stringify({ displayName: 'Payments team', tenantId: tenants.items[0]?.id }),
    });
    expect(created.status).toBe(201);
    const client = (await created.json()) as { id: string };
    const list = (await (await call('/review-api/clients', { token })).json()) as { items: { id: string }[] };
    expect(list.items.map((c) => c.id)).toEqual([client.id]);
    // One request log line per call, with the path as the app received it.
    expect(logs).toContain('"path":"/review-api/clients"');
    expect(logs).not.toContain(ADMIN.password);
  });

  it('runs submitted reviews in this process (the review engine is not built yet: the job fails saying so)', async () => {
    const { token } = await signIn();
    const clientId = ((await (await call('/review-api/clients', { token })).json()) as { items: { id: string }[] })
      .items[0]?.id;
    const submitted = await call(`/review-api/clients/${clientId}/reviewing/jobs`, {
      method: 'POST',
      token,
      body: JSON.stringify({
        provider: 'gitHostA',
        hostBaseUrl: 'https://github.com',
        repository: { externalRepositoryId: '1', ownerOrNamespace: 'acme', projectPath: 'acme/app' },
        codeReview: { platform: 'pullRequest', externalReviewId: '7', number: 7 },
      }),
    });
    expect(submitted.status).toBe(202);
    const { jobId } = (await submitted.json()) as { jobId: string };
    // The worker is woken by the submission itself, so this settles well within the default wait.
    await vi.waitFor(
      async () => {
        const status = (await (await call(`/review-api/reviewing/jobs/${jobId}/status`, { token })).json()) as {
          status: string;
          error: string | null;
        };
        expect(status).toMatchObject({ status: 'failed', error: expect.stringContaining('No review engine') });
      },
      { timeout: 5000, interval: 50 },
    );
  });

  it('shuts down cleanly: no listener, no open sockets, database closed', async () => {
    await app.close();
    await expect(fetch(`${app.url}/hello`)).rejects.toThrow();
    // The client side of keep-alive sockets closes once the server's side has gone.
    await vi.waitFor(() => expect(tcpHandles()).toBe(handlesBefore));
    expect(await app.margin.core.system.checkDatabase()).toMatchObject({ status: 'unhealthy' });
  });
});
