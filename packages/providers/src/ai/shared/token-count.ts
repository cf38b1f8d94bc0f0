import { createRequire } from 'node:module';
import type { TokenCount } from '@margin/core/spec';

/** The OpenAI tokenizers we count with exactly. */
export type OpenAiEncoding = 'o200k_base' | 'cl100k_base';

/**
 * Which tokenizer a model id uses, from the id alone; undefined when unknown. A LiteLLM or
 * OpenRouter prefix (`openai/`, `azure/`) and a fine-tune prefix (`ft:`) are looked through.
 * Azure deployment names are arbitrary, so a deployment counts exactly only when named after
 * its model.
 */
export function openAiEncodingOf(remoteModelId: string): OpenAiEncoding | undefined {
  const id = remoteModelId
    .trim()
    .toLowerCase()
    .replace(/^(?:openai|azure)\//, '')
    .replace(/^ft:/, '');
  // gpt-oss uses o200k_harmony, which only adds special tokens: plain text counts the same.
  if (/^(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)(?:$|[-.:_])/.test(id)) return 'o200k_base';
  if (/^(?:gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)(?:$|[-:_])/.test(id)) return 'cl100k_base';
  return undefined;
}

/** What the engine budgets with when no tokenizer is known. */
export function estimateTokens(text: string): TokenCount {
  return { tokens: Math.ceil(text.length / 3.5), exact: false };
}

type Counter = (text: string) => number;
type EncodingModule = typeof import('gpt-tokenizer/encoding/o200k_base');

// Text is counted as text: `<|endoftext|>` in a diff is not a special token (and must not throw).
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
const requireHere = createRequire(import.meta.url);
// Each encoding's ranks are megabytes of data, so they load on the first count, not at start-up;
// a literal per encoding keeps the requires visible to bundlers.
const LOADERS: Readonly<Record<OpenAiEncoding, () => EncodingModule>> = {
  o200k_base: () => requireHere('gpt-tokenizer/encoding/o200k_base') as EncodingModule,
  cl100k_base: () => requireHere('gpt-tokenizer/encoding/cl100k_base') as EncodingModule,
};
const counters = new Map<OpenAiEncoding, Counter | null>();

function counterFor(encoding: OpenAiEncoding): Counter | undefined {
  let counter = counters.get(encoding);
  if (counter === undefined) {
    try {
      const api = LOADERS[encoding]();
      counter = (text) => api.countTokens(text, PLAIN_TEXT);
    } catch {
      counter = null; // a host that bundled us without the tokenizer data still gets estimates
    }
    counters.set(encoding, counter);
  }
  return counter ?? undefined;
}

/**
 * The `countTokens` of a model behind an OpenAI-style endpoint: exact with its tokenizer when the
 * id names a known OpenAI model, otherwise the estimate.
 */
export function tokenCounterFor(remoteModelId: string): (text: string) => TokenCount {
  const encoding = openAiEncodingOf(remoteModelId);
  if (!encoding) return estimateTokens;
  return (text) => {
    const counter = counterFor(encoding);
    return counter ? { tokens: counter(text), exact: true } : estimateTokens(text);
  };
}
