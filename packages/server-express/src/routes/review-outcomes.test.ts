import type { MarginEvents } from '@margin/core';
import type { FakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi, TestHost } from '../testing/index.js';
import {
  billingScenario,
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  runQueuedJob as runQueuedJobOn,
  startReviewHarness,
  userOf,
} from '../testing/review-test-support.js';
import type { ScmFakes } from '../testing/scm-test-support.js';

/**
 * What a job ends as, and what it announces, when the worker runs it through the stock host's engine.
 * The host runs no worker of its own (`WORKER_ENABLED=false`), so a test can change the pull request
 * between queueing and running; each test runs the queue with a worker on the host's core.
 */
let fakes: ScmFakes;
let model: FakeChatModel;
let host: TestHost;
let admin: TestApi;
const events: Array<{ name: keyof MarginEvents; payload: unknown }> = [];

let harness: ReviewHarness;

beforeAll(async () => {
  harness = await startReviewHarness({ env: { WORKER_ENABLED: 'false' } });
  ({ fakes, model, host, admin } = harness);
  host.core.events.on('*', (name, payload) => {
    events.push({ name, payload });
  });
});

afterAll(async () => {
  await harness?.close();
});

const runQueuedJob = (jobId: string) => runQueuedJobOn(host, admin, jobId);

const eventsOf = (jobId: string) =>
  events.filter((e) => (e.payload as { jobId?: string }).jobId === jobId).map((e) => [e.name, e.payload]);

describe('a pull request that changed between queueing and running', () => {
  it.each([
    ['closed', 'The pull request is closed.'],
    ['merged', 'The pull request is merged.'],
  ] as const)(
    'ends the job cancelled when it was %s meanwhile: no model call, nothing posted',
    async (status, reason) => {
      const number = status === 'closed' ? 801 : 802;
      await fakes.github.loadPullRequest(billingScenario(number));
      const client = await reviewingClient(admin, fakes, 'github', model, `Cancelled when ${status}`);
      const submitted = await admin.post(
        `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
        client.coordinates(number),
      );
      expect(submitted.status).toBe(202);
      await fakes.github.loadPullRequest({ ...billingScenario(number), status });
      const chats = model.chats.length;
      const writes = fakes.github.writes.length;

      const job = await runQueuedJob(submitted.body.jobId);

      expect(job).toMatchObject({ status: 'cancelled', error: reason, result: { findings: [] } });
      expect(model.chats.length).toBe(chats);
      expect(fakes.github.writes.slice(writes).filter((w) => w.method !== 'GET')).toEqual([]);
      const protocol = await admin.get(`/jobs/${job.jobId}/protocol`);
      expect(protocol.body.map((p: { stage: string }) => p.stage)).toEqual(['resolve']);
      expect(eventsOf(job.jobId)).toContainEqual([
        'job.completed',
        { jobId: job.jobId, clientId: client.clientId, status: 'cancelled' },
      ]);
    },
  );

  it('ends the job cancelled, naming the reason, when the pull request was blocked meanwhile', async () => {
    const number = 803;
    await fakes.github.loadPullRequest(billingScenario(number));
    const client = await reviewingClient(admin, fakes, 'github', model, 'Cancelled when blocked');
    const submitted = await admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(number),
    );
    expect(submitted.status).toBe(202);
    const blocked = await admin.post(`/clients/${client.clientId}/reviewing/blocked-prs`, {
      ...client.coordinates(number),
      reason: 'Release freeze',
    });
    expect(blocked.status).toBe(200);
    const chats = model.chats.length;

    const job = await runQueuedJob(submitted.body.jobId);

    expect(job).toMatchObject({ status: 'cancelled', error: 'The pull request is blocked: Release freeze' });
    expect(model.chats.length).toBe(chats);
  });
});

describe('a completed review', () => {
  it('runs under its configuration’s temperature, shows it in the status, and announces each thread and the end', async () => {
    const number = 804;
    await fakes.github.loadPullRequest(billingScenario(number));
    const client = await reviewingClient(admin, fakes, 'github', model, 'Warm reviews');
    const patched = await admin.patch(`/admin/webhook-configurations/${client.webhook.id}`, { reviewTemperature: 0.7 });
    expect(patched.status).toBe(200);
    model.respondWith((request) => {
      if (isVerifying(request)) return confirmAll(request);
      if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
      return findingsAnswer({
        path: 'src/billing.ts',
        quote: 'const total = price * qty;',
        startLine: 42,
        endLine: 42,
        category: 'bug',
        title: 'Total ignores the discount',
        severity: 'error',
        message: 'The total is computed from `price` and `qty` only, so a discounted order is charged in full.',
      });
    });
    const chats = model.chats.length;
    const submitted = await admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(number),
    );
    expect(submitted.status).toBe(202);

    const job = await runQueuedJob(submitted.body.jobId);

    expect(job.status).toBe('completed');
    expect(job.configuration).toMatchObject({ configurationId: client.webhook.id, reviewTemperature: 0.7 });
    const calls = model.chats.slice(chats);
    const reviewing = calls.filter((c) => !isVerifying(c));
    const verifying = calls.filter((c) => isVerifying(c));
    expect(reviewing.length).toBeGreaterThan(0);
    expect(verifying.length).toBeGreaterThan(0);
    // The review conversations run at the configuration's temperature; the verifier is deterministic.
    expect(reviewing.map((c) => c.body.temperature)).toEqual(reviewing.map(() => 0.7));
    expect(verifying.map((c) => c.body.temperature)).toEqual(verifying.map(() => 0));

    const [finding] = job.result.findings;
    expect(finding).toMatchObject({ publication: 'published', providerThreadId: expect.any(String) });
    expect(eventsOf(job.jobId)).toEqual([
      ['job.queued', { jobId: job.jobId, clientId: client.clientId, trigger: 'byCoordinates' }],
      ['job.started', { jobId: job.jobId, clientId: client.clientId, attempt: 1 }],
      ['finding.published', { jobId: job.jobId, findingId: finding.id, providerThreadId: finding.providerThreadId }],
      ['job.completed', { jobId: job.jobId, clientId: client.clientId, status: 'completed' }],
    ]);
  });
});
