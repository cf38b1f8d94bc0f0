import { GH_REPOSITORY_ID } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkMatrixRow,
  clientAdmins,
  clientUsers,
  expectEveryRouteCovered,
  type MatrixRow,
  type Persona,
  setUpPersonas,
  startTestHost,
  type TestApi,
  type TestHost,
} from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';

/**
 * Who may call each endpoint of webhook and crawl configurations, deliveries, knowledge sources and
 * by-coordinates submissions. Commercial edition (crawl-configs available); the GitHub fake answers
 * provider calls, so an allowed call really succeeds.
 */
describe('authorization matrix: triggers, knowledge sources and by-coordinates', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let api: Record<Persona, TestApi>;
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
    await admin.patch('/admin/licensing', { edition: 'Commercial' });
    const personas = await setUpPersonas(host);
    api = personas.api;
    ids.clientA = personas.clientA;

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

  const stopActiveJobs = async () => {
    await host.storage.knex('review_jobs').whereIn('status', ['queued', 'running']).update({ status: 'stopped' });
  };

  const rows: MatrixRow[] = [
    {
      name: 'create a webhook configuration',
      method: 'POST',
      path: () => '/admin/webhook-configurations',
      body: webhookBody,
      expected: clientAdmins(201),
    },
    {
      // Listing shows what the caller may see: another client's administrator gets an empty list.
      name: 'list webhook configurations of the client',
      method: 'GET',
      path: () => `/admin/webhook-configurations?clientId=${ids.clientA}`,
      expected: clientUsers(200),
    },
    {
      name: 'read a webhook configuration',
      method: 'GET',
      path: () => `/admin/webhook-configurations/${ids.webhook}`,
      expected: clientUsers(200),
    },
    {
      name: 'change a webhook configuration',
      method: 'PATCH',
      path: () => `/admin/webhook-configurations/${ids.webhook}`,
      body: () => ({ reviewTemperature: 0.5 }),
      expected: clientAdmins(200),
    },
    {
      name: 'delete a webhook configuration',
      method: 'DELETE',
      path: () => `/admin/webhook-configurations/${ids.doomedWebhook}`,
      prepare: async () => {
        ids.doomedWebhook = await created((await host.admin()).post('/admin/webhook-configurations', webhookBody()));
      },
      expected: clientAdmins(204),
    },
    {
      name: 'read deliveries',
      method: 'GET',
      path: () => `/admin/webhook-configurations/${ids.webhook}/deliveries?take=5`,
      expected: clientUsers(200),
    },
    {
      name: 'create a crawl configuration',
      method: 'POST',
      path: () => '/admin/crawl-configurations',
      body: crawlBody,
      expected: clientAdmins(201),
    },
    {
      name: 'list crawl configurations of the client',
      method: 'GET',
      path: () => `/admin/crawl-configurations?clientId=${ids.clientA}`,
      expected: clientUsers(200),
    },
    {
      name: 'read a crawl configuration',
      method: 'GET',
      path: () => `/admin/crawl-configurations/${ids.crawl}`,
      expected: clientUsers(200),
    },
    {
      name: 'change a crawl configuration',
      method: 'PATCH',
      path: () => `/admin/crawl-configurations/${ids.crawl}`,
      body: () => ({ crawlIntervalSeconds: 600 + ++made }),
      expected: clientAdmins(200),
    },
    {
      name: 'delete a crawl configuration',
      method: 'DELETE',
      path: () => `/admin/crawl-configurations/${ids.doomedCrawl}`,
      prepare: async () => {
        ids.doomedCrawl = await created((await host.admin()).post('/admin/crawl-configurations', crawlBody()));
      },
      expected: clientAdmins(204),
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
      expected: clientAdmins(201),
    },
    {
      name: 'list knowledge sources',
      method: 'GET',
      path: () => `/admin/clients/${ids.clientA}/knowledge/sources`,
      expected: clientUsers(200),
    },
    {
      name: 'read a knowledge source',
      method: 'GET',
      path: () => `/admin/clients/${ids.clientA}/knowledge/sources/${ids.source}`,
      expected: clientUsers(200),
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
      expected: clientUsers(202),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await checkMatrixRow(api, row);
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
    expectEveryRouteCovered(rows, triggersRoutes);
  });
});
