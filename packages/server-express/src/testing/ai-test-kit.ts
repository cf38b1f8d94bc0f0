/**
 * Shared by the AI connection tests: an OpenAI-compatible provider fake on loopback and valid
 * profile bodies. Test-only: tests import it, other packages through the source-only `test-kits` entry.
 */
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';

export const CHAT_MODEL = 'qwen2.5-coder:32b';
export const EMBEDDING_MODEL = 'nomic-embed-text';
export const EMBEDDING_DIMENSIONS = 768;

export interface FakeOpenAi extends FakeChatModel {
  /** Vector length the embeddings route answers with. */
  setDimensions(dimensions: number): void;
}

/**
 * The scriptable chat model fake (`/v1/models`, `/v1/chat/completions`, answering `OK`) plus
 * `/v1/embeddings`; `failWith` (e.g. a 401) covers every route until cleared.
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake = await startFakeChatModel({
    models: [CHAT_MODEL, EMBEDDING_MODEL, 'gpt-4.1'],
    respond: { content: 'OK', usage: { prompt_tokens: 12, completion_tokens: 1 } },
  });
  let dimensions = EMBEDDING_DIMENSIONS;
  fake.on('POST', '/v1/embeddings', (request) => {
    const input = (request.json as { input?: unknown[] } | undefined)?.input ?? [];
    return {
      json: {
        object: 'list',
        data: input.map((_, index) => ({
          object: 'embedding',
          index,
          embedding: Array.from({ length: dimensions }, () => 0.01),
        })),
        usage: { prompt_tokens: 4, total_tokens: 4 },
      },
    };
  });
  return Object.assign(fake, {
    setDimensions(value: number) {
      dimensions = value;
    },
  });
}

/** A valid kindCompatible profile for the fake: one chat and one embedding model, both purposes bound. */
export function compatibleProfile(apiRoot: string, apiKey: string, extra: Record<string, unknown> = {}) {
  return {
    displayName: 'Local models',
    providerKind: 'kindCompatible',
    baseUrl: apiRoot,
    auth: { mode: 'apiKey', apiKey },
    configuredModels: [
      { remoteModelId: CHAT_MODEL, supportsStructuredOutput: true, maxContextTokens: 32768 },
      {
        remoteModelId: EMBEDDING_MODEL,
        tokenizerName: 'bert-base-uncased',
        maxInputTokens: 8192,
        embeddingDimensions: EMBEDDING_DIMENSIONS,
      },
    ],
    purposeBindings: [
      { purpose: 'reviewDefault', remoteModelId: CHAT_MODEL },
      { purpose: 'embeddingDefault', remoteModelId: EMBEDDING_MODEL },
    ],
    ...extra,
  };
}

/** A valid kindDirect profile on OpenAI's public endpoint; saving it calls nothing. */
export function openAiProfile(extra: Record<string, unknown> = {}) {
  return {
    displayName: 'OpenAI',
    providerKind: 'kindDirect',
    baseUrl: 'https://api.openai.com/v1',
    auth: { mode: 'apiKey', apiKey: 'sk-test-not-a-real-key-000000' },
    configuredModels: [
      { remoteModelId: 'gpt-4.1', supportsStructuredOutput: true, supportsToolUse: true, maxContextTokens: 1047576 },
      {
        remoteModelId: 'text-embedding-3-small',
        tokenizerName: 'cl100k_base',
        maxInputTokens: 8191,
        embeddingDimensions: 1536,
      },
    ],
    purposeBindings: [
      { purpose: 'reviewDefault', remoteModelId: 'gpt-4.1' },
      { purpose: 'embeddingDefault', remoteModelId: 'text-embedding-3-small', protocolMode: 'embeddings' },
    ],
    ...extra,
  };
}
