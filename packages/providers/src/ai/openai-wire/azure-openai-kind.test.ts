import { marginErrorOf } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../testing/index.js';
import { chatSpec, embeddingSpec, fakeRuntime, profile, REVIEW_SCHEMA } from '../shared/ai-adapter-test-kit.js';
import { createAzureOpenAiKind } from './azure-openai-kind.js';

const fixture = fixtureReader(import.meta.url);
const KEY = 'sk-test-secret-0123456789';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

describe('Azure OpenAI (kindCloudA): v1 URLs with an api-key', () => {
  it('calls /openai/v1/responses with the api-key header and the deployment as model', async () => {
    fake.on('POST', '/openai/v1/responses', () => ({ json: fixture('responses-structured') }));
    const kind = createAzureOpenAiKind(fakeRuntime());
    const model = kind.createModel(
      profile('kindCloudA', `${fake.url}/`, { defaultQueryParams: { 'api-version': 'preview' } }),
      chatSpec('review-gpt5'),
    );
    const result = await model.chat({
      messages: [{ role: 'user', content: 'review' }],
      responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
    });
    expect(result.protocolMode).toBe('responses');
    const req = fake.requests[0];
    expect(req?.headers['api-key']).toBe(KEY);
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.query.get('api-version')).toBe('preview');
    expect(req?.json).toMatchObject({ model: 'review-gpt5', store: false });
  });

  it.each([
    ['', '/openai/v1/chat/completions'],
    ['/openai', '/openai/v1/chat/completions'],
    ['/openai/v1', '/openai/v1/chat/completions'],
    ['/openai/v1/', '/openai/v1/chat/completions'],
  ])('accepts the base path %j', async (path, expected) => {
    fake.on('POST', expected, () => ({ json: fixture('chat-completion-text') }));
    const model = createAzureOpenAiKind(fakeRuntime()).createModel(
      profile('kindCloudA', `${fake.url}${path}`),
      chatSpec('dep', { protocolMode: 'chatCompletions' }),
    );
    await model.chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(fake.requests[0]?.path).toBe(expected);
  });

  it('embeds through /openai/v1/embeddings', async () => {
    fake.on('POST', '/openai/v1/embeddings', () => ({ json: fixture('embeddings') }));
    const model = createAzureOpenAiKind(fakeRuntime()).createModel(
      profile('kindCloudA', fake.url),
      embeddingSpec('embed-dep', { embeddingDimensions: 3 }),
    );
    expect((await model.embed(['a', 'b'])).vectors).toHaveLength(2);
    expect(fake.requests[0]?.json).toMatchObject({ model: 'embed-dep', dimensions: 3 });
  });

  it('reads a content-filtered answer leniently', async () => {
    fake.on('POST', '/openai/v1/chat/completions', () => ({ json: fixture('chat-completion-azure-filtered') }));
    const model = createAzureOpenAiKind(fakeRuntime()).createModel(
      profile('kindCloudA', fake.url),
      chatSpec('dep', { protocolMode: 'chatCompletions' }),
    );
    expect((await model.chat({ messages: [{ role: 'user', content: 'x' }] })).finishReason).toBe('contentFilter');
  });

  it('retries Azure 429s with retry-after-ms', async () => {
    let calls = 0;
    fake.on('POST', '/openai/v1/responses', () =>
      ++calls === 1
        ? { status: 429, headers: { 'retry-after-ms': '10', 'retry-after': '1' }, json: fixture('azure-rate-limit') }
        : { json: fixture('responses-text') },
    );
    const model = createAzureOpenAiKind(fakeRuntime()).createModel(profile('kindCloudA', fake.url), chatSpec('dep'));
    await model.chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(calls).toBe(2);
  });

  it('reports context_length_exceeded as contextLengthExceeded, without retrying', async () => {
    fake.on('POST', '/openai/v1/chat/completions', () => ({ status: 400, json: fixture('error-context-length') }));
    const model = createAzureOpenAiKind(fakeRuntime()).createModel(
      profile('kindCloudA', fake.url),
      chatSpec('my-gpt4o-deployment', { protocolMode: 'chatCompletions' }),
    );
    const error = await marginErrorOf(model.chat({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.details).toEqual({ providerFailure: 'contextLengthExceeded', providerStatus: 400 });
    expect(error.message).toMatch(/^Azure OpenAI answered 400: This model's maximum context length is 128000 tokens/);
    expect(fake.requests).toHaveLength(1);
  });

  it('maps 401 to credentials', async () => {
    fake.on('POST', '/openai/v1/responses', () => ({
      status: 401,
      json: { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' } },
    }));
    const model = createAzureOpenAiKind(fakeRuntime()).createModel(profile('kindCloudA', fake.url), chatSpec('dep'));
    const error = await marginErrorOf(model.chat({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.details).toMatchObject({ providerFailure: 'credentials' });
    expect(error.message).toMatch(/^Azure OpenAI answered 401/);
  });

  it('probes with the v1 model list and cannot discover deployments', async () => {
    fake.on('GET', '/openai/v1/models', () => ({ json: fixture('models') }));
    const kind = createAzureOpenAiKind(fakeRuntime());
    expect(kind.supportsDiscovery).toBe(false);
    const probe = await kind.probe(profile('kindCloudA', fake.url));
    expect(probe).toMatchObject({ status: 'succeeded' });
    expect(fake.requests[0]?.headers['api-key']).toBe(KEY);
    const discovery = await kind.discoverModels(profile('kindCloudA', fake.url));
    expect(discovery).toMatchObject({ discoveryStatus: 'failed', manualEntryAllowed: true, models: [] });
    expect(discovery.warnings[0]).toMatch(/Azure Resource Manager/);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('Azure OpenAI (kindCloudA): dated API versions', () => {
  it('uses deployment URLs with api-version and resolves auto to Chat Completions', async () => {
    fake.on('POST', '/openai/deployments/:dep/chat/completions', () => ({ json: fixture('chat-completion-text') }));
    const model = createAzureOpenAiKind(fakeRuntime()).createModel(
      profile('kindCloudA', fake.url, { defaultQueryParams: { 'api-version': '2024-10-21' } }),
      chatSpec('my gpt-4o'),
    );
    const result = await model.chat({ messages: [{ role: 'user', content: 'x' }], maxOutputTokens: 100 });
    expect(result.protocolMode).toBe('chatCompletions');
    const req = fake.requests[0];
    expect(req?.params.dep).toBe('my gpt-4o');
    expect(req?.query.get('api-version')).toBe('2024-10-21');
    expect(req?.json).toMatchObject({ model: 'my gpt-4o', max_completion_tokens: 100 });
  });

  it('embeds through the deployment URL', async () => {
    fake.on('POST', '/openai/deployments/embed/embeddings', () => ({ json: fixture('embeddings') }));
    const model = createAzureOpenAiKind(fakeRuntime()).createModel(
      profile('kindCloudA', `${fake.url}/openai`, { defaultQueryParams: { 'api-version': '2024-10-21' } }),
      embeddingSpec('embed'),
    );
    await model.embed(['a', 'b']);
    expect(fake.requests[0]?.query.get('api-version')).toBe('2024-10-21');
  });
});

describe('Azure OpenAI (kindCloudA): managed identity', () => {
  const IMDS_PATH = '/metadata/identity/oauth2/token';

  it('gets a token from IMDS for the Cognitive Services resource, sends it as Bearer, and caches it', async () => {
    fake.on('GET', IMDS_PATH, () => ({ json: fixture('imds-token') }));
    fake.on('POST', '/openai/v1/responses', () => ({ json: fixture('responses-text') }));
    let now = 1_760_000_000_000;
    const kind = createAzureOpenAiKind(fakeRuntime({ now: () => now }), { endpoint: `${fake.url}${IMDS_PATH}` });
    const model = kind.createModel(
      profile('kindCloudA', fake.url, { auth: { mode: 'azureIdentity' } }),
      chatSpec('dep'),
    );

    await model.chat({ messages: [{ role: 'user', content: 'one' }] });
    await model.chat({ messages: [{ role: 'user', content: 'two' }] });
    const imds = fake.requests.filter((r) => r.path === IMDS_PATH);
    expect(imds).toHaveLength(1);
    expect(imds[0]?.headers.metadata).toBe('true');
    expect(imds[0]?.query.get('resource')).toBe('https://cognitiveservices.azure.com');
    expect(imds[0]?.query.get('api-version')).toBe('2018-02-01');
    const calls = fake.requests.filter((r) => r.path === '/openai/v1/responses');
    for (const call of calls) {
      expect(call.headers.authorization).toBe(`Bearer ${fixture('imds-token').access_token}`);
      expect(call.headers['api-key']).toBeUndefined();
    }

    // expires_on is 1760086400 s; within five minutes of it the token is fetched again.
    now = 1_760_086_400_000 - 60_000;
    await model.chat({ messages: [{ role: 'user', content: 'three' }] });
    expect(fake.requests.filter((r) => r.path === IMDS_PATH)).toHaveLength(2);
  });

  it('fails with credentials when no managed identity answers', async () => {
    fake.on('GET', IMDS_PATH, () => ({
      status: 400,
      json: { error: 'invalid_request', error_description: 'Identity not found' },
    }));
    const kind = createAzureOpenAiKind(fakeRuntime(), { endpoint: `${fake.url}${IMDS_PATH}` });
    const probe = await kind.probe(profile('kindCloudA', fake.url, { auth: { mode: 'azureIdentity' } }));
    expect(probe).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    expect(probe.summary).toMatch(/managed identity/);
  });
});
