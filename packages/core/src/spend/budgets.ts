import type { Actor } from '../kernel/index.js';
import { requireCapability } from '../licensing/index.js';
import { BUDGET_CAPS, type ClientBudgetRecord } from './budget-record.js';
import { BudgetInput, type BudgetViewBody } from './schemas.js';
import { type SharedSpend, type SharedSpendDeps, sharedSpend } from './shared-spend.js';
import type { SpendDeps } from './spend-deps.js';
import { MICROS_PER_USD } from './spend-records.js';

/** What reading a client's standing needs. */
type LedgerReader = { storage: Pick<SpendDeps['storage'], 'clientBudgets' | 'usageEvents'>; clock: SpendDeps['clock'] };
/** What admitting a job needs: the worker does it, outside the use cases. */
type AdmissionDeps = SharedSpendDeps & { storage: Pick<SpendDeps['storage'], 'clientBudgets'> };

const noCaps = (clientId: string, at: string): ClientBudgetRecord => ({
  clientId,
  monthlySoftCapUsd: null,
  monthlyHardCapUsd: null,
  pullRequestSoftCapUsd: null,
  pullRequestHardCapUsd: null,
  incrementSoftCapUsd: null,
  incrementHardCapUsd: null,
  periodStartedAt: null,
  updatedAt: at,
});

/** The later of the current month's start (UTC) and the last reset: where month-to-date counts from. */
function periodStart(deps: Pick<SpendDeps, 'clock'>, budget: ClientBudgetRecord): string {
  const now = deps.clock.now();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  return budget.periodStartedAt && budget.periodStartedAt > month ? budget.periodStartedAt : month;
}

async function standingOf(deps: LedgerReader, clientId: string) {
  const budget = (await deps.storage.clientBudgets.find(clientId)) ?? noCaps(clientId, deps.clock.now().toISOString());
  const startedAt = periodStart(deps, budget);
  const spentUsd = (await deps.storage.usageEvents.costSince(clientId, startedAt)) / MICROS_PER_USD;
  return { budget, startedAt, spentUsd };
}

function view(s: Awaited<ReturnType<typeof standingOf>>): BudgetViewBody {
  const { budget, startedAt, spentUsd } = s;
  const reached = (capUsd: number | null) => capUsd !== null && spentUsd >= capUsd;
  return {
    monthlySoftCapUsd: budget.monthlySoftCapUsd,
    monthlyHardCapUsd: budget.monthlyHardCapUsd,
    pullRequestSoftCapUsd: budget.pullRequestSoftCapUsd,
    pullRequestHardCapUsd: budget.pullRequestHardCapUsd,
    incrementSoftCapUsd: budget.incrementSoftCapUsd,
    incrementHardCapUsd: budget.incrementHardCapUsd,
    monthToDateUsd: spentUsd,
    periodStartedAt: startedAt,
    state: reached(budget.monthlyHardCapUsd) ? 'hard' : reached(budget.monthlySoftCapUsd) ? 'soft' : 'ok',
  };
}

/** The client's budget and where its month stands (ClientUser; needs `budgeting`). */
export async function getBudget(deps: SpendDeps, actor: Actor, clientId: string): Promise<BudgetViewBody> {
  await deps.authz.requireClient(actor, 'spend.budget.read', clientId);
  await requireCapability(deps, 'budgeting');
  return view(await standingOf(deps, clientId));
}

/** Replaces the client's caps; a cap left out or null is no cap (ClientAdministrator; needs `budgeting`). */
export async function putBudget(deps: SpendDeps, actor: Actor, clientId: string, input: unknown) {
  const req = BudgetInput.parse(input);
  const client = await deps.authz.requireClient(actor, 'spend.budget.manage', clientId);
  await requireCapability(deps, 'budgeting');
  const at = deps.clock.now().toISOString();
  const caps = Object.fromEntries(BUDGET_CAPS.map((c) => [c, req[c] ?? null]));
  await deps.storage.transaction(async (tx) => {
    const current = (await tx.clientBudgets.find(clientId)) ?? noCaps(clientId, at);
    await tx.clientBudgets.save({ ...current, ...caps, updatedAt: at });
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'budget',
      verb: 'updated',
      resourceId: clientId,
      summary: capsSummary(caps),
    });
  });
  return view(await standingOf(deps, clientId));
}

/** Starts a new accounting period now: month-to-date counts from here (ClientAdministrator; needs `budgeting`). */
export async function resetBudget(deps: SpendDeps, actor: Actor, clientId: string) {
  const client = await deps.authz.requireClient(actor, 'spend.budget.manage', clientId);
  await requireCapability(deps, 'budgeting');
  const at = deps.clock.now().toISOString();
  await deps.storage.transaction(async (tx) => {
    const current = (await tx.clientBudgets.find(clientId)) ?? noCaps(clientId, at);
    await tx.clientBudgets.save({ ...current, periodStartedAt: at, updatedAt: at });
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'budget',
      verb: 'reset',
      resourceId: clientId,
      summary: `started a new accounting period at ${at}`,
    });
  });
  return view(await standingOf(deps, clientId));
}

/** Which caps a budget now has, by name: amounts are the client's business, not the trail's. */
function capsSummary(caps: Record<string, number | null>): string {
  const set = Object.keys(caps).filter((c) => caps[c] !== null);
  return set.length === 0 ? 'caps removed' : `caps set: ${set.join(', ')}`;
}

/** What the client's budget leaves a review of a pull request: a reason to hold it, or the caps it runs under. */
export interface BudgetAdmission {
  /** Set when a hard cap leaves nothing: the job ends `budgetHeld` before any model call. */
  heldReason?: string | undefined;
  /** The tightest headroom of the monthly, pull-request and increment caps, for the engine (absent: no cap). */
  softUsd?: number | undefined;
  hardUsd?: number | undefined;
  /** Set when a monthly or pull-request hard cap binds: reviews running at once share what is left of it. */
  shared?: SharedSpend | undefined;
}

const usd = (n: number) => `US$${Math.round(n * MICROS_PER_USD) / MICROS_PER_USD}`;

/**
 * For the review worker, when spend caps apply (`budgeting`): holds the job when the period's spend
 * is at or over the monthly hard cap, the pull request's (ever) at or over the pull-request hard
 * cap, or the increment hard cap is 0; else the tightest headroom.
 */
export async function budgetAdmission(
  deps: AdmissionDeps,
  job: { id: string; clientId: string; pullRequestKey: string },
): Promise<BudgetAdmission> {
  const { clientId, pullRequestKey } = job;
  const { budget: b, startedAt, spentUsd } = await standingOf(deps, clientId);
  const prCapped = b.pullRequestHardCapUsd !== null || b.pullRequestSoftCapUsd !== null;
  const prSpentUsd = prCapped
    ? (await deps.storage.usageEvents.costOfPullRequest(clientId, pullRequestKey)) / MICROS_PER_USD
    : 0;
  if (b.monthlyHardCapUsd !== null && spentUsd >= b.monthlyHardCapUsd) {
    return {
      heldReason: `Held by the client's monthly hard spend cap of ${usd(b.monthlyHardCapUsd)} (${usd(spentUsd)} spent this period); raise the cap or reset the period, then restart the job.`,
    };
  }
  if (b.pullRequestHardCapUsd !== null && prSpentUsd >= b.pullRequestHardCapUsd) {
    return {
      heldReason: `Held by the client's pull-request hard spend cap of ${usd(b.pullRequestHardCapUsd)} (${usd(prSpentUsd)} spent on this pull request); raise the cap, then restart the job.`,
    };
  }
  if (b.incrementHardCapUsd === 0) {
    return { heldReason: 'Held by the client’s increment hard spend cap of US$0; raise it, then restart the job.' };
  }
  const tightest = (...caps: Array<number | null>) => {
    const set = caps.filter((c): c is number => c !== null);
    return set.length ? Math.min(...set) : undefined;
  };
  const hardUsd = tightest(
    b.monthlyHardCapUsd === null ? null : b.monthlyHardCapUsd - spentUsd,
    b.pullRequestHardCapUsd === null ? null : b.pullRequestHardCapUsd - prSpentUsd,
    b.incrementHardCapUsd,
  );
  const softLeft = tightest(
    b.monthlySoftCapUsd === null ? null : b.monthlySoftCapUsd - spentUsd,
    b.pullRequestSoftCapUsd === null ? null : b.pullRequestSoftCapUsd - prSpentUsd,
    b.incrementSoftCapUsd,
  );
  // The engine takes positive caps with soft ≤ hard: a soft cap already passed degrades as far as it can.
  const softUsd =
    softLeft === undefined ? undefined : Math.min(Math.max(softLeft, 1 / MICROS_PER_USD), hardUsd ?? Infinity);
  const sharesCap = b.monthlyHardCapUsd !== null || b.pullRequestHardCapUsd !== null;
  return { softUsd, hardUsd, shared: sharesCap ? sharedSpend(deps, job, b, startedAt) : undefined };
}
