import { type AiUsage, MarginError } from '@margin/core/spec';
import { type JsonObject, readArray, readObject } from '../../utils/index.js';
import { usageOf } from '../shared/usage.js';
import { count } from '../shared/wire-values.js';

/** Cohere on Bedrock takes at most 96 texts per call; Titan one. */
export const COHERE_BATCH = 96;

export type EmbeddingFamily = 'titan' | 'titanV2' | 'cohere';

/** The body shape InvokeModel expects, from the model id (also inside a profile id or an ARN). */
export function embeddingFamilyOf(modelId: string): EmbeddingFamily {
  const id = modelId.toLowerCase();
  if (id.includes('amazon.titan-embed')) return /titan-embed-text-v2/.test(id) ? 'titanV2' : 'titan';
  if (id.includes('cohere.embed')) return 'cohere';
  throw MarginError.validation(
    `AWS Bedrock embeddings are supported for Amazon Titan and Cohere embedding models; ${modelId} is neither.`,
    [{ path: 'remoteModelId', message: 'Use an amazon.titan-embed-* or cohere.embed-* model.' }],
  );
}

export function titanBody(text: string, family: EmbeddingFamily, dimensions: number | undefined): JsonObject {
  // Titan v1 takes only the text; v2 adds dimensions (256, 512 or 1024) and normalisation.
  if (family !== 'titanV2') return { inputText: text };
  return { inputText: text, normalize: true, ...(dimensions !== undefined ? { dimensions } : {}) };
}

export function parseTitan(body: unknown): { vector: number[]; usage: AiUsage } {
  const response = readObject(body);
  const vector = readArray(response?.embedding);
  if (vector.length === 0 || !vector.every((v) => typeof v === 'number')) {
    throw MarginError.provider('invalidResponse', 'AWS Bedrock answered a Titan embedding without a vector.');
  }
  return { vector: vector as number[], usage: usageOf({ inputTokens: count(response?.inputTextTokenCount) }) };
}

export function cohereBody(texts: readonly string[]): JsonObject {
  return { texts, input_type: 'search_document', embedding_types: ['float'] };
}

/** `{embeddings: {float: [[…]]}}` with embedding_types, `{embeddings: [[…]]}` without. */
export function parseCohere(
  body: unknown,
  expected: number,
  headerTokens: string | null,
): { vectors: number[][]; usage: AiUsage } {
  const embeddings = readObject(body)?.embeddings;
  const list = Array.isArray(embeddings) ? embeddings : readArray(readObject(embeddings)?.float);
  const vectors = list.filter((v): v is number[] => Array.isArray(v) && v.every((n) => typeof n === 'number'));
  if (vectors.length !== expected) {
    throw MarginError.provider(
      'invalidResponse',
      `AWS Bedrock answered ${vectors.length} Cohere embeddings for ${expected} inputs.`,
    );
  }
  return { vectors, usage: usageOf({ inputTokens: count(Number(headerTokens ?? 0)) }) };
}
