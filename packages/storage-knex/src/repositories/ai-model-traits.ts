// Not a repository: the model columns a connection's configured models and a tenant's catalog share.

import type { ModelTraits } from '@margin/core/spec';
import { type Dialect, readBool, readJson, writeJson } from '../dialect.js';
import { lower, numberOrNull, type Row, textOrNull } from '../rows.js';

/** The columns a connection's configured models and a tenant's catalog models share. */
export function modelTraitsFromRow(row: Row, dialect: Dialect): ModelTraits {
  return {
    remoteModelId: String(row.remote_model_id),
    displayName: String(row.display_name),
    operationKinds: readJson(row.operation_kinds, dialect),
    tokenizerName: textOrNull(row.tokenizer_name),
    maxInputTokens: numberOrNull(row.max_input_tokens),
    embeddingDimensions: numberOrNull(row.embedding_dimensions),
    supportsStructuredOutput: readBool(row.supports_structured_output),
    supportsToolUse: readBool(row.supports_tool_use),
    maxContextTokens: numberOrNull(row.max_context_tokens),
    inputCostPer1MUsd: numberOrNull(row.input_cost_per_1m_usd),
    outputCostPer1MUsd: numberOrNull(row.output_cost_per_1m_usd),
    cachedInputCostPer1MUsd: numberOrNull(row.cached_input_cost_per_1m_usd),
  };
}

export const modelTraitsRow = (m: ModelTraits): Row => ({
  remote_model_id: m.remoteModelId,
  remote_model_key: lower(m.remoteModelId),
  display_name: m.displayName,
  operation_kinds: writeJson(m.operationKinds),
  tokenizer_name: m.tokenizerName,
  max_input_tokens: m.maxInputTokens,
  embedding_dimensions: m.embeddingDimensions,
  supports_structured_output: m.supportsStructuredOutput,
  supports_tool_use: m.supportsToolUse,
  max_context_tokens: m.maxContextTokens,
  input_cost_per_1m_usd: m.inputCostPer1MUsd,
  output_cost_per_1m_usd: m.outputCostPer1MUsd,
  cached_input_cost_per_1m_usd: m.cachedInputCostPer1MUsd,
});
