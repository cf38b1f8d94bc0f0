import { SYSTEM_TENANT_ID } from '@margin/core';
import { GH_REPOSITORY_ID } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from './scm-test-support.js';

type Persona = 'anonymous' | 'clientUser' | 'clientAdmin' | 'otherClientAdmin' | 'tenantAdmin' | 'platformAdmin';
const PERSONAS: Persona[] = [
  'anonymous',
  'clientUser',
  'clientAdmin',
  'otherClientAdmin',
  'tenantAdmin',
  'platformAdmin',
];

interface Row {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  /** Runs as the platform admin before each persona's call, so every call meets the same state. */
  prepare?: () => Promise<void>;
  expected: Record<Persona, number>;
}

/**
 * Who may call each endpoint of webhook and crawl configurations, deliveries, knowledge sources and
 * by-coordinates submissions. Commercial edition (crawl-configs available); the GitHub fake answers
 * provider calls, so an allowed call really succeeds.
 */
describe('authorization matrix: triggers, knowledge sources and by-coordinates', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  const api = {} as Record<Persona, TestApi>;
  const ids = { clientA: '', scope: '', webhook: '', crawl: '', source: '', doomedWebhook: '', doomedCrawl: '' };
  let made = 0;

  const created = async (pending: Promise<{ status: number; body: any }>) => {
    const res = await pending;
    if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const webhookBody = () => ({
    clientId: ids.clientA,
    provider: 'gitHostA',
    organizationScopeId: ids.scope,
    providerProjectKey: 'acme',
  });
  const crawlBody = () => ({
    clientId: ids.clientA,
    organizationScopeId: ids.scope,
    providerProjectKey: 'acme',
    crawlIntervalSeconds: 3600,
    isActive: false,
  });

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({ providers: fakes.providers, env: { WORKER_ENABLED: 'false' } });
    const admin = await host.admin();
    api.anonymous = host.api;
    api.platformAdmin = admin;
    await admin.patch('/admin/licensing', { edition: 'Commercial' });
    ids.clientA = await created(admin.post('/clients', { displayName: 'Client A', tenantId: SYSTEM_TENANT_ID }));
    const clientB = await created(admin.post('/clients', { displayName: 'Client B', tenantId: SYSTEM_TENANT_ID }));
    const cu = await host.createUser('client-user');
    const ca = await host.createUser('client-admin');
    const oca = await host.createUser('other-client-admin');
    const ta = await host.createUser('tenant-admin');
    await admin.put(`/clients/${ids.clientA}/members/${cu.id}`, { role: 'ClientUser' });
    await admin.put(`/clients/${ids.clientA}/members/${ca.id}`, { role: 'ClientAdministrator' });
    await admin.put(`/clients/${clientB}/members/${oca.id}`, { role: 'ClientAdministrator' });
    await admin.put(`/admin/tenants/${SYSTEM_TENANT_ID}/members/${ta.id}`, { role: 'TenantAdministrator' });
    Object.assign(api, { clientUser: cu.api, clientAdmin: ca.api, otherClientAdmin: oca.api, tenantAdmin: ta.api });

    const connection = await created(admin.post(`/clients/${ids.clientA}/provider-connections`, fakes.bodies.github()));
    ids.scope = await created(
      admin.post(`/clients/${ids.clientA}/provider-connections/${connection}/scopes`, {
        scopeType: 'organization',
        scopePath: fakes.scopePaths.github,
      }),
    );
    ids.webhook = await created(admin.post('/admin/webhook-configurations', webhookBody()));
    ids.crawl = await created(admin.post('/admin/crawl-configurations', crawlBody()));
    ids.source = await created(
      admin.post(`/admin/clients/${ids.clientA}/knowledge/sources`, {
        displayName: 'Uploader',
        sourceKind: 'repository',
        organizationScopeId: ids.scope,
        providerProjectKey: 'acme',
        canonicalSourceRef: { provider: 'gitHostA', value: GH_REPOSITORY_ID },
        defaultBranch: 'main',
      }),
    );
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  const all = (status: number): Record<Persona, number> => ({
    anonymous: 401,
    clientUser: status,
    clientAdmin: status,
    otherClientAdmin: 404,
    tenantAdmin: status,
    platformAdmin: status,
  });
  /** ClientAdministrator and above; a ClientUser is refused, another client's administrator sees nothing. */
  const administrators = (status: number): Record<Persona, number> => ({ ...all(status), clientUser: 403 });
  const stopActiveJobs = async () => {
    await host.storage.knex('review_jobs').whereIn('status', ['queued', 'running']).update({ status: 'stopped' });
  };

  const rows: Row[] = [
    {
      name: 'create a webhook configuration',
      method: 'POST',
      path: () => '/admin/webhook-configurations',
      body: webhookBody,
      expected: administrators(201),
    },
    {
      // Listing shows what the caller may see: another client's administrator gets an empty list.
      name: 'list webhook configurations of the client',
      method: 'GET',
      path: () => `/admin/webhook-configurations?clientId=${ids.clientA}`,
      expected: all(200),
    },
    {
      name: 'read a webhook configuration',
      method: 'GET',
      path: () => `/admin/webhook-configurations/${ids.webhook}`,
      expected: all(200),
    },
    {
      name: 'change a webhook configuration',
      method: 'PATCH',
      path: () => `/admin/webhook-configurations/${ids.webhook}`,
      body: () => ({ reviewTemperature: 0.5 }),
      expected: administrators(200),
    },
    {
      name: 'delete a webhook configuration',
      method: 'DELETE',
      path: () => `/admin/webhook-configurations/${ids.doomedWebhook}`,
      prepare: async () => {
        ids.doomedWebhook = await created((await host.admin()).post('/admin/webhook-configurations', webhookBody()));
      },
      expected: administrators(204),
    },
    {
      name: 'read deliveries',
      method: 'GET',
      path: () => `/admin/webhook-configurations/${ids.webhook}/deliveries?take=5`,
      expected: all(200),
    },
    {
      name: 'create a crawl configuration',
      method: 'POST',
      path: () => '/admin/crawl-configurations',
      body: crawlBody,
      expected: administrators(201),
    },
    {
      name: 'list crawl configurations of the client',
      method: 'GET',
      path: () => `/admin/crawl-configurations?clientId=${ids.clientA}`,
      expected: all(200),
    },
    {
      name: 'read a crawl configuration',
      method: 'GET',
      path: () => `/admin/crawl-configurations/${ids.crawl}`,
      expected: all(200),
    },
    {
      name: 'change a crawl configuration',
      method: 'PATCH',
      path: () => `/admin/crawl-configurations/${ids.crawl}`,
      body: () => ({ crawlIntervalSeconds: 600 + ++made }),
      expected: administrators(200),
    },
    {
      name: 'delete a crawl configuration',
      method: 'DELETE',
      path: () => `/admin/crawl-configurations/${ids.doomedCrawl}`,
      prepare: async () => {
        ids.doomedCrawl = await created((await host.admin()).post('/admin/crawl-configurations', crawlBody()));
      },
      expected: administrators(204),
    },
    {
      name: 'create a knowledge source',
      method: 'POST',
      path: () => `/admin/clients/${ids.clientA}/knowledge/sources`,
      body: () => ({
        displayName: 'Another',
        sourceKind: 'repository',
        organizationScopeId: ids.scope,
        providerProjectKey: 'acme',
        canonicalSourceRef: { provider: 'gitHostA', value: `repo-${++made}` },
        defaultBranch: 'main',
      }),
      expected: administrators(201),
    },
    {
      name: 'list knowledge sources',
      method: 'GET',
      path: () => `/admin/clients/${ids.clientA}/knowledge/sources`,
      expected: all(200),
    },
    {
      name: 'read a knowledge source',
      method: 'GET',
      path: () => `/admin/clients/${ids.clientA}/knowledge/sources/${ids.source}`,
      expected: all(200),
    },
    {
      name: 'submit by coordinates',
      method: 'POST',
      path: () => `/clients/${ids.clientA}/reviewing/jobs/by-coordinates`,
      body: () => ({
        providerScopePath: fakes.scopePaths.github,
        providerProjectKey: 'acme',
        repositoryId: GH_REPOSITORY_ID,
        pullRequestId: 42,
      }),
      prepare: stopActiveJobs,
      expected: all(202),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const got: Record<string, number> = {};
    for (const persona of PERSONAS) {
      await row.prepare?.();
      const res = await api[persona].request(row.method, row.path(), row.body?.());
      got[persona] = res.status;
      if (res.status >= 400)
        expect(res.body, `${persona}: error shape`).toMatchObject({
          error: expect.any(String),
          code: expect.any(String),
        });
    }
    expect(got).toEqual(row.expected);
  });

  it('lists across clients only what the caller may see', async () => {
    for (const path of ['/admin/webhook-configurations', '/admin/crawl-configurations']) {
      const mine = await api.clientUser.get(path);
      expect(mine.status).toBe(200);
      expect(mine.body.items.length).toBeGreaterThan(0);
      expect(mine.body.items.every((c: { clientId: string }) => c.clientId === ids.clientA)).toBe(true);
      expect((await api.otherClientAdmin.get(path)).body.items).toEqual([]);
      expect((await api.anonymous.get(path)).status).toBe(401);
    }
  });

  it('receives deliveries without credentials of a user (the generated secret authenticates)', async () => {
    const res = await fetch(`${host.url}/webhooks/v1/providers/gitHostA/${'0'.repeat(32)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(404);
  });

  it('covers every endpoint of this issue', async () => {
    const { triggersRoutes } = await import('./triggers-routes.js');
    const covered = new Set(
      rows.map((r) => `${r.method} ${new URL(r.path(), 'http://x').pathname.replace(/[0-9a-f-]{36}/g, '{id}')}`),
    );
    for (const spec of triggersRoutes) {
      if (spec.access === 'public') continue;
      const path = spec.path.replace(/\{(?:clientId|configId|sourceId)\}/g, '{id}');
      expect(covered, `${spec.method.toUpperCase()} ${spec.path}`).toContain(`${spec.method.toUpperCase()} ${path}`);
    }
  });
});
