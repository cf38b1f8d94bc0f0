import { randomUUID } from 'node:crypto';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { openTestStorage } from '@margin/storage-knex/testing';

const EVENTS = Number(process.env.BENCH_USAGE_EVENTS ?? 1_000_000);
const GOAL_MS = 200;
const BATCH = 5000;
const MODELS = ['model-large', 'model-small', 'model-embed'];
const PURPOSES = ['reviewDefault', 'reviewLowEffort', 'reviewVerification', 'reviewTriage'];
const REPOSITORIES = Array.from({ length: 8 }, (_, i) => `acme/service-${i}`);
const DAY_MS = 86_400_000;
/** `sqlite,postgres` by default; PostgreSQL is the one at MARGIN_TEST_PG_URL, in a schema of its own. */
const DIALECTS = (process.env.BENCH_USAGE_DIALECTS ?? 'sqlite,postgres').split(',');

/**
 * The usage reports over a year of ledger: EVENTS model calls of one client spread over 365 days,
 * three models, four purposes and eight repositories, on SQLite and PostgreSQL. Measures the slowest
 * of the storage's report queries (every grouping, a 400-day window), best of five, against an
 * absolute goal.
 */
export default {
  name: 'usage-reports',
  goal: `every usage report over ${EVENTS.toLocaleString('en')} ledger events within ${GOAL_MS} ms on ${DIALECTS.join(' and ')}`,
  async run() {
    const results = [];
    for (const dialect of DIALECTS) results.push({ dialect, ...(await measure(dialect)) });
    const slowest = Math.max(...results.map((r) => r.slowest));
    return {
      baseline: `goal ${GOAL_MS} ms (absolute)`,
      measured: results.map((r) => `${r.dialect}: ${r.measured}`).join('; '),
      ratio: GOAL_MS / slowest,
      pass: slowest <= GOAL_MS,
    };
  },
};

async function measure(dialect) {
  const { storage, dispose } = await openTestStorage(dialect);
  try {
    const clientId = randomUUID();
    const tenantId = SYSTEM_TENANT_ID;
    const at = new Date().toISOString();
    await storage.clients.insert({
      id: clientId,
      tenantId,
      displayName: 'Bench',
      isActive: true,
      createdAt: at,
      updatedAt: at,
    });
    const end = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const seedStarted = Date.now();
    for (let i = 0; i < EVENTS; i += BATCH) {
      const batch = [];
      for (let k = i; k < Math.min(i + BATCH, EVENTS); k++) {
        batch.push({
          id: randomUUID(),
          at: new Date(end - (k % 365) * DAY_MS + (k % 86_000) * 1000).toISOString(),
          tenantId,
          clientId,
          jobId: null,
          conversationId: null,
          knowledgeSourceId: null,
          source: 'review',
          purpose: PURPOSES[k % PURPOSES.length],
          logicalModel: null,
          connectionId: clientId,
          model: MODELS[k % MODELS.length],
          repository: REPOSITORIES[k % REPOSITORIES.length],
          pullRequestKey: null,
          inputTokens: 1000 + (k % 500),
          cachedInputTokens: 100,
          outputTokens: 200,
          reasoningTokens: 0,
          estimatedCostUsd: 0.001234,
          costIsApproximate: false,
        });
      }
      await storage.transaction((tx) => tx.usageEvents.record(batch));
    }
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const toDay = new Date(end).toISOString().slice(0, 10);
    const fromDay = new Date(end - 399 * DAY_MS).toISOString().slice(0, 10);
    const timings = {};
    for (const groupBy of ['day', 'model', 'purpose', 'source', 'repository', 'client']) {
      const runs = [];
      for (let r = 0; r < 5; r++) {
        const started = performance.now();
        const rows = await storage.usageEvents.summarize({ clientId, fromDay, toDay, groupBy });
        runs.push(performance.now() - started);
        if (rows.reduce((n, row) => n + row.calls, 0) !== EVENTS) throw new Error(`${groupBy}: calls do not add up`);
      }
      timings[groupBy] = Math.min(...runs);
    }
    const slowest = Math.max(...Object.values(timings));
    const each = Object.entries(timings)
      .map(([g, ms]) => `${g} ${ms.toFixed(1)}`)
      .join(', ');
    return {
      slowest,
      measured: `slowest ${slowest.toFixed(1)} ms (${each} ms; seeded in ${seedSeconds.toFixed(0)} s)`,
    };
  } finally {
    await dispose();
  }
}
