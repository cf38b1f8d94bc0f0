import { marginErrorOf } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../testing/index.js';
import { chatSpec, embeddingSpec, fakeRuntime, profile, READ_FILE_TOOL } from '../shared/ai-adapter-test-kit.js';
import { createLiteLlmProxyKind } from './litellm-proxy-kind.js';

const fixture = fixtureReader(import.meta.url);
const KEY = 'sk-test-secret-0123456789';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

describe('LiteLLM proxy (kindProxy)', () => {
  const kind = () => createLiteLlmProxyKind(fakeRuntime());

  it('chats over /v1/chat/completions by default with a Bearer key and max_tokens', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ json: fixture('chat-completion-tool-call') }));
    const model = kind().createModel(profile('kindProxy', fake.url), chatSpec('gpt-4o'));
    const result = await model.chat({
      messages: [{ role: 'user', content: 'review' }],
      tools: [READ_FILE_TOOL],
      maxOutputTokens: 256,
    });
    expect(result).toMatchObject({ protocolMode: 'chatCompletions', finishReason: 'toolCalls' });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0]?.json).toMatchObject({ model: 'gpt-4o', max_tokens: 256, tool_choice: 'auto' });
  });

  it('takes a base URL that already ends in /v1, and the Responses API when declared', async () => {
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-text') }));
    const model = kind().createModel(
      profile('kindProxy', `${fake.url}/v1`),
      chatSpec('gpt-4o', { protocolMode: 'responses' }),
    );
    expect((await model.chat({ messages: [{ role: 'user', content: 'x' }] })).protocolMode).toBe('responses');
  });

  it('embeds through /v1/embeddings', async () => {
    fake.on('POST', '/v1/embeddings', () => ({ json: fixture('embeddings') }));
    const model = kind().createModel(profile('kindProxy', fake.url), embeddingSpec('embed-large'));
    expect((await model.embed(['a', 'b'])).usage.inputTokens).toBe(12);
  });

  it('does not retry an exhausted budget and reports it as quotaExceeded', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ status: 400, json: fixture('litellm-budget-exceeded') }));
    const model = kind().createModel(profile('kindProxy', fake.url), chatSpec('gpt-4o'));
    const error = await marginErrorOf(model.chat({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.details).toMatchObject({ providerFailure: 'quotaExceeded', providerStatus: 400 });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports ContextWindowExceededError as contextLengthExceeded, without retrying', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ status: 400, json: fixture('litellm-context-window-exceeded') }));
    const error = await marginErrorOf(
      kind()
        .createModel(profile('kindProxy', fake.url), chatSpec('gpt-4'))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toEqual({ providerFailure: 'contextLengthExceeded', providerStatus: 400 });
    expect(error.message).toMatch(/^LiteLLM answered 400: litellm\.ContextWindowExceededError/);
    expect(fake.requests).toHaveLength(1);
  });

  it('discovers models with modes, limits and per-million prices from /model/info', async () => {
    fake.on('GET', '/model/info', () => ({ json: fixture('litellm-model-info') }));
    const result = await kind().discoverModels(profile('kindProxy', `${fake.url}/v1`));
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(result).toEqual({
      discoveryStatus: 'succeeded',
      manualEntryAllowed: true,
      warnings: [],
      models: [
        {
          remoteModelId: 'embed-large',
          operationKinds: ['embedding'],
          maxContextTokens: undefined,
          maxInputTokens: 8191,
          embeddingDimensions: 3072,
          supportsToolUse: undefined,
          supportsStructuredOutput: undefined,
          inputCostPer1MUsd: 0.13,
          outputCostPer1MUsd: 0,
          cachedInputCostPer1MUsd: undefined,
        },
        {
          remoteModelId: 'gpt-4o',
          operationKinds: ['chat'],
          maxContextTokens: 128000,
          maxInputTokens: undefined,
          embeddingDimensions: undefined,
          supportsToolUse: true,
          supportsStructuredOutput: true,
          inputCostPer1MUsd: 2.5,
          outputCostPer1MUsd: 10,
          cachedInputCostPer1MUsd: 1.25,
        },
      ],
    });
  });

  it('falls back to /v1/models when /model/info is not there', async () => {
    fake.on('GET', '/model/info', () => ({ status: 404, json: { detail: 'Not Found' } }));
    fake.on('GET', '/v1/models', () => ({ json: fixture('models') }));
    const result = await kind().discoverModels(profile('kindProxy', fake.url));
    expect(result.discoveryStatus).toBe('succeeded');
    expect(result.models.map((m) => m.remoteModelId)).toContain('gpt-5.1');
    expect(result.warnings[0]).toMatch(/\/model\/info was not available/);
  });

  it('probes with the model list and maps a bad key to credentials', async () => {
    fake.on('GET', '/v1/models', () => ({
      status: 401,
      json: {
        error: { message: 'Authentication Error, Invalid proxy server token passed.', type: 'auth_error', code: '401' },
      },
    }));
    expect(await kind().probe(profile('kindProxy', fake.url))).toMatchObject({
      status: 'failed',
      failureCategory: 'credentials',
    });
  });
});
