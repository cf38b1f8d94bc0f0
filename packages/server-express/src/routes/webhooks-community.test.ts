import { createManualClock } from '@margin/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { delivery, FACTS, post, scopedClient } from '../testing/triggers-test-support.js';

/**
 * Community runs one review at a time and refuses explicit submissions meanwhile (409). A webhook's
 * review must not be lost to that rule: its delivery waits for its turn.
 */
describe('a webhook delivery in Community while another review is active', () => {
  const clock = createManualClock('2026-06-01T09:00:00.000Z');
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({
      providers: fakes.providers,
      clock,
      env: { WORKER_ENABLED: 'false', WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS: '50' },
    });
    admin = await host.admin();
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  it('waits without using up its attempts, then queues the review once the other one has ended', async () => {
    const scoped = await scopedClient(admin, fakes, 'github', 'Community webhooks');
    const config = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: FACTS.github.provider,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: FACTS.github.projectKey,
    });
    expect(config.status).toBe(201);
    const url = config.body.listenerUrl.replace(/^https?:\/\/[^/]+/, host.url);

    // Another pull request's review is queued (the worker is off, so it stays active).
    const other = await admin.post(`/clients/${scoped.clientId}/reviewing/jobs`, {
      provider: 'gitHostA',
      hostBaseUrl: 'https://github.com',
      repository: { externalRepositoryId: '999', ownerOrNamespace: 'acme', projectPath: 'acme/other' },
      codeReview: { platform: 'pullRequest', externalReviewId: '5', number: 5 },
    });
    expect(other.status).toBe(202);

    const sent = await post(url, delivery('github', FACTS.github.opened, config.body.generatedSecret));
    expect(sent.body).toEqual({ status: 'accepted' });
    const [recorded] = (await admin.get(`/admin/webhook-configurations/${config.body.id}/deliveries`)).body.items;
    const stored = () => host.storage.webhookDeliveries.findById(recorded.id);
    const waiting = await eventually(async () => {
      const d = await stored();
      return d?.actions[0]?.startsWith('waiting') && d.processingState === 'pending' ? d : undefined;
    });
    expect(waiting).toMatchObject({ outcome: 'accepted', attempts: 0 });

    // Still its turn to wait: the other review is active.
    clock.advance(31_000);
    host.deliveryProcessor.wake();
    // Wait for the processing to end (a claim in progress also moves processAfter, to its lease).
    await eventually(async () => {
      const d = await stored();
      return d?.processingState === 'pending' && (d.processAfter ?? '') > clock.now().toISOString();
    });
    expect(await stored()).toMatchObject({ processingState: 'pending', attempts: 0 });

    expect((await admin.post(`/reviewing/jobs/${other.body.jobId}/stop`)).status).toBe(200);
    clock.advance(31_000);
    host.deliveryProcessor.wake();
    const done = await eventually(async () => {
      const d = await stored();
      return d?.processingState === 'done' ? d : undefined;
    });
    const jobs = (await admin.get(`/clients/${scoped.clientId}/reviewing/jobs`)).body.items as Array<{
      jobId: string;
      trigger: string;
      status: string;
    }>;
    const queued = jobs.find((j) => j.trigger === 'webhook');
    expect(queued).toMatchObject({ status: 'queued' });
    expect(done.actions).toEqual([`jobQueued ${queued?.jobId}`]);
  });
});
