import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billingScenario,
  findingsAnswer,
  type ReviewHarness,
  runQueuedJob,
  startReviewHarness,
} from '../testing/review-test-support.js';
import { FACTS, scopedClient } from '../testing/triggers-test-support.js';

/**
 * A client with no AI connection of its own reviews through its tenant's catalog entry, which
 * points at a connection the tenant owns: the model is called with the tenant's key.
 */
let harness: ReviewHarness;

beforeAll(async () => {
  harness = await startReviewHarness({ env: { WORKER_ENABLED: 'false' } });
});

afterAll(async () => {
  await harness?.close();
});

describe('a review through a tenant catalog entry backed by a tenant-owned connection', () => {
  it('completes, calling the tenant connection’s model', async () => {
    const { admin, fakes, model, host } = harness;
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    const tenantId = (await admin.post('/admin/tenants', { displayName: 'Reviewing tenant' })).body.id as string;
    const key = 'sk-canary-tenant-review-0f3e';

    const created = await admin.post(
      `/tenants/${tenantId}/ai-connections`,
      model.profile({ displayName: 'Tenant model', apiKey: key, model: { maxContextTokens: 32_768 } }),
    );
    expect(created.status).toBe(201);
    const connection = `/tenants/${tenantId}/ai-connections/${created.body.id}`;
    expect((await admin.post(`${connection}/verify`)).body.status).toBe('verified');
    expect((await admin.post(`${connection}/activate`)).status).toBe(200);
    const entry = await admin.post(`/tenants/${tenantId}/logical-models`, {
      name: 'tenant-review',
      capability: 'chat',
      connectionId: created.body.id,
      configuredModelId: created.body.configuredModels[0].id,
    });
    expect(entry.status).toBe(201);

    await fakes.github.loadPullRequest(billingScenario(961));
    model.respondWith(findingsAnswer());
    const scoped = await scopedClient(admin, fakes, 'github', 'Tenant reviews', tenantId);
    expect((await admin.get(`/clients/${scoped.clientId}/ai-connections`)).body.items).toEqual([]);
    // Coordinates are reviewed only where a trigger configuration covers them.
    const webhook = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: FACTS.github.provider,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: FACTS.github.projectKey,
      enabledEvents: ['pullRequestCreated'],
      repoFilters: [],
    });
    expect(webhook.status).toBe(201);
    expect(
      (
        await admin.put(`/clients/${scoped.clientId}/logical-models/purposes/reviewDefault`, {
          logicalModelName: 'tenant-review',
        })
      ).status,
    ).toBe(200);

    const chats = model.chats.length;
    const submitted = await admin.post(`/clients/${scoped.clientId}/reviewing/jobs/by-coordinates`, {
      providerScopePath: scoped.scopePath,
      providerProjectKey: FACTS.github.projectKey,
      repositoryId: FACTS.github.repositoryId,
      pullRequestId: 961,
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const job = await runQueuedJob(host, admin, submitted.body.jobId);

    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(model.chats.length).toBeGreaterThan(chats);
    expect(model.chats.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
  });
});
