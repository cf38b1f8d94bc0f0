import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billingScenario,
  findingsAnswer,
  type ReviewHarness,
  reviewingClient,
  runQueuedJob,
  startReviewHarness,
} from '../testing/review-test-support.js';

/**
 * A profile verified and active before the tenant's AI policy tightened: the review that would use
 * it fails naming the policy, and the model is never called (the key is not even opened).
 */
let harness: ReviewHarness;

beforeAll(async () => {
  harness = await startReviewHarness({ env: { WORKER_ENABLED: 'false' } });
});

afterAll(async () => {
  await harness?.close();
});

describe('a review under a tenant AI policy that no longer permits its connection', () => {
  it('fails the job naming the policy, without calling the model', async () => {
    const { admin, fakes, model, host } = harness;
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    await fakes.github.loadPullRequest(billingScenario(951));
    model.respondWith(findingsAnswer());
    const client = await reviewingClient(admin, fakes, 'github', model, 'Policy reviews');

    const policy = await admin.put(`/admin/tenants/${SYSTEM_TENANT_ID}/ai-policy`, {
      permittedProviderKinds: null,
      permittedHosts: ['api.openai.com'],
    });
    expect(policy.status).toBe(200);

    const submitted = await admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(951),
    );
    expect(submitted.status).toBe(202);
    const chats = model.chats.length;

    const job = await runQueuedJob(host, admin, submitted.body.jobId);

    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/tenant AI policy does not permit the host/);
    expect(model.chats.length).toBe(chats);

    // Per-tenant configuration is Commercial: in Community the stored policy stays idle.
    expect((await admin.patch('/admin/licensing', { edition: 'Community' })).status).toBe(200);
    const connections = `/clients/${client.clientId}/ai-connections`;
    const connectionId = (await admin.get(connections)).body.items[0].id;
    expect((await admin.post(`${connections}/${connectionId}/verify`)).body.status).toBe('verified');
    expect((await admin.get(`${connections}/permitted-providers`)).body.isRestricted).toBe(false);
  });
});
