/** What a model call served (decisions.md, Usage, spend and budgets). */
export const USAGE_SOURCES = ['review', 'mention', 'knowledge', 'memory'] as const;
export type UsageSource = (typeof USAGE_SOURCES)[number];

/** One model call in the usage ledger. Costs are whole millionths of a dollar as the engine priced them. */
export interface UsageEventRecord {
  id: string;
  at: string;
  tenantId: string;
  clientId: string;
  jobId: string | null;
  conversationId: string | null;
  knowledgeSourceId: string | null;
  source: UsageSource;
  purpose: string;
  logicalModel: string | null;
  connectionId: string;
  model: string;
  /** The repository the call was made for (its project path, as the job names it), when there was one. */
  repository: string | null;
  /** The pull request the call reviewed (the job's `pullRequestKey`), for pull-request budgets. */
  pullRequestKey: string | null;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  estimatedCostUsd: number;
  costIsApproximate: boolean;
}

export const USAGE_GROUPINGS = ['day', 'model', 'purpose', 'source', 'repository', 'client'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** What a report sums: `approximateCalls` > 0 makes its cost approximate. */
export interface UsageSums {
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Whole millionths of a US dollar, so sums stay exact. */
  costMicroUsd: number;
  approximateCalls: number;
}

/** Millionths of a US dollar in one: the ledger keeps costs as whole micro-dollars so sums stay exact. */
export const MICROS_PER_USD = 1_000_000;

/** A cost in whole micro-dollars, rounded once per call. */
export const toMicroUsd = (usd: number): number => Math.round(usd * MICROS_PER_USD);

/** The sums of no call at all. */
export const noUsage = (): UsageSums => ({
  calls: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  costMicroUsd: 0,
  approximateCalls: 0,
});

/** Two sums together. */
export function addUsage(a: UsageSums, b: UsageSums): UsageSums {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    costMicroUsd: a.costMicroUsd + b.costMicroUsd,
    approximateCalls: a.approximateCalls + b.approximateCalls,
  };
}

/** What one ledger event adds to a sum. */
export const usageOfEvent = (e: UsageEventRecord): UsageSums => ({
  calls: 1,
  inputTokens: e.inputTokens,
  cachedInputTokens: e.cachedInputTokens,
  outputTokens: e.outputTokens,
  reasoningTokens: e.reasoningTokens,
  costMicroUsd: toMicroUsd(e.estimatedCostUsd),
  approximateCalls: e.costIsApproximate ? 1 : 0,
});

export interface UsageSummaryQuery {
  /** Exactly one of the two. */
  clientId?: string | undefined;
  tenantId?: string | undefined;
  /** UTC days, `YYYY-MM-DD`, both included. */
  fromDay: string;
  toDay: string;
  groupBy: UsageGrouping;
  /** Only calls of this kind (e.g. `knowledge`: indexing and knowledge queries). */
  source?: UsageSource | undefined;
}

export interface UsageEventsRepository {
  /**
   * Appends calls to the ledger and adds them to the daily rollups the reports read. Called in the
   * transaction that stores the job's own usage, so the two never disagree.
   */
  record(events: readonly UsageEventRecord[]): Promise<void>;
  /** Sums per group key over whole UTC days, from the daily rollups, in key order. */
  summarize(query: UsageSummaryQuery): Promise<Array<{ key: string } & UsageSums>>;
  /** Whole millionths of a dollar the client's calls cost at or after `since`. */
  costSince(clientId: string, since: string): Promise<number>;
  /** Whole millionths of a dollar the client's calls for one pull request cost, ever. */
  costOfPullRequest(clientId: string, pullRequestKey: string): Promise<number>;
  /** The raw events of one job, oldest first: a job makes a bounded number of calls. */
  listForJob(jobId: string): Promise<UsageEventRecord[]>;
  /** Removes events before `at` and the rollups of days before its day; returns the events removed. */
  pruneBefore(at: string): Promise<number>;
}
