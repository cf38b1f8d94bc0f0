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
}
