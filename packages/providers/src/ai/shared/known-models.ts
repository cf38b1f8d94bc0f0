import type { KnownModelV1 } from '@margin/core/spec';

/**
 * Well-known models each built-in kind lists in the catalog, with their context windows, embedding
 * shapes and list prices (USD per million tokens, as the vendors published them when this list was
 * written). Prices change: tenants override them, and a configured model's own prices always win.
 */

const chat = (
  remoteModelId: string,
  displayName: string,
  maxContextTokens: number,
  prices: [input: number, cached: number, output: number],
): KnownModelV1 => ({
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
  remoteModelId: string,
  displayName: string,
  shape: { tokenizerName: string; maxInputTokens: number; embeddingDimensions: number },
  inputCostPer1MUsd: number,
): KnownModelV1 => ({
  remoteModelId,
  displayName,
  operationKinds: ['embedding'],
  ...shape,
  supportsStructuredOutput: false,
  supportsToolUse: false,
  inputCostPer1MUsd,
});

/** OpenAI's models, served under the same ids by OpenAI, Azure deployments named alike and proxies. */
export const OPENAI_MODELS: readonly KnownModelV1[] = [
  chat('gpt-4.1', 'GPT-4.1', 1_047_576, [2, 0.5, 8]),
  chat('gpt-4.1-mini', 'GPT-4.1 mini', 1_047_576, [0.4, 0.1, 1.6]),
  chat('gpt-4o', 'GPT-4o', 128_000, [2.5, 1.25, 10]),
  chat('gpt-4o-mini', 'GPT-4o mini', 128_000, [0.15, 0.075, 0.6]),
  embedding(
    'text-embedding-3-small',
    'text-embedding-3-small',
    { tokenizerName: 'cl100k_base', maxInputTokens: 8191, embeddingDimensions: 1536 },
    0.02,
  ),
  embedding(
    'text-embedding-3-large',
    'text-embedding-3-large',
    { tokenizerName: 'cl100k_base', maxInputTokens: 8191, embeddingDimensions: 3072 },
    0.13,
  ),
];

export const ANTHROPIC_MODELS: readonly KnownModelV1[] = [
  chat('claude-sonnet-4-20250514', 'Claude Sonnet 4', 200_000, [3, 0.3, 15]),
  chat('claude-3-5-haiku-20241022', 'Claude Haiku 3.5', 200_000, [0.8, 0.08, 4]),
];

export const GEMINI_MODELS: readonly KnownModelV1[] = [
  chat('gemini-2.5-pro', 'Gemini 2.5 Pro', 1_048_576, [1.25, 0.31, 10]),
  chat('gemini-2.5-flash', 'Gemini 2.5 Flash', 1_048_576, [0.3, 0.075, 2.5]),
];

export const BEDROCK_MODELS: readonly KnownModelV1[] = [
  embedding(
    'amazon.titan-embed-text-v2:0',
    'Amazon Titan Text Embeddings V2',
    { tokenizerName: 'titan', maxInputTokens: 8192, embeddingDimensions: 1024 },
    0.02,
  ),
];
