import { type AiUsage, MarginError } from '@margin/core/spec';
import { type JsonObject, readArray, readObject } from '../../utils/index.js';
import { usageOf } from '../shared/usage.js';
import { count } from '../shared/wire-values.js';

/** Texts per `:predict` call: well under Vertex's 250-instance and 20k-token request limits. */
export const PREDICT_BATCH = 32;
/** Requests per `:batchEmbedContents` call (Gemini API limit 100). */
export const BATCH_EMBED_LIMIT = 100;

const isVector = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length > 0 && v.every((n) => typeof n === 'number');

function invalid(what: string): MarginError {
  return MarginError.provider('invalidResponse', `Google answered ${what} in an unexpected shape.`);
}

/** Vertex text-embedding models: `:predict` with `instances`. */
export function predictBody(texts: readonly string[], dimensions: number | undefined): JsonObject {
  return {
    instances: texts.map((content) => ({ content })),
    ...(dimensions !== undefined ? { parameters: { outputDimensionality: dimensions } } : {}),
  };
}

export function parsePredict(body: unknown, expected: number): { vectors: number[][]; usage: AiUsage } {
  const predictions = readArray(readObject(body)?.predictions).map((p) => readObject(readObject(p)?.embeddings));
  const vectors = predictions.map((e) => e?.values).filter(isVector);
  if (vectors.length !== expected) throw invalid(`${vectors.length} embeddings for ${expected} inputs`);
  const tokens = predictions.reduce((sum, e) => sum + count(readObject(e?.statistics)?.token_count), 0);
  return { vectors, usage: usageOf({ inputTokens: tokens }) };
}

/** Vertex gemini-embedding models: `:embedContent`, one text per call. */
export function embedContentBody(text: string, dimensions: number | undefined): JsonObject {
  return {
    content: { parts: [{ text }] },
    ...(dimensions !== undefined ? { embedContentConfig: { outputDimensionality: dimensions } } : {}),
  };
}

export function parseEmbedContent(body: unknown): { vector: number[]; usage: AiUsage } {
  const response = readObject(body);
  const embedding = readObject(response?.embedding);
  if (!isVector(embedding?.values)) throw invalid('an embedding');
  const tokens =
    count(readObject(response?.usageMetadata)?.promptTokenCount) ||
    count(readObject(embedding?.statistics)?.token_count);
  return { vector: embedding.values, usage: usageOf({ inputTokens: tokens }) };
}

/** Gemini Developer API: `:batchEmbedContents`. */
export function batchEmbedBody(model: string, texts: readonly string[], dimensions: number | undefined): JsonObject {
  return {
    requests: texts.map((text) => ({
      model: `models/${model}`,
      content: { parts: [{ text }] },
      ...(dimensions !== undefined ? { outputDimensionality: dimensions } : {}),
    })),
  };
}

export function parseBatchEmbed(body: unknown, expected: number): number[][] {
  const vectors = readArray(readObject(body)?.embeddings)
    .map((e) => readObject(e)?.values)
    .filter(isVector);
  if (vectors.length !== expected) throw invalid(`${vectors.length} embeddings for ${expected} inputs`);
  return vectors;
}
