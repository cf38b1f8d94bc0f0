import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import {
  billingScenario,
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  runQueuedJob,
  startReviewHarness,
} from '../testing/review-test-support.js';

// Two hosts reviewing one client's pull requests at once draw on one monthly budget. Each admits a
// job against what the ledger holds when it starts, so without shared claims every review admitted
// together would run to its end and the budget would be passed by all of them.
const POSTGRES = testDialects().includes('postgres');
const PULL_REQUESTS = 16;
const SLOTS_PER_HOST = 3;

describe.runIf(POSTGRES)('a monthly hard cap shared by two hosts on PostgreSQL', () => {
  let harness: ReviewHarness;
  let admin: TestApi;
  let clientId = '';
  const hosts: TestHost[] = [];

  beforeAll(async () => {
    harness = await startReviewHarness({ dialect: 'postgres', env: { WORKER_ENABLED: 'false' } });
    admin = harness.admin;
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    // Every call takes a while, so the hosts' reviews overlap; each costs the same.
    harness.model.respondWith(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      if (isVerifying(request)) return { ...confirmAll(request), usage: { prompt_tokens: 400, completion_tokens: 40 } };
      return { ...findingsAnswer(), usage: { prompt_tokens: 20_000, completion_tokens: 2_000 } };
    });
  }, 60_000);

  afterAll(async () => {
    for (const host of hosts) await host.close();
    await harness?.close();
  });

  it('stops both hosts at the cap, passing it by no more than the reviews in flight', async () => {
    const client = await reviewingClient(admin, harness.fakes, 'github', harness.model, 'Shared budget');
    clientId = client.clientId;
    const submit = async (number: number) => {
      await harness.fakes.github.loadPullRequest(billingScenario(number, 'a'));
      const res = await admin.post(`/clients/${clientId}/reviewing/jobs/by-coordinates`, client.coordinates(number));
      expect(res.status).toBe(202);
      return res.body.jobId as string;
    };
    // What one review costs, measured alone.
    const first = await runQueuedJob(harness.host, admin, await submit(700));
    expect(first.error).toBeNull();
    expect(first.status).toBe('completed');
    const reviewUsd = first.usage.estimatedCostUsd as number;
    expect(reviewUsd).toBeGreaterThan(0);
    const capUsd = reviewUsd * 4;
    expect((await admin.put(`/admin/clients/${clientId}/budget`, { monthlyHardCapUsd: capUsd })).status).toBe(200);

    const ids: string[] = [];
    for (let n = 1; n <= PULL_REQUESTS; n++) ids.push(await submit(700 + n));
    const reuse = { dataDir: harness.host.dataDir, databaseUrl: harness.host.databaseUrl };
    const env = {
      WORKER_POLL_INTERVAL_MILLISECONDS: '20',
      WORKER_MAX_CONCURRENT_REVIEW_JOBS: String(SLOTS_PER_HOST),
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
    };
    for (let i = 0; i < 2; i++) {
      hosts.push(await startTestHost({ dialect: 'postgres', reuse, registryBase: harness.fakes.registryBase, env }));
    }
    const statuses = await eventually(async () => {
      const jobs = await Promise.all(ids.map((id) => harness.host.storage.reviewJobs.findById(id)));
      const all = jobs.map((j) => j?.status ?? 'missing');
      return all.some((s) => s === 'queued' || s === 'running') ? undefined : all;
    }, 90_000);

    const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).toISOString();
    const spentUsd = (await harness.host.storage.usageEvents.costSince(clientId, monthStart)) / 1_000_000;
    // Each chunk claims its estimate before its calls, so the cap is passed only by what chunks in
    // flight spend beyond their estimates: less than one review here. Unshared, the six reviews the
    // two hosts admit together against an empty month all run to their end (8 reviews' worth).
    expect(spentUsd).toBeLessThan(capUsd + reviewUsd);
    expect(statuses.filter((s) => s === 'completed').length).toBeLessThan(PULL_REQUESTS);
    expect(statuses.every((s) => ['completed', 'budgetExceeded', 'budgetHeld'].includes(s))).toBe(true);
    expect(statuses.some((s) => s === 'budgetExceeded' || s === 'budgetHeld')).toBe(true);
    // Each ended job's claims went with it.
    const rows = await harness.host.storage.knex('in_flight_spend').where({ client_id: clientId });
    expect(rows).toEqual([]);
    // The jobs' own usage and the ledger still agree.
    const jobs = await Promise.all(ids.map((id) => harness.host.storage.reviewJobs.findById(id)));
    const jobsUsd = jobs.reduce((n, j) => n + Math.round((j?.usage?.estimatedCostUsd ?? 0) * 1e6), 0) / 1e6;
    expect(jobsUsd + reviewUsd).toBeCloseTo(spentUsd, 6);
  }, 180_000);
});
