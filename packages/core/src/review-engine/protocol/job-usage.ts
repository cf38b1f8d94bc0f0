/**
 * What a review's model calls used and cost (decisions.md): totals and one entry per model and
 * purpose. The engine reports it; the service stores it on the job.
 */
export interface JobUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  estimatedCostUsd: number;
  byModel: Array<{
    connectionId: string;
    remoteModelId: string;
    purpose: string;
    inputTokens: number;
    cachedInputTokens: number;
    outputTokens: number;
    estimatedCostUsd: number;
  }>;
  /**
   * Every model call on its own, in the order they returned: what the service writes to its usage
   * ledger. The service does not keep them on the job (the totals above say the same, summed).
   */
  calls?: ModelCallUsage[] | undefined;
}

/** One model call's usage and estimated cost, priced at the model's prices when it returned. */
export interface ModelCallUsage {
  at: string;
  purpose: string;
  logicalModel: string | null;
  connectionId: string;
  remoteModelId: string;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  estimatedCostUsd: number;
  /** The model has no price, so its cost counts as zero. */
  costIsApproximate: boolean;
}

const MICROS = 1_000_000;

/**
 * The usage of the calls made, as a job reports it: totals and one entry per model and purpose (in
 * the order each first returned), the calls kept. Costs add up in whole micro-dollars, each call
 * rounded once, so the totals equal the ledger's sum of the same calls exactly.
 */
export function jobUsageOf(calls: readonly ModelCallUsage[]): JobUsage {
  const byKey = new Map<string, JobUsage['byModel'][number] & { costMicroUsd: number }>();
  for (const call of calls) {
    const key = `${call.connectionId}\u0000${call.remoteModelId}\u0000${call.purpose}`;
    const entry = byKey.get(key) ?? {
      connectionId: call.connectionId,
      remoteModelId: call.remoteModelId,
      purpose: call.purpose,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      estimatedCostUsd: 0,
      costMicroUsd: 0,
    };
    entry.inputTokens += call.inputTokens;
    entry.cachedInputTokens += call.cachedInputTokens;
    entry.outputTokens += call.outputTokens;
    entry.costMicroUsd += Math.round(call.estimatedCostUsd * MICROS);
    byKey.set(key, entry);
  }
  const byModel = [...byKey.values()].map(({ costMicroUsd, ...m }) => ({
    ...m,
    estimatedCostUsd: costMicroUsd / MICROS,
  }));
  const micros = [...byKey.values()].reduce((n, m) => n + m.costMicroUsd, 0);
  return {
    inputTokens: byModel.reduce((n, m) => n + m.inputTokens, 0),
    cachedInputTokens: byModel.reduce((n, m) => n + m.cachedInputTokens, 0),
    outputTokens: byModel.reduce((n, m) => n + m.outputTokens, 0),
    estimatedCostUsd: micros / MICROS,
    byModel,
    calls: calls.map((c) => ({ ...c })),
  };
}
