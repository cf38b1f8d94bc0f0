import type { ResolvedPurpose } from '../ai/index.js';
import type { AiUsage } from '../ai-model/index.js';
import { estimateCostUsd } from '../ai-model/index.js';
import { isPriced } from '../review-engine/index.js';
import { MICROS_PER_USD, toMicroUsd, type UsageEventRecord } from '../spend/index.js';
import type { KnowledgeDeps } from './knowledge-deps.js';

/** Writes one usage-ledger event (source `knowledge`) per embedding call of indexing or a query. */
export async function recordKnowledgeUsage(
  deps: Pick<KnowledgeDeps, 'storage' | 'ids' | 'clock'>,
  input: { clientId: string; sourceId: string | null; model: ResolvedPurpose; usage: AiUsage },
): Promise<void> {
  const client = await deps.storage.clients.findById(input.clientId);
  if (!client) return;
  const { model, usage } = input;
  const event: UsageEventRecord = {
    id: deps.ids.uuid(),
    at: deps.clock.now().toISOString(),
    tenantId: client.tenantId,
    clientId: input.clientId,
    jobId: null,
    conversationId: null,
    knowledgeSourceId: input.sourceId,
    source: 'knowledge',
    purpose: 'embeddingDefault',
    logicalModel: model.logicalModelName,
    connectionId: model.connectionId,
    model: model.model.remoteModelId,
    repository: null,
    pullRequestKey: null,
    inputTokens: usage.inputTokens + usage.cacheWriteTokens,
    cachedInputTokens: usage.cachedInputTokens,
    outputTokens: usage.outputTokens,
    reasoningTokens: usage.reasoningTokens,
    // Rounded to a millionth once, as the review ledger does, so sums agree exactly.
    estimatedCostUsd: toMicroUsd(estimateCostUsd(usage, model.prices)) / MICROS_PER_USD,
    costIsApproximate: !isPriced(model.prices),
  };
  await deps.storage.usageEvents.record([event]);
}
