import {
  addUsage,
  type ClientBudgetsRepository,
  type InFlightSpendRepository,
  noUsage,
  toMicroUsd,
  type UsageEventRecord,
  type UsageEventsRepository,
  type UsageGrouping,
  type UsageSums,
  usageOfEvent,
} from '../../spend/index.js';
import { copy, type MemoryState } from './memory-state.js';

/** The key a grouping sorts an event under; the same keys the SQL storages group their rollups by. */
export function usageKeyOf(event: UsageEventRecord, groupBy: UsageGrouping): string {
  switch (groupBy) {
    case 'day':
      return event.at.slice(0, 10);
    case 'model':
      return event.model;
    case 'purpose':
      return event.purpose;
    case 'source':
      return event.source;
    case 'repository':
      return event.repository ?? '';
    case 'client':
      return event.clientId;
  }
}

/** The ledger in memory: the reference sums every event of the window (no rollups needed here). */
export function memoryUsageEvents(state: () => MemoryState): UsageEventsRepository {
  const rows = () => state().usageEvents;
  return {
    async record(events) {
      for (const event of events) rows().set(event.id, copy(event));
    },
    async summarize(query) {
      const sums = new Map<string, UsageSums>();
      for (const e of rows().values()) {
        if (query.clientId !== undefined && e.clientId !== query.clientId) continue;
        if (query.tenantId !== undefined && e.tenantId !== query.tenantId) continue;
        const day = e.at.slice(0, 10);
        if (day < query.fromDay || day > query.toDay) continue;
        const key = usageKeyOf(e, query.groupBy);
        sums.set(key, addUsage(sums.get(key) ?? noUsage(), usageOfEvent(e)));
      }
      return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, s]) => ({ key, ...s }));
    },
    async costSince(clientId, since) {
      let micros = 0;
      for (const e of rows().values()) {
        if (e.clientId === clientId && e.at >= since) micros += toMicroUsd(e.estimatedCostUsd);
      }
      return micros;
    },
    async costOfPullRequest(clientId, pullRequestKey) {
      let micros = 0;
      for (const e of rows().values()) {
        if (e.clientId === clientId && e.pullRequestKey === pullRequestKey) micros += toMicroUsd(e.estimatedCostUsd);
      }
      return micros;
    },
    async listForJob(jobId) {
      return [...rows().values()]
        .filter((e) => e.jobId === jobId)
        .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
        .map(copy);
    },
    async pruneBefore(at) {
      let removed = 0;
      for (const [id, e] of rows()) {
        if (e.at < at) {
          rows().delete(id);
          removed += 1;
        }
      }
      return removed;
    },
  };
}

export function memoryClientBudgets(state: () => MemoryState): ClientBudgetsRepository {
  return {
    async find(clientId) {
      const budget = state().clientBudgets.get(clientId);
      return budget && copy(budget);
    },
    async save(budget) {
      state().clientBudgets.set(budget.clientId, copy(budget));
    },
  };
}

export function memoryInFlightSpend(state: () => MemoryState): InFlightSpendRepository {
  const rows = () => state().inFlightSpend;
  return {
    async adjust(key, delta, at) {
      const row = rows().get(key.jobId) ?? { ...key, reservedMicroUsd: 0, spentMicroUsd: 0, updatedAt: at };
      rows().set(key.jobId, {
        ...row,
        reservedMicroUsd: row.reservedMicroUsd + delta.reservedMicroUsd,
        spentMicroUsd: row.spentMicroUsd + delta.spentMicroUsd,
        updatedAt: at,
      });
    },
    async totals(clientId, pullRequestKey) {
      let clientMicroUsd = 0;
      let pullRequestMicroUsd = 0;
      for (const r of rows().values()) {
        if (r.clientId !== clientId) continue;
        clientMicroUsd += r.reservedMicroUsd + r.spentMicroUsd;
        if (r.pullRequestKey === pullRequestKey) pullRequestMicroUsd += r.reservedMicroUsd + r.spentMicroUsd;
      }
      return { clientMicroUsd, pullRequestMicroUsd };
    },
    async remove(jobId) {
      rows().delete(jobId);
    },
  };
}
