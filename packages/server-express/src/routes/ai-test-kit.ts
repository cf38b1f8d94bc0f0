/**
 * Shared by the AI connection tests: an OpenAI-compatible provider fake on loopback and valid
 * profile bodies. Test-only: tests import it, other packages through the source-only `test-kits` entry.
 */
import { type FakeHttpServer, type FakeRequest, startFakeHttpServer } from '@margin/providers/testing';

export const CHAT_MODEL = 'qwen2.5-coder:32b';
export const EMBEDDING_MODEL = 'nomic-embed-text';
export const EMBEDDING_DIMENSIONS = 768;

export interface FakeOpenAi extends FakeHttpServer {
  /** The OpenAI API root of the fake, for `baseUrl`. */
  apiRoot: string;
  /** Answer every call with this status and body instead (e.g. 401), until cleared. */
  failWith(reply: { status: number; json: unknown } | undefined): void;
  /** Vector length the embeddings route answers with. */
  setDimensions(dimensions: number): void;
}

/** A fake OpenAI-compatible server: `/v1/models`, `/v1/chat/completions`, `/v1/embeddings`. */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake = await startFakeHttpServer();
  let failure: { status: number; json: unknown } | undefined;
  let dimensions = EMBEDDING_DIMENSIONS;
  const guard = (answer: (request: FakeRequest) => { json: unknown }) => (request: FakeRequest) =>
    failure ?? answer(request);
  fake.on(
    'GET',
    '/v1/models',
    guard(() => ({
      json: {
        object: 'list',
        data: [
          { id: CHAT_MODEL, object: 'model', owned_by: 'library' },
          { id: EMBEDDING_MODEL, object: 'model', owned_by: 'library' },
          { id: 'gpt-4.1', object: 'model', owned_by: 'library' },
        ],
      },
    })),
  );
  fake.on(
    'POST',
    '/v1/chat/completions',
    guard(() => ({
      json: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 },
      },
    })),
  );
  fake.on(
    'POST',
    '/v1/embeddings',
    guard((request) => {
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
    }),
  );
  return Object.assign(fake, {
    apiRoot: `${fake.url}/v1`,
    failWith(reply: { status: number; json: unknown } | undefined) {
      failure = reply;
    },
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
