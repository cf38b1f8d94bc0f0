import type { AiProviderKind } from './ai-model-v1.js';
import type { OperationKind } from './purposes.js';

/**
 * The built-in model catalog: well-known models with their context windows, embedding shapes and
 * list prices (USD per million tokens, as published by the vendors when this list was written).
 * Prices change: tenants override them (`/tenants/{id}/model-catalog/overrides`) and a configured
 * model's own prices always win.
 */
export interface KnownModel {
  providerKinds: readonly AiProviderKind[];
  remoteModelId: string;
  displayName: string;
  operationKinds: readonly OperationKind[];
  maxContextTokens?: number;
  tokenizerName?: string;
  maxInputTokens?: number;
  embeddingDimensions?: number;
  supportsStructuredOutput: boolean;
  supportsToolUse: boolean;
  inputCostPer1MUsd?: number;
  outputCostPer1MUsd?: number;
  cachedInputCostPer1MUsd?: number;
}

/** OpenAI's models are served under the same ids by OpenAI, Azure deployments named alike and proxies. */
const OPENAI_STYLE: readonly AiProviderKind[] = ['kindDirect', 'kindCloudA', 'kindProxy'];

const chat = (
  providerKinds: readonly AiProviderKind[],
  remoteModelId: string,
  displayName: string,
  maxContextTokens: number,
  prices: [input: number, cached: number, output: number],
): KnownModel => ({
  providerKinds,
  remoteModelId,
  displayName,
  operationKinds: ['chat'],
  maxContextTokens,
  supportsStructuredOutput: true,
  supportsToolUse: true,
  inputCostPer1MUsd: prices[0],
  cachedInputCostPer1MUsd: prices[1],
  outputCostPer1MUsd: prices[2],
});

const embedding = (
  providerKinds: readonly AiProviderKind[],
  remoteModelId: string,
  displayName: string,
  shape: { tokenizerName: string; maxInputTokens: number; embeddingDimensions: number },
  inputCostPer1MUsd: number,
): KnownModel => ({
  providerKinds,
  remoteModelId,
  displayName,
  operationKinds: ['embedding'],
  ...shape,
  supportsStructuredOutput: false,
  supportsToolUse: false,
  inputCostPer1MUsd,
});

export const KNOWN_MODELS: readonly KnownModel[] = [
  chat(OPENAI_STYLE, 'gpt-4.1', 'GPT-4.1', 1_047_576, [2, 0.5, 8]),
  chat(OPENAI_STYLE, 'gpt-4.1-mini', 'GPT-4.1 mini', 1_047_576, [0.4, 0.1, 1.6]),
  chat(OPENAI_STYLE, 'gpt-4o', 'GPT-4o', 128_000, [2.5, 1.25, 10]),
  chat(OPENAI_STYLE, 'gpt-4o-mini', 'GPT-4o mini', 128_000, [0.15, 0.075, 0.6]),
  embedding(
    OPENAI_STYLE,
    'text-embedding-3-small',
    'text-embedding-3-small',
    { tokenizerName: 'cl100k_base', maxInputTokens: 8191, embeddingDimensions: 1536 },
    0.02,
  ),
  embedding(
    OPENAI_STYLE,
    'text-embedding-3-large',
    'text-embedding-3-large',
    { tokenizerName: 'cl100k_base', maxInputTokens: 8191, embeddingDimensions: 3072 },
    0.13,
  ),
  chat(['kindAssistant'], 'claude-sonnet-4-20250514', 'Claude Sonnet 4', 200_000, [3, 0.3, 15]),
  chat(['kindAssistant'], 'claude-3-5-haiku-20241022', 'Claude Haiku 3.5', 200_000, [0.8, 0.08, 4]),
  chat(['kindCloudC'], 'gemini-2.5-pro', 'Gemini 2.5 Pro', 1_048_576, [1.25, 0.31, 10]),
  chat(['kindCloudC'], 'gemini-2.5-flash', 'Gemini 2.5 Flash', 1_048_576, [0.3, 0.075, 2.5]),
  embedding(
    ['kindCloudB'],
    'amazon.titan-embed-text-v2:0',
    'Amazon Titan Text Embeddings V2',
    { tokenizerName: 'titan', maxInputTokens: 8192, embeddingDimensions: 1024 },
    0.02,
  ),
];
