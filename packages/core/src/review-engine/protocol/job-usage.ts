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
