import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  type FakeChatModel,
  GH_OWNER,
  GH_REPOSITORY_ID,
  type GitHubFake,
  startFakeChatModel,
  startGitHubFake,
} from '@margin/providers/testing';
import { createLogger, createMarginRouter } from '@margin/server-express';
import {
  billingScenario,
  confirmAll,
  findingsAnswer,
  isVerifying,
  type OidcTestIssuer,
  startOidcTestIssuer,
  TestBrowser,
  userOf,
} from '@margin/server-express/test-kits';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningApp, startApp } from './app.js';

const ADMIN = { username: 'admin', password: 'example-admin-password' };
const PAT = 'ghp_embedExampleToken0123456789abcdefAB';
const NUMBER = 7;
/** Where the app's users reach the mount (a proxy in front of the app, in production). */
const PUBLIC_BASE_URL = 'https://portal.example.test/review-api';
const REDIRECT_URI = `${PUBLIC_BASE_URL}/auth/sso/callback`;

let bareLogs = '';
const capture = () =>
  new Writable({
    write(chunk, _encoding, done) {
      bareLogs += chunk.toString();
      done();
    },
  });

/** Listening servers and open sockets of this process: what a clean shutdown must give back. */
const tcpHandles = () =>
  process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'TCPSocketWrap').length;

describe('Margin embedded in an existing Express app under /review-api', () => {
  let dir: string;
  let app: RunningApp;
  let github: GitHubFake;
  let model: FakeChatModel;
  let issuer: OidcTestIssuer;
  let logs = '';
  let handlesBefore: number;

  beforeAll(async () => {
    handlesBefore = tcpHandles();
    // A GitHub Enterprise fake serving one pull request, and an OpenAI-compatible model fake, on loopback.
    github = await startGitHubFake({ pat: PAT });
    model = await startFakeChatModel();
    // A real OpenID Connect provider on loopback, with the mount's public redirect URI registered.
    issuer = await startOidcTestIssuer({ redirectUris: [REDIRECT_URI] });
    dir = await mkdtemp(join(tmpdir(), 'margin-embed-'));
    app = await startApp({
      databaseUrl: `sqlite:${join(dir, 'app.db')}`,
      jwtSecret: randomBytes(48).toString('base64url'),
      secretsKey: randomBytes(32),
      bootstrapAdmin: ADMIN,
      publicBaseUrl: PUBLIC_BASE_URL,
      // The model fake and the identity provider listen on loopback over plain http.
      allowPrivateEgress: true,
      port: 0,
      logger: createLogger({
        level: 'info',
        destination: new Writable({
          write(chunk, _encoding, done) {
            logs += chunk.toString();
            done();
          },
        }),
      }),
    });
  });
  afterAll(async () => {
    await app.close();
    await Promise.all([github.close(), model.close(), issuer.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  const call = (path: string, init: Omit<RequestInit, 'body'> & { token?: string; json?: unknown } = {}) =>
    fetch(app.url + path, {
      ...init,
      ...(init.json === undefined ? {} : { method: init.method ?? 'POST', body: JSON.stringify(init.json) }),
      headers: {
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
    });
  const signIn = async () => {
    const res = await call('/review-api/auth/login', { json: ADMIN });
    expect(res.status).toBe(200);
    return { res, token: ((await res.json()) as { accessToken: string }).accessToken };
  };
  const created = async (res: Response) => {
    const body = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.id;
  };

  it('keeps serving the app’s own route', async () => {
    const res = await call('/hello');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ app: 'team-portal', message: 'Hello from the app’s own route.' });
  });

  it('serves Margin only under the prefix, with the service’s health', async () => {
    const health = await call('/review-api/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
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
    // One request log line per call through the logger the app handed over, with the path as the app received it.
    expect(logs).toContain('"path":"/review-api/clients"');
    expect(logs).not.toContain(ADMIN.password);
  });

  it('reviews a pull request in this process and posts the findings to the provider', async () => {
    const scenario = billingScenario(NUMBER);
    await github.loadPullRequest(scenario);
    model.respondWith((request) => {
      if (isVerifying(request)) return confirmAll(request);
      if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
      return findingsAnswer({
        path: 'src/billing.ts',
        quote: 'return total / count;',
        startLine: 50,
        endLine: 50,
        category: 'bug',
        title: 'Division by zero for an empty order',
        severity: 'error',
        message: 'An order without lines has `count` 0, so `total / count` is NaN and the invoice shows NaN.',
      });
    });

    const { token } = await signIn();
    const tenants = (await (await call('/review-api/admin/tenants', { token })).json()) as { items: { id: string }[] };
    const clientId = await created(
      await call('/review-api/clients', {
        token,
        json: { displayName: 'Payments team', tenantId: tenants.items[0]?.id },
      }),
    );
    await created(
      await call(`/review-api/clients/${clientId}/provider-connections`, {
        token,
        json: {
          providerFamily: 'gitHostA',
          authenticationKind: 'personalAccessToken',
          hostBaseUrl: github.hostUrl,
          displayName: 'GitHub Enterprise',
          secret: PAT,
        },
      }),
    );
    const aiConnection = `/review-api/clients/${clientId}/ai-connections`;
    const aiId = await created(
      await call(aiConnection, { token, json: model.profile({ model: { maxContextTokens: 32_768 } }) }),
    );
    expect((await call(`${aiConnection}/${aiId}/verify`, { token, method: 'POST' })).status).toBe(200);
    expect((await call(`${aiConnection}/${aiId}/activate`, { token, method: 'POST' })).status).toBe(200);

    const submitted = await call(`/review-api/clients/${clientId}/reviewing/jobs`, {
      token,
      json: {
        provider: 'gitHostA',
        hostBaseUrl: github.hostUrl,
        repository: {
          externalRepositoryId: GH_REPOSITORY_ID,
          ownerOrNamespace: GH_OWNER,
          projectPath: 'acme/uploader',
        },
        codeReview: { platform: 'pullRequest', externalReviewId: String(NUMBER), number: NUMBER },
        reviewRevision: { headSha: scenario.headSha, baseSha: scenario.baseSha },
      },
    });
    expect(submitted.status).toBe(202);
    const { jobId } = (await submitted.json()) as { jobId: string };

    // The worker is woken by the submission itself; the review is a handful of model calls.
    const job = await vi.waitFor(
      async () => {
        const status = (await (await call(`/review-api/reviewing/jobs/${jobId}/status`, { token })).json()) as {
          status: string;
          error: string | null;
          result: { findings: Array<{ filePath: string; startLine: number; publication: string }> } | null;
        };
        expect(['completed', 'failed']).toContain(status.status);
        return status;
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(job.error).toBeNull();
    expect(job.status).toBe('completed');
    expect(job.result?.findings).toEqual([
      expect.objectContaining({ filePath: 'src/billing.ts', startLine: 50, publication: 'published' }),
    ]);
    // On the provider: one review with the inline comment, and the summary on the pull request.
    const posted = (pattern: RegExp) => github.writes.filter((w) => w.method === 'POST' && pattern.test(w.path));
    expect(posted(/\/pulls\/\d+\/reviews$/)).toHaveLength(1);
    expect(posted(/\/issues\/\d+\/comments$/)).toHaveLength(1);
  }, 30_000);

  it('signs a tenant’s user in through an OpenID Connect provider, with the redirect URI under publicBaseUrl', async () => {
    const { token } = await signIn();
    const licensed = await call('/review-api/admin/licensing', {
      token,
      method: 'PATCH',
      json: { edition: 'Commercial' },
    });
    expect(licensed.status).toBe(200);
    const tenantId = await created(
      await call('/review-api/admin/tenants', { token, json: { displayName: 'Acme', slug: 'acme' } }),
    );
    const providerId = await created(
      await call(`/review-api/admin/tenants/${tenantId}/identity-providers`, {
        token,
        json: {
          displayName: 'Acme login',
          issuerUrl: issuer.issuer,
          clientId: issuer.clientId,
          clientSecret: issuer.clientSecret,
          allowedEmailDomains: ['acme.test'],
          autoCreateUsers: true,
        },
      }),
    );
    const listed = await call('/review-api/auth/sso/providers?tenant=acme');
    expect(await listed.json()).toEqual({
      providers: [{ id: providerId, displayName: 'Acme login', startUrl: `/review-api/auth/sso/${providerId}/start` }],
    });

    const browser = new TestBrowser();
    const appHost = new URL(app.url).host;
    const discoveriesBefore = issuer.discoveries;
    issuer.nextLogin = { sub: 'ada-1', email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace' };
    // Through the provider, until it sends the browser back to the public redirect URI.
    const back = await browser.follow(`${app.url}/review-api/auth/sso/${providerId}/start?returnTo=/portal`, (a) =>
      Boolean(a.location?.startsWith(`${REDIRECT_URI}?`)),
    );
    expect(back.url.origin).toBe(issuer.issuer);
    // The proxy's part: the public URL reaches the app at the same path.
    const callback = new URL(back.location as string);
    const answer = await browser.get(`${app.url}${callback.pathname}${callback.search}`);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${app.url}/portal`);
    expect(issuer.discoveries - discoveriesBefore).toBe(1);

    const refresh = browser.cookie(appHost, 'margin_refresh');
    expect(refresh, 'refresh cookie').toBeDefined();
    const refreshed = await fetch(`${app.url}/review-api/auth/refresh`, {
      method: 'POST',
      headers: { cookie: `margin_refresh=${refresh}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refreshed.status).toBe(200);
    const session = (await refreshed.json()) as { accessToken: string };
    const me = await call('/review-api/auth/me', { token: session.accessToken });
    expect(await me.json()).toMatchObject({
      username: 'ada@acme.test',
      displayName: 'Ada Lovelace',
      tenantRoles: { [tenantId]: 'TenantUser' },
    });
  });

  it('without the router’s sso option, sends the browser to sign-in with sso_unavailable and logs the option', async () => {
    const bare = express();
    bare.use(
      '/review-api',
      createMarginRouter(app.margin, { logger: createLogger({ level: 'info', destination: capture() }) }),
    );
    const server = bare.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/review-api/auth/sso/any-provider/start`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/sign-in?error=sso_unavailable');
      expect(bareLogs).toContain('pass createMarginRouter the `sso` option');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('shuts down cleanly: no listener, no open sockets, database closed', async () => {
    await app.close();
    await expect(fetch(`${app.url}/hello`)).rejects.toThrow();
    await github.close();
    await model.close();
    await issuer.close();
    // The client side of keep-alive sockets closes once the server's side has gone.
    await vi.waitFor(() => expect(tcpHandles()).toBe(handlesBefore));
    expect(await app.margin.core.system.checkDatabase()).toMatchObject({ status: 'unhealthy' });
  });
});
