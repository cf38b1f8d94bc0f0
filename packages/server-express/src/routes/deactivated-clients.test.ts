import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { GH_REPOSITORY_ID } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledEngine, eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { delivery, FACTS, post, scopedClient } from '../testing/triggers-test-support.js';

const PUBLIC_BASE = 'https://margin.example.com';
const DEACTIVATED = {
  code: 'conflict',
  reason: 'clientDeactivated',
  error: 'This client is deactivated: it serves nothing until a client administrator activates it again.',
};

describe('a deactivated client serves nothing', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;
  let clients = 0;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({
      providers: fakes.providers,
      env: {
        MARGIN_PUBLIC_BASE_URL: PUBLIC_BASE,
        WORKER_ENABLED: 'false',
        CRAWL_SCHEDULER_INTERVAL_MILLISECONDS: '20',
      },
    });
    admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  /** A GitHub client with a connection, a scope, and a webhook configuration. */
  const setUp = async () => {
    const scoped = await scopedClient(admin, fakes, 'github', `Deactivated ${++clients}`);
    const webhook = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: 'gitHostA',
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      enabledEvents: ['pullRequestCreated', 'pullRequestUpdated'],
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    return { ...scoped, webhook: webhook.body };
  };
  const setActive = async (clientId: string, isActive: boolean) => {
    const res = await admin.patch(`/clients/${clientId}`, { isActive });
    expect(res.status).toBe(200);
    expect(res.body.isActive).toBe(isActive);
  };
  const submission = (number: number) => ({
    provider: 'gitHostA',
    hostBaseUrl: 'https://github.com',
    repository: { externalRepositoryId: '4242', ownerOrNamespace: 'acme', projectPath: 'acme/app' },
    codeReview: { platform: 'pullRequest', externalReviewId: String(number), number },
    reviewRevision: { headSha: 'c'.repeat(40), baseSha: 'd'.repeat(40) },
  });

  it('answers API calls on it with 409 saying so; the client itself can still be read and activated', async () => {
    const { clientId, connectionId, webhook, scopePath } = await setUp();
    await setActive(clientId, false);
    expect((await admin.get(`/clients/${clientId}`)).body).toMatchObject({ id: clientId, isActive: false });
    const calls: Array<[string, Promise<{ status: number; body: Record<string, unknown> }>]> = [
      ['connections', admin.get(`/clients/${clientId}/provider-connections`)],
      ['verify', admin.post(`/clients/${clientId}/provider-connections/${connectionId}/verify`)],
      ['AI connections', admin.get(`/clients/${clientId}/ai-connections`)],
      ['logical models', admin.get(`/clients/${clientId}/logical-models`)],
      ['submit', admin.post(`/clients/${clientId}/reviewing/jobs`, submission(7))],
      ['jobs', admin.get(`/clients/${clientId}/reviewing/jobs`)],
      ['blocks', admin.get(`/clients/${clientId}/reviewing/blocked-prs`)],
      ['webhook configuration', admin.get(`/admin/webhook-configurations/${webhook.id}`)],
      ['members', admin.get(`/clients/${clientId}/members`)],
    ];
    for (const [what, call] of calls) {
      const res = await call;
      expect(res.status, what).toBe(409);
      expect(res.body, what).toMatchObject(DEACTIVATED);
    }
    const byCoordinates = await admin.post(`/clients/${clientId}/reviewing/jobs/by-coordinates`, {
      providerScopePath: scopePath,
      providerProjectKey: 'acme',
      repositoryId: GH_REPOSITORY_ID,
      pullRequestId: 42,
    });
    expect(byCoordinates.status).toBe(409);
    expect(byCoordinates.body).toMatchObject({ ...DEACTIVATED, outcome: 'notSubmittable' });

    await setActive(clientId, true);
    expect((await admin.get(`/clients/${clientId}/provider-connections`)).status).toBe(200);
  });

  it('its webhooks answer 404, and its crawl configurations stay idle, until it is active again', async () => {
    const { clientId, scopeId, webhook } = await setUp();
    const url = webhook.listenerUrl.replace(PUBLIC_BASE, host.url);
    const crawl = await admin.post('/admin/crawl-configurations', {
      clientId,
      organizationScopeId: scopeId,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 3600,
    });
    expect(crawl.status).toBe(201);
    await eventually(async () => (await host.storage.crawlConfigurations.findById(crawl.body.id))?.lastCrawledAt);
    await setActive(clientId, false);
    const due = new Date(Date.now() - 1000).toISOString();
    await host.storage.knex('crawl_configurations').where({ id: crawl.body.id }).update({ next_crawl_at: due });
    const crawledBefore = (await host.storage.crawlConfigurations.findById(crawl.body.id))?.lastCrawledAt;

    const refused = await post(url, delivery('github', FACTS.github.opened, webhook.generatedSecret));
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ error: 'No webhook configuration listens at this address.', code: 'not_found' });
    // Several scheduler rounds later the due configuration has not been crawled.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await host.storage.crawlConfigurations.findById(crawl.body.id))?.lastCrawledAt).toBe(crawledBefore);

    await setActive(clientId, true);
    const accepted = await post(url, delivery('github', FACTS.github.updated, webhook.generatedSecret));
    expect(accepted.status).toBe(200);
    await eventually(
      async () => (await host.storage.crawlConfigurations.findById(crawl.body.id))?.lastCrawledAt !== crawledBefore,
    );
  });

  it('a deactivated tenant’s clients answer 409 saying so and receive no webhooks, until it is active again', async () => {
    const tenant = await admin.post('/admin/tenants', { displayName: 'Closing', slug: 'closing' });
    expect(tenant.status).toBe(201);
    const scoped = await scopedClient(admin, fakes, 'github', 'Closing client', tenant.body.id);
    const webhook = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: 'gitHostA',
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      enabledEvents: ['pullRequestCreated', 'pullRequestUpdated'],
    });
    expect(webhook.status).toBe(201);
    const url = webhook.body.listenerUrl.replace(PUBLIC_BASE, host.url);
    expect((await admin.patch(`/admin/tenants/${tenant.body.id}`, { isActive: false })).status).toBe(200);

    const refused = await admin.post(`/clients/${scoped.clientId}/reviewing/jobs`, submission(21));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', reason: 'tenantDeactivated' });
    const hook = await post(url, delivery('github', FACTS.github.opened, webhook.body.generatedSecret));
    expect(hook.status).toBe(404);

    expect((await admin.patch(`/admin/tenants/${tenant.body.id}`, { isActive: true })).status).toBe(200);
    expect((await admin.get(`/clients/${scoped.clientId}/provider-connections`)).status).toBe(200);
    const accepted = await post(url, delivery('github', FACTS.github.updated, webhook.body.generatedSecret));
    expect(accepted.status).toBe(200);
  });

  it('its queued jobs do not start while it is deactivated, and start once it is active again', async () => {
    const engine = new ControlledEngine();
    // One review at a time on this host: the first holds the worker, the second waits in the queue.
    const worker = await startTestHost({
      reviewEngine: engine,
      env: { WORKER_POLL_INTERVAL_MILLISECONDS: '20', WORKER_MAX_CONCURRENT_REVIEW_JOBS: '1' },
    });
    try {
      const api = await worker.admin();
      expect((await api.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
      const client = async (name: string) =>
        (await api.post('/clients', { displayName: name, tenantId: SYSTEM_TENANT_ID })).body.id as string;
      const [busy, idle] = [await client('Busy'), await client('Idle')];
      const first = await api.post(`/clients/${busy}/reviewing/jobs`, submission(11));
      await engine.started(first.body.jobId);
      const waiting = await api.post(`/clients/${idle}/reviewing/jobs`, submission(12));
      expect(waiting.status).toBe(202);
      expect((await api.patch(`/clients/${idle}`, { isActive: false })).body.isActive).toBe(false);
      engine.complete(first.body.jobId);
      await eventually(
        async () => (await worker.storage.reviewJobs.findById(first.body.jobId))?.status === 'completed',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await worker.storage.reviewJobs.findById(waiting.body.jobId))?.status).toBe('queued');
      expect(engine.runs).not.toContain(waiting.body.jobId);

      expect((await api.patch(`/clients/${idle}`, { isActive: true })).body.isActive).toBe(true);
      await engine.started(waiting.body.jobId);
      engine.complete(waiting.body.jobId);
    } finally {
      await worker.close();
    }
  });
});
