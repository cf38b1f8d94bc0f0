import type { Ids } from '../kernel/index.js';
import type { JobUsage } from '../review-engine/index.js';
import type { UsageEventRecord } from '../spend/index.js';
import type { ReviewJobRecord } from './job-record.js';

/**
 * The usage ledger's events for a job's model calls (source `review`, whatever the pass: review,
 * verification, triage, embeddings), and the usage the job keeps, which leaves the calls out.
 */
export function splitJobUsage(
  ids: Ids,
  job: ReviewJobRecord,
  tenantId: string,
  usage: JobUsage | null,
): { usage: JobUsage | null; events: UsageEventRecord[] } {
  if (!usage) return { usage, events: [] };
  const { calls = [], ...kept } = usage;
  const events = calls.map(
    (call): UsageEventRecord => ({
      id: ids.uuid(),
      at: call.at,
      tenantId,
      clientId: job.clientId,
      jobId: job.id,
      conversationId: null,
      knowledgeSourceId: null,
      source: 'review',
      purpose: call.purpose,
      logicalModel: call.logicalModel,
      connectionId: call.connectionId,
      model: call.remoteModelId,
      repository: job.repository.projectPath,
      pullRequestKey: job.pullRequestKey,
      inputTokens: call.inputTokens,
      cachedInputTokens: call.cachedInputTokens,
      outputTokens: call.outputTokens,
      reasoningTokens: call.reasoningTokens,
      estimatedCostUsd: call.estimatedCostUsd,
      costIsApproximate: call.costIsApproximate,
    }),
  );
  return { usage: kept, events };
}
