import { modesOf } from '@margin/core/spec';
import { marginErrorOf } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../testing/index.js';
import { chatSpec, embeddingSpec, fakeRuntime, profile, REVIEW_SCHEMA } from '../shared/ai-adapter-test-kit.js';
import { createOpenAiCompatibleKind } from './openai-compatible-kind.js';

const fixture = fixtureReader(import.meta.url);
const KEY = 'sk-test-secret-0123456789';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

describe('OpenAI-compatible servers (kindCompatible)', () => {
  const kind = () => createOpenAiCompatibleKind(fakeRuntime());
  const keyless = (baseUrl: string) => profile('kindCompatible', baseUrl, { auth: { mode: 'apiKey', apiKey: '' } });

  it('sends no Authorization header without a key and adds /v1 to a bare host', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ json: fixture('chat-completion-no-usage') }));
    const model = kind().createModel(keyless(fake.url), chatSpec('qwen2.5-coder:14b'));
    const result = await model.chat({
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { name: 'r', schema: { ...REVIEW_SCHEMA } },
      maxOutputTokens: 64,
    });
    expect(result).toMatchObject({
      text: 'Looks fine.',
      protocolMode: 'chatCompletions',
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    });
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    expect(fake.requests[0]?.json).toMatchObject({
      max_tokens: 64,
      response_format: { type: 'json_schema', json_schema: { name: 'r', strict: true } },
    });
  });

  it('sends Bearer when a key is set and keeps the given API root', async () => {
    fake.on('POST', '/api/v1/chat/completions', () => ({ json: fixture('chat-completion-text') }));
    const model = kind().createModel(profile('kindCompatible', `${fake.url}/api/v1`), chatSpec('m'));
    await model.chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('never uses the Responses API', async () => {
    const error = await marginErrorOf(
      Promise.resolve().then(() => kind().createModel(keyless(fake.url), chatSpec('m', { protocolMode: 'responses' }))),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/responses is not available for provider kind kindCompatible/);
    expect(modesOf(kind())).toEqual(['auto', 'chatCompletions', 'embeddings']);
  });

  it('embeds without sending dimensions', async () => {
    fake.on('POST', '/v1/embeddings', () => ({ json: fixture('embeddings') }));
    const model = kind().createModel(
      keyless(fake.url),
      embeddingSpec('nomic-embed-text', { embeddingDimensions: 768 }),
    );
    await model.embed(['a', 'b']);
    expect(fake.requests[0]?.json).not.toHaveProperty('dimensions');
  });

  it('discovers from {root}/models and falls back to /v1/models', async () => {
    fake.on('GET', '/api/models', () => ({ status: 404, text: 'not found' }));
    fake.on('GET', '/api/v1/models', () => ({ json: fixture('models') }));
    const result = await kind().discoverModels(keyless(`${fake.url}/api`));
    expect(result.discoveryStatus).toBe('succeeded');
    expect(fake.requests.map((r) => r.path)).toEqual(['/api/models', '/api/v1/models']);
  });

  it('warns in the probe that no key is sent', async () => {
    fake.on('GET', '/v1/models', () => ({ json: { object: 'list', data: [{ id: 'llama3.1:8b', object: 'model' }] } }));
    const result = await kind().probe(keyless(fake.url));
    expect(result.status).toBe('succeeded');
    expect(result.warnings).toEqual(['No API key is set, so calls are sent without an Authorization header.']);
  });

  it('reports an endpoint that does not speak the API as capabilityMismatch', async () => {
    fake.on('GET', '/v1/models', () => ({ json: { status: 'ok' } }));
    expect(await kind().probe(keyless(fake.url))).toMatchObject({
      status: 'failed',
      failureCategory: 'capabilityMismatch',
    });
  });

  it.each([
    ['vLLM', 400, 'vllm-context-length'],
    ['Ollama', 400, 'ollama-context-length'],
    ['LM Studio', 400, 'lmstudio-context-length'],
    ['llama.cpp', 400, 'llamacpp-context-size'],
    // Only the words decide; an overflow is never worth a retry, whatever the status.
    ['a server answering 500', 500, 'vllm-context-length'],
  ] as const)(
    'reports %s saying the input is too long as contextLengthExceeded, without retrying',
    async (_server, status, body) => {
      fake.on('POST', '/v1/chat/completions', () => ({ status, json: fixture(body) }));
      const error = await marginErrorOf(
        kind()
          .createModel(keyless(fake.url), chatSpec('qwen2.5-coder:32b'))
          .chat({ messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(error.details).toEqual({ providerFailure: 'contextLengthExceeded', providerStatus: status });
      expect(fake.requests).toHaveLength(1);
    },
  );

  it('keeps a 400 that only echoes such words from the request as rejected', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ status: 400, json: fixture('vllm-validation-echo') }));
    const error = await marginErrorOf(
      kind()
        .createModel(keyless(fake.url), chatSpec('qwen2.5-coder:32b'))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 400 });
  });

  it('refuses azureIdentity auth', async () => {
    const error = await marginErrorOf(
      Promise.resolve().then(() =>
        kind().createModel(profile('kindCompatible', fake.url, { auth: { mode: 'azureIdentity' } }), chatSpec('m')),
      ),
    );
    expect(error.code).toBe('validation_failed');
  });
});

describe('OpenAI-compatible servers (kindCompatible): the deadline of a call', () => {
  const ask = (runtime: { timeoutMs: number; retries?: number }, signal?: AbortSignal) =>
    createOpenAiCompatibleKind(fakeRuntime(runtime))
      .createModel(profile('kindCompatible', fake.url), chatSpec('qwen2.5-coder:32b'))
      .chat({ messages: [{ role: 'user', content: 'x' }], signal });

  it('fails a chat whose answer trickles after its headers as a timeout, within the deadline', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ json: fixture('chat-completion-text'), trickleMs: 50 }));
    const started = Date.now();
    const error = await marginErrorOf(ask({ timeoutMs: 200, retries: 0 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe('provider_unavailable');
    expect(error.details).toEqual({ providerFailure: 'timeout' });
    expect(error.message).toBe('The OpenAI-compatible server did not answer within 0.2 s.');
    expect(error.message).not.toContain(KEY);
  });

  it('reports the caller’s abort during a trickling answer as a cancellation, at once', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ json: fixture('chat-completion-text'), trickleMs: 50 }));
    const controller = new AbortController();
    const started = Date.now();
    const pending = marginErrorOf(ask({ timeoutMs: 60_000 }, controller.signal));
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.details).toEqual({ providerFailure: 'cancelled' });
    expect(fake.requests).toHaveLength(1);
  });
});
