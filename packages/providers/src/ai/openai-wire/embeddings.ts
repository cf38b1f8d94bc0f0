import { type AiUsage, MarginError } from '@margin/core/spec';
import { type JsonObject, readArray, readNumber, readObject } from '../../utils/index.js';
import { usageOf } from '../shared/usage.js';
import { count } from '../shared/wire-values.js';

/** Inputs per request: well under OpenAI's 2048 and small enough for proxies and local servers. */
export const EMBEDDING_BATCH = 128;

export function buildEmbeddingsBody(
  model: string,
  texts: readonly string[],
  dimensions: number | undefined,
): JsonObject {
  const body: JsonObject = { model, input: texts, encoding_format: 'float' };
  if (dimensions !== undefined) body.dimensions = dimensions;
  return body;
}

export function parseEmbeddingsBody(
  body: unknown,
  expected: number,
  provider: string,
): { vectors: number[][]; usage: AiUsage } {
  const entries = readArray(readObject(body)?.data)
    .map((item) => readObject(item))
    .filter((e): e is JsonObject => e !== undefined);
  const vectors: number[][] = new Array(entries.length);
  entries.forEach((entry, position) => {
    const index = readNumber(entry.index) ?? position;
    const embedding = readArray(entry.embedding);
    if (embedding.length === 0 || !embedding.every((v) => typeof v === 'number')) {
      throw MarginError.provider(
        'invalidResponse',
        `${provider} answered with an embedding that is not a list of numbers.`,
      );
    }
    vectors[index] = embedding as number[];
  });
  // `some` skips holes in a sparse array, so count the filled slots instead.
  const filled = vectors.filter((v) => v !== undefined).length;
  if (entries.length !== expected || filled !== expected) {
    throw MarginError.provider(
      'invalidResponse',
      `${provider} answered with ${entries.length} embeddings for ${expected} inputs.`,
    );
  }
  return { vectors, usage: usageOf({ inputTokens: count(readObject(readObject(body)?.usage)?.prompt_tokens) }) };
}
