import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import type { FakeChatModel } from '@margin/providers/testing';
import type { TestDialect } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi, TestHost } from '../testing/index.js';
import {
  billingScenario,
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  runQueuedJob,
  startReviewHarness,
  userOf,
} from '../testing/review-test-support.js';
import type { ScmFakes } from '../testing/scm-test-support.js';

/**
 * The usage ledger and its reports through the stock host: reviews run against a priced fake model
 * (US$1 per million input tokens, US$4 per million output, US$0.25 per million cached), then the
 * client's token usage and the tenant's spend add up exactly to the ledger's events and to the
 * jobs' own usage. Community serves token usage and refuses spend with the license message.
 */
const micros = (usd: number) => Math.round(usd * 1_000_000);

interface JobUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  estimatedCostUsd: number;
}

describe.each<TestDialect>(['sqlite', 'postgres'])('usage and spend reports on %s', (dialect) => {
  let harness: ReviewHarness;
  let fakes: ScmFakes;
  let model: FakeChatModel;
  let host: TestHost;
  let admin: TestApi;
  let clientId = '';
  const jobs: Array<{ id: string; usage: JobUsage }> = [];

  /** Every review call finds one defect (1,200 input tokens, 300 of them cached, 150 output); the verifier confirms. */
  function pricedAnswers() {
    model.respondWith((request) => {
      if (isVerifying(request)) return { ...confirmAll(request), usage: { prompt_tokens: 400, completion_tokens: 40 } };
      const answer = userOf(request).includes('## File: src/billing.ts')
        ? findingsAnswer({
            path: 'src/billing.ts',
            quote: 'const total = price * qty;',
            startLine: 40,
            endLine: 40,
            category: 'bug',
            title: 'Total ignores the discount',
            severity: 'error',
            message: 'The total is computed from `price` and `qty` only, so a discounted order is charged in full.',
          })
        : findingsAnswer();
      return { ...answer, usage: { prompt_tokens: 1200, completion_tokens: 150, cached_tokens: 300 } };
    });
  }

  let coordinates: (pullRequestId: number) => unknown;

  beforeAll(async () => {
    harness = await startReviewHarness({ dialect, env: { WORKER_ENABLED: 'false' } });
    ({ fakes, model, host, admin } = harness);
    const client = await reviewingClient(admin, fakes, 'github', model, `Spend on ${dialect}`);
    clientId = client.clientId;
    coordinates = client.coordinates;
    for (const [number, head] of [
      [501, 'a'],
      [502, 'b'],
    ] as const) {
      await fakes.github.loadPullRequest(billingScenario(number, head));
      pricedAnswers();
      const submitted = await admin.post(
        `/clients/${clientId}/reviewing/jobs/by-coordinates`,
        client.coordinates(number),
      );
      expect(submitted.status).toBe(202);
      const job = await runQueuedJob(host, admin, submitted.body.jobId);
      expect(job.status).toBe('completed');
      jobs.push({ id: submitted.body.jobId, usage: job.usage });
    }
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('writes one ledger event per model call, agreeing exactly with the job’s own usage', async () => {
    for (const job of jobs) {
      const events = await host.storage.usageEvents.listForJob(job.id);
      // The small change is reviewed at low effort, then its finding verified: both priced, both in the ledger.
      expect(new Set(events.map((e) => e.purpose))).toEqual(new Set(['reviewLowEffort', 'reviewVerification']));
      expect(events.every((e) => e.clientId === clientId && e.tenantId === SYSTEM_TENANT_ID)).toBe(true);
      expect(events.every((e) => e.source === 'review' && !e.costIsApproximate)).toBe(true);
      expect(events.reduce((n, e) => n + e.inputTokens, 0)).toBe(job.usage.inputTokens);
      expect(events.reduce((n, e) => n + e.cachedInputTokens, 0)).toBe(job.usage.cachedInputTokens);
      expect(events.reduce((n, e) => n + e.outputTokens, 0)).toBe(job.usage.outputTokens);
      expect(events.reduce((n, e) => n + micros(e.estimatedCostUsd), 0)).toBe(micros(job.usage.estimatedCostUsd));
      expect(job.usage).not.toHaveProperty('calls');
    }
  });

  it('reports the client’s token usage (both editions), totals equal to the jobs’ usage and to its rows', async () => {
    const calls = (await Promise.all(jobs.map((j) => host.storage.usageEvents.listForJob(j.id)))).flat().length;
    const jobsTotal = (key: keyof JobUsage) => jobs.reduce((n, j) => n + j.usage[key], 0);
    for (const groupBy of ['day', 'model', 'purpose', 'source', 'repository']) {
      const res = await admin.get(`/admin/clients/${clientId}/token-usage?groupBy=${groupBy}`);
      expect(res.status).toBe(200);
      const { totals, rows } = res.body;
      expect(res.body.groupBy).toBe(groupBy);
      expect(totals).toMatchObject({
        calls,
        inputTokens: jobsTotal('inputTokens'),
        cachedInputTokens: jobsTotal('cachedInputTokens'),
        outputTokens: jobsTotal('outputTokens'),
        costIsApproximate: false,
      });
      expect(micros(totals.estimatedCostUsd)).toBe(jobs.reduce((n, j) => n + micros(j.usage.estimatedCostUsd), 0));
      expect(rows.reduce((n: number, r: { calls: number }) => n + r.calls, 0)).toBe(calls);
    }
    const bySource = await admin.get(`/admin/clients/${clientId}/token-usage?groupBy=source`);
    expect(bySource.body.rows.map((r: { key: string }) => r.key)).toEqual(['review']);
    // The default window is the current calendar month (UTC).
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const byDay = await admin.get(`/admin/clients/${clientId}/token-usage`);
    expect(byDay.body).toMatchObject({ groupBy: 'day', from: `${month}-01` });
    expect(byDay.body.to.slice(0, 7)).toBe(month);
    expect(byDay.body.rows.map((r: { key: string }) => r.key)).toEqual([now.toISOString().slice(0, 10)]);
    // A window with nothing in it.
    const empty = await admin.get(`/admin/clients/${clientId}/token-usage?from=2020-01-01&to=2020-01-31`);
    expect(empty.body).toMatchObject({ from: '2020-01-01', to: '2020-01-31', rows: [], totals: { calls: 0 } });
  });

  it('refuses a bad window or grouping with 400 naming the field', async () => {
    const bad = async (query: string, field: string) => {
      const res = await admin.get(`/admin/clients/${clientId}/token-usage?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(JSON.stringify(res.body), query).toContain(field);
    };
    await bad('groupBy=client', 'groupBy');
    await bad('from=2026-02-30', 'from');
    await bad('from=2025-01-01&to=2026-02-05', 'to');
    await bad('from=2026-03-02&to=2026-03-01', 'to');
    const longest = await admin.get(`/admin/clients/${clientId}/token-usage?from=2025-01-01&to=2026-02-04`);
    expect(longest.status).toBe(200);
  });

  it('serves the tenant’s spend only with budgeting: 409 license_required in Community, the same totals in Commercial', async () => {
    expect((await admin.patch('/admin/licensing', { edition: 'Community' })).status).toBe(200);
    const refused = await admin.get(`/tenants/${SYSTEM_TENANT_ID}/spend`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'license_required', capability: 'budgeting' });
    expect(refused.body.error).toMatch(/budgeting/);

    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    const spend = await admin.get(`/tenants/${SYSTEM_TENANT_ID}/spend`);
    expect(spend.status).toBe(200);
    expect(spend.body.groupBy).toBe('client');
    const usage = await admin.get(`/admin/clients/${clientId}/token-usage`);
    const { key, ...ofClient } = spend.body.rows.find((r: { key: string }) => r.key === clientId);
    expect(ofClient).toEqual(usage.body.totals);
    const byModel = await admin.get(`/tenants/${SYSTEM_TENANT_ID}/spend?groupBy=model`);
    expect(byModel.body.totals).toEqual(spend.body.totals);
    expect((await admin.get(`/tenants/${SYSTEM_TENANT_ID}/spend?groupBy=purpose`)).status).toBe(400);
  });

  it('holds a job at the monthly hard cap before any model call, enforced only with budgeting; a reset re-admits it', async () => {
    const budget = `/admin/clients/${clientId}/budget`;
    expect((await admin.put(budget, { monthlyHardCapUsd: -1 })).status).toBe(400);
    const inverted = await admin.put(budget, { monthlySoftCapUsd: 2, monthlyHardCapUsd: 1 });
    expect(inverted.status).toBe(400);
    expect(JSON.stringify(inverted.body)).toContain('monthlySoftCapUsd');

    // A cap the two reviews already passed.
    const saved = await admin.put(budget, {
      monthlySoftCapUsd: 0.0001,
      monthlyHardCapUsd: 0.0002,
      pullRequestHardCapUsd: 5,
    });
    expect(saved.status).toBe(200);
    const usage = await admin.get(`/admin/clients/${clientId}/token-usage`);
    expect(saved.body).toMatchObject({
      monthlySoftCapUsd: 0.0001,
      monthlyHardCapUsd: 0.0002,
      pullRequestSoftCapUsd: null,
      pullRequestHardCapUsd: 5,
      incrementSoftCapUsd: null,
      incrementHardCapUsd: null,
      monthToDateUsd: usage.body.totals.estimatedCostUsd,
      state: 'hard',
    });
    expect(saved.body.periodStartedAt).toBe(`${new Date().toISOString().slice(0, 7)}-01T00:00:00.000Z`);

    await fakes.github.loadPullRequest(billingScenario(503, 'c'));
    pricedAnswers();
    const chats = model.chats.length;
    const submitted = await admin.post(`/clients/${clientId}/reviewing/jobs/by-coordinates`, coordinates(503));
    const held = await runQueuedJob(host, admin, submitted.body.jobId);
    expect(held.status).toBe('budgetHeld');
    expect(held.error).toMatch(/monthly hard spend cap of US\$0\.0002/);
    expect(model.chats.length).toBe(chats);

    const reset = await admin.post(`${budget}/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ monthToDateUsd: 0, state: 'ok' });
    // Headroom the review fits in (the engine estimates the cheapest plan against the headroom too).
    const raised = await admin.put(budget, { monthlySoftCapUsd: 5, monthlyHardCapUsd: 10 });
    expect(raised.body).toMatchObject({ periodStartedAt: reset.body.periodStartedAt, state: 'ok' });
    const restarted = await admin.post(`/reviewing/jobs/${submitted.body.jobId}/restart`);
    expect(restarted.status).toBe(202);
    const job = await runQueuedJob(host, admin, restarted.body.jobId);
    expect(job.status).toBe('completed');
    expect(model.chats.length).toBeGreaterThan(chats);

    // A pull request at its own hard cap is held; the cap counts only that pull request's spend.
    await admin.put(budget, { monthlyHardCapUsd: 10, pullRequestHardCapUsd: 0.000001 });
    await fakes.github.loadPullRequest(billingScenario(501, 'e'));
    pricedAnswers();
    const again = await admin.post(`/clients/${clientId}/reviewing/jobs/by-coordinates`, coordinates(501));
    const heldAgain = await runQueuedJob(host, admin, again.body.jobId);
    expect(heldAgain.status).toBe('budgetHeld');
    expect(heldAgain.error).toMatch(/pull-request hard spend cap of US\$0\.000001/);

    // Past the cap again: without budgeting the caps stay stored and bind nothing.
    expect((await admin.put(budget, { monthlyHardCapUsd: 0.000001 })).body.state).toBe('hard');
    expect((await admin.patch('/admin/licensing', { edition: 'Community' })).status).toBe(200);
    expect((await admin.get(budget)).body).toMatchObject({ code: 'license_required', capability: 'budgeting' });
    await fakes.github.loadPullRequest(billingScenario(504, 'd'));
    pricedAnswers();
    const uncapped = await admin.post(`/clients/${clientId}/reviewing/jobs/by-coordinates`, coordinates(504));
    expect((await runQueuedJob(host, admin, uncapped.body.jobId)).status).toBe('completed');
    // Four reviews end to end: more than the default per-test allowance on a busy machine.
  }, 60_000);

  it('records every budget change and reset in the audit trail, with who made it', async () => {
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    const budget = `/admin/clients/${clientId}/budget`;
    expect((await admin.put(budget, { monthlyHardCapUsd: 7, pullRequestSoftCapUsd: 1 })).status).toBe(200);
    expect((await admin.post(`${budget}/reset`)).status).toBe(200);
    const trail = await admin.get('/admin/audit?limit=2');
    expect(trail.body.items).toMatchObject([
      { action: 'budget.reset', resourceType: 'budget', resourceId: clientId, clientId },
      {
        action: 'budget.updated',
        resourceId: clientId,
        summary: 'caps set: monthlyHardCapUsd, pullRequestSoftCapUsd',
      },
    ]);
    expect(trail.body.items[0].actorUserId).toBe(trail.body.items[1].actorUserId);
  });
});
