import { describe, expect, it } from 'vitest';
import { SYSTEM_TENANT_ID } from '../../kernel/index.js';
import type { UsageEventRecord } from '../../spend/index.js';
import { client, LATER, NOW, reviewJobRecord, type StorageGetter, uuid } from './fixtures.js';

function event(clientId: string, overrides: Partial<UsageEventRecord> = {}): UsageEventRecord {
  return {
    id: uuid(),
    at: '2026-03-10T12:00:00.000Z',
    tenantId: SYSTEM_TENANT_ID,
    clientId,
    jobId: null,
    conversationId: null,
    knowledgeSourceId: null,
    source: 'review',
    purpose: 'reviewDefault',
    logicalModel: null,
    connectionId: uuid(),
    model: 'model-a',
    repository: 'acme/widgets',
    pullRequestKey: null,
    inputTokens: 1000,
    cachedInputTokens: 200,
    outputTokens: 300,
    reasoningTokens: 50,
    estimatedCostUsd: 0.001234,
    costIsApproximate: false,
    ...overrides,
  };
}

export function spendStorageContract(storage: StorageGetter): void {
  describe('usage ledger', () => {
    it('sums recorded calls per key over whole days, in key order, exactly', async () => {
      const c = client();
      await storage().clients.insert(c);
      const jobId = uuid();
      await storage().usageEvents.record([
        event(c.id, { jobId, model: 'model-b', estimatedCostUsd: 0.1 }),
        event(c.id, { jobId, model: 'model-a', estimatedCostUsd: 0.2 }),
        event(c.id, { jobId, model: 'model-a', at: '2026-03-11T23:59:59.999Z', costIsApproximate: true }),
      ]);
      // Recorded in a second batch: the day's rollup row is added to, not replaced.
      await storage().usageEvents.record([event(c.id, { model: 'model-a', at: '2026-03-12T00:00:00.000Z' })]);

      const byModel = await storage().usageEvents.summarize({
        clientId: c.id,
        fromDay: '2026-03-10',
        toDay: '2026-03-11',
        groupBy: 'model',
      });
      expect(byModel).toEqual([
        {
          key: 'model-a',
          calls: 2,
          inputTokens: 2000,
          cachedInputTokens: 400,
          outputTokens: 600,
          reasoningTokens: 100,
          costMicroUsd: 201_234,
          approximateCalls: 1,
        },
        {
          key: 'model-b',
          calls: 1,
          inputTokens: 1000,
          cachedInputTokens: 200,
          outputTokens: 300,
          reasoningTokens: 50,
          costMicroUsd: 100_000,
          approximateCalls: 0,
        },
      ]);
      const byDay = await storage().usageEvents.summarize({
        tenantId: c.tenantId,
        fromDay: '2026-03-01',
        toDay: '2026-03-31',
        groupBy: 'day',
      });
      expect(byDay.map((r) => [r.key, r.calls])).toEqual([
        ['2026-03-10', 2],
        ['2026-03-11', 1],
        ['2026-03-12', 1],
      ]);
      const ofJob = await storage().usageEvents.listForJob(jobId);
      expect(ofJob.map((e) => e.estimatedCostUsd).sort()).toEqual([0.001234, 0.1, 0.2]);
      expect(ofJob[2]).toMatchObject({ at: '2026-03-11T23:59:59.999Z', costIsApproximate: true, logicalModel: null });
    });

    it('keeps each client to itself and records nothing when a transaction fails', async () => {
      const a = client();
      const b = client();
      await storage().clients.insert(a);
      await storage().clients.insert(b);
      await storage().usageEvents.record([event(a.id)]);
      await expect(
        storage().transaction(async (tx) => {
          await tx.usageEvents.record([event(b.id)]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const query = { fromDay: '2026-03-01', toDay: '2026-03-31', groupBy: 'client' as const };
      expect((await storage().usageEvents.summarize({ ...query, clientId: a.id })).map((r) => r.calls)).toEqual([1]);
      expect(await storage().usageEvents.summarize({ ...query, clientId: b.id })).toEqual([]);
    });

    it('prunes events and rollups before a day', async () => {
      const c = client();
      await storage().clients.insert(c);
      await storage().usageEvents.record([
        event(c.id, { at: '2026-03-09T10:00:00.000Z' }),
        event(c.id, { at: '2026-03-10T10:00:00.000Z' }),
      ]);
      expect(await storage().usageEvents.pruneBefore('2026-03-10T00:00:00.000Z')).toBe(1);
      const rows = await storage().usageEvents.summarize({
        clientId: c.id,
        fromDay: '2026-03-01',
        toDay: '2026-03-31',
        groupBy: 'day',
      });
      expect(rows.map((r) => r.key)).toEqual(['2026-03-10']);
    });
    it('sums a client’s cost since a time, exactly', async () => {
      const c = client();
      await storage().clients.insert(c);
      await storage().usageEvents.record([
        event(c.id, { at: '2026-03-01T00:00:00.000Z', estimatedCostUsd: 0.1 }),
        event(c.id, { at: '2026-03-05T00:00:00.000Z', estimatedCostUsd: 0.2 }),
        event(c.id, { at: '2026-02-28T23:59:59.999Z', estimatedCostUsd: 5 }),
      ]);
      expect(await storage().usageEvents.costSince(c.id, '2026-03-01T00:00:00.000Z')).toBe(300_000);
      await storage().usageEvents.record([
        event(c.id, { pullRequestKey: 'gitHostA|https://github.com|42|7', estimatedCostUsd: 0.25 }),
        event(c.id, { pullRequestKey: 'gitHostA|https://github.com|42|7', estimatedCostUsd: 0.5 }),
        event(c.id, { pullRequestKey: 'gitHostA|https://github.com|42|8', estimatedCostUsd: 1 }),
      ]);
      expect(await storage().usageEvents.costOfPullRequest(c.id, 'gitHostA|https://github.com|42|7')).toBe(750_000);
    });
  });

  describe('client budgets', () => {
    it('stores a client’s caps, replaced whole on save', async () => {
      const c = client();
      await storage().clients.insert(c);
      expect(await storage().clientBudgets.find(c.id)).toBeUndefined();
      const budget = {
        clientId: c.id,
        monthlySoftCapUsd: 50,
        monthlyHardCapUsd: 100.25,
        pullRequestSoftCapUsd: null,
        pullRequestHardCapUsd: 0,
        incrementSoftCapUsd: null,
        incrementHardCapUsd: null,
        periodStartedAt: null,
        updatedAt: '2026-03-01T00:00:00.000Z',
      };
      await storage().clientBudgets.save(budget);
      expect(await storage().clientBudgets.find(c.id)).toEqual(budget);
      const reset = { ...budget, monthlyHardCapUsd: null, periodStartedAt: '2026-03-02T10:00:00.000Z' };
      await storage().clientBudgets.save(reset);
      expect(await storage().clientBudgets.find(c.id)).toEqual(reset);
    });
  });

  describe('in-flight spend', () => {
    it('adds claims and spend per running job and sums them per client and per pull request', async () => {
      const c = client();
      const other = client();
      await storage().clients.insert(c);
      await storage().clients.insert(other);
      const a = reviewJobRecord(c.id);
      const b = reviewJobRecord(c.id, { pullRequestKey: 'gitHostA|https://github.com|42|8' });
      const elsewhere = reviewJobRecord(other.id);
      for (const j of [a, b, elsewhere]) await storage().reviewJobs.insert(j);
      const key = (j: typeof a) => ({ jobId: j.id, clientId: j.clientId, pullRequestKey: j.pullRequestKey });
      expect(await storage().inFlightSpend.totals(c.id, a.pullRequestKey)).toEqual({
        clientMicroUsd: 0,
        pullRequestMicroUsd: 0,
      });
      await storage().inFlightSpend.adjust(key(a), { reservedMicroUsd: 500_000, spentMicroUsd: 0 }, NOW);
      // A claim released as its calls' real cost comes in: reserved goes down, spent up.
      await storage().inFlightSpend.adjust(key(a), { reservedMicroUsd: -500_000, spentMicroUsd: 420_001 }, LATER);
      await storage().inFlightSpend.adjust(key(b), { reservedMicroUsd: 250_000, spentMicroUsd: 10 }, NOW);
      await storage().inFlightSpend.adjust(key(elsewhere), { reservedMicroUsd: 9_000_000, spentMicroUsd: 0 }, NOW);
      expect(await storage().inFlightSpend.totals(c.id, a.pullRequestKey)).toEqual({
        clientMicroUsd: 670_011,
        pullRequestMicroUsd: 420_001,
      });
      await storage().inFlightSpend.remove(a.id);
      await storage().inFlightSpend.remove(a.id);
      expect(await storage().inFlightSpend.totals(c.id, a.pullRequestKey)).toEqual({
        clientMicroUsd: 250_010,
        pullRequestMicroUsd: 0,
      });
    });
  });
}
