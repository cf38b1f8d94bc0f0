import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { requireCapability } from '../licensing/index.js';
import { SpendQuery, TokenUsageQuery, type UsageReportBody } from './schemas.js';
import type { SpendDeps } from './spend-deps.js';
import {
  addUsage,
  MICROS_PER_USD,
  noUsage,
  type UsageGrouping,
  type UsageSource,
  type UsageSums,
} from './spend-records.js';

/** The longest window a report covers (decisions.md). */
export const MAX_REPORT_DAYS = 400;

const DAY_MS = 86_400_000;

/** A client's token usage and estimated cost (ClientUser, both editions). */
export async function clientTokenUsage(
  deps: SpendDeps,
  actor: Actor,
  clientId: string,
  query: unknown,
): Promise<UsageReportBody> {
  const req = TokenUsageQuery.parse(query);
  await deps.authz.requireClient(actor, 'spend.usage.read', clientId);
  const { fromDay, toDay } = reportWindow(deps, req);
  const groupBy = req.groupBy ?? 'day';
  return report(deps, { clientId, fromDay, toDay, groupBy });
}

/** A client's usage for code knowledge only: indexing and knowledge queries (ClientUser). */
export async function knowledgeTokenUsage(
  deps: SpendDeps,
  actor: Actor,
  clientId: string,
  query: unknown,
): Promise<UsageReportBody> {
  const req = TokenUsageQuery.parse(query);
  await deps.authz.requireClient(actor, 'spend.usage.read', clientId);
  const { fromDay, toDay } = reportWindow(deps, req);
  return report(deps, { clientId, fromDay, toDay, groupBy: req.groupBy ?? 'day', source: 'knowledge' });
}

/** A tenant's spend (TenantAdministrator; needs `budgeting`). */
export async function tenantSpend(
  deps: SpendDeps,
  actor: Actor,
  tenantId: string,
  query: unknown,
): Promise<UsageReportBody> {
  const req = SpendQuery.parse(query);
  await deps.authz.requireTenant(actor, 'spend.read', tenantId);
  await requireCapability(deps, 'budgeting');
  const { fromDay, toDay } = reportWindow(deps, req);
  const groupBy = req.groupBy ?? 'client';
  return report(deps, { tenantId, fromDay, toDay, groupBy });
}

async function report(
  deps: SpendDeps,
  query: {
    clientId?: string;
    tenantId?: string;
    fromDay: string;
    toDay: string;
    groupBy: UsageGrouping;
    source?: UsageSource;
  },
): Promise<UsageReportBody> {
  const rows = await deps.storage.usageEvents.summarize(query);
  const sum = rows.reduce(addUsage, noUsage());
  return {
    from: query.fromDay,
    to: query.toDay,
    groupBy: query.groupBy,
    totals: view(sum),
    rows: rows.map(({ key, ...sums }) => ({ key, ...view(sums) })),
  };
}

/**
 * The days a report covers, both included: a missing `from` is the first day of the current month
 * (UTC), a missing `to` its last day; at most 400 days.
 */
function reportWindow(deps: SpendDeps, req: { from?: string | undefined; to?: string | undefined }) {
  const now = deps.clock.now();
  const fromDay = req.from ?? isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  const toDay = req.to ?? isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)));
  const days = (Date.parse(`${toDay}T00:00:00Z`) - Date.parse(`${fromDay}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) {
    throw MarginError.validation('to must not be before from.', [{ path: 'to', message: 'must not be before from' }]);
  }
  if (days > MAX_REPORT_DAYS) {
    throw MarginError.validation(`A report covers at most ${MAX_REPORT_DAYS} days.`, [
      { path: 'to', message: `must be at most ${MAX_REPORT_DAYS} days after from (both included)` },
    ]);
  }
  return { fromDay, toDay };
}

/**
 * Deletes ledger events (and their daily rollups) older than `retentionDays`, counted from the
 * start of today (UTC), so the reports of a day never see part of it. Answers how many events went.
 */
export function pruneUsage(deps: SpendDeps, retentionDays: number): Promise<number> {
  const today = Date.parse(`${isoDay(deps.clock.now())}T00:00:00Z`);
  return deps.storage.usageEvents.pruneBefore(new Date(today - retentionDays * DAY_MS).toISOString());
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

function view(s: UsageSums) {
  return {
    calls: s.calls,
    inputTokens: s.inputTokens,
    cachedInputTokens: s.cachedInputTokens,
    outputTokens: s.outputTokens,
    reasoningTokens: s.reasoningTokens,
    estimatedCostUsd: s.costMicroUsd / MICROS_PER_USD,
    costIsApproximate: s.approximateCalls > 0,
  };
}
