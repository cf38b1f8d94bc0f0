import { createVerify, generateKeyPairSync } from 'node:crypto';
import type { lookup as dnsLookup } from 'node:dns';
import { marginErrorOf } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { type FakeHttpServer, type FakeRequest, startFakeHttpServer } from '../../testing/index.js';
import {
  chatSpec,
  embeddingSpec,
  FORCED_TOOL_REQUEST,
  fakeRuntime,
  profile,
  READ_FILE_TOOL,
  REVIEW_SCHEMA,
  sentBody,
  storedProfile,
} from '../shared/ai-adapter-test-kit.js';
import { toGeminiSchema } from './gemini-schema.js';
import { createVertexKind } from './vertex-kind.js';

const fixture = fixtureReader(import.meta.url);
const API_KEY = 'AIzaSyTestKey0123456789abcdefghijklmnop';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

const kind = (now = () => Date.parse('2026-03-04T05:06:07Z')) => createVertexKind(fakeRuntime({ now }));
/** A profile as stored, settings among its `defaultQueryParams`, split by the kind's settings as core splits it. */
const withKey = (params: Record<string, string> = { project: 'my-proj', location: 'us-central1' }) =>
  storedProfile(kind(), fake.url, { auth: { mode: 'apiKey', apiKey: API_KEY }, defaultQueryParams: params });
const MODEL_PATH = '/v1/projects/my-proj/locations/us-central1/publishers/google/models';

describe('Google Vertex AI (kindCloudC): generateContent', () => {
  it('sends system instruction, contents and generation config with x-goog-api-key, and normalises usage', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: fixture('generate-content-text') }));
    const model = kind().createModel(
      withKey({ project: 'my-proj', location: 'us-central1', labels: 'review' }),
      chatSpec('gemini-2.5-pro'),
    );
    const result = await model.chat({
      system: 'You review code.',
      messages: [{ role: 'user', content: 'diff' }],
      temperature: 0.3,
      maxOutputTokens: 2000,
      reasoningEffort: 'medium',
    });
    expect(result).toEqual({
      text: 'The guard clause is redundant.',
      toolCalls: [],
      finishReason: 'stop',
      usage: {
        inputTokens: 952,
        cachedInputTokens: 2048,
        cacheWriteTokens: 0,
        outputTokens: 620,
        reasoningTokens: 500,
      },
      protocolMode: 'generateContentApi',
    });
    const req = fake.requests[0];
    expect(req?.params.call).toBe('gemini-2.5-pro:generateContent');
    expect(req?.headers['x-goog-api-key']).toBe(API_KEY);
    expect(req?.headers.authorization).toBeUndefined();
    // project and location are settings, not query parameters.
    expect(Object.fromEntries(req?.query ?? [])).toEqual({ labels: 'review' });
    expect(req?.json).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'diff' }] }],
      systemInstruction: { parts: [{ text: 'You review code.' }] },
      generationConfig: { temperature: 0.3, maxOutputTokens: 2000, thinkingConfig: { thinkingBudget: 8192 } },
    });
  });

  it('uses express-mode URLs for an API key without a project, and says so in the probe', async () => {
    fake.on('POST', '/v1/publishers/google/models/:call', () => ({ json: fixture('generate-content-structured') }));
    fake.on('GET', '/v1beta1/publishers/google/models', () => ({ json: fixture('publisher-models-page-2') }));
    await kind()
      .createModel(withKey({}), chatSpec('gemini-2.5-flash'))
      .chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(fake.requests[0]?.path).toBe('/v1/publishers/google/models/gemini-2.5-flash:generateContent');
    const probe = await kind().probe(withKey({}));
    expect(probe.status).toBe('succeeded');
    expect(probe.warnings[0]).toMatch(/express-mode/);
  });

  it('asks for JSON with a responseSchema in Gemini’s OpenAPI subset', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: fixture('generate-content-structured') }));
    const result = await kind()
      .createModel(withKey(), chatSpec('gemini-2.5-flash'))
      .chat({
        messages: [{ role: 'user', content: 'review' }],
        responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
      });
    expect(JSON.parse(result.text)).toEqual({ findings: [{ line: 4, message: 'Unchecked error.' }] });
    expect(sentBody(fake.requests, 0).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'object',
        properties: {
          findings: {
            type: 'array',
            items: {
              type: 'object',
              properties: { line: { type: 'integer' }, message: { type: 'string' } },
              propertyOrdering: ['line', 'message'],
              required: ['line', 'message'],
            },
          },
        },
        propertyOrdering: ['findings'],
        required: ['findings'],
      },
    });
  });

  it('declares functions, carries the thought signature in the call id, and replays it with the function response', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: fixture('generate-content-function-call') }));
    const model = kind().createModel(withKey(), chatSpec('gemini-2.5-flash'));
    const first = await model.chat({ messages: [{ role: 'user', content: 'review' }], tools: [READ_FILE_TOOL] });
    expect(first.finishReason).toBe('toolCalls');
    expect(first.toolCalls).toEqual([
      {
        id: 'call_0~CiQBVKhc7kT2dGhvdWdodC1zaWduYXR1cmU=',
        name: 'read_file',
        arguments: { path: 'src/util.ts', startLine: 1 },
      },
    ]);
    const sent = sentBody(fake.requests, 0);
    expect(sent.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'read_file',
            description: READ_FILE_TOOL.description,
            parameters: {
              type: 'object',
              properties: { path: { type: 'string' }, startLine: { type: 'integer' } },
              propertyOrdering: ['path', 'startLine'],
              required: ['path'],
            },
          },
        ],
      },
    ]);
    expect(sent.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });

    await model.chat({
      messages: [
        { role: 'user', content: 'review' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        {
          role: 'tool',
          toolCallId: first.toolCalls[0]?.id ?? '',
          toolName: 'read_file',
          content: 'export const x = 1;',
        },
      ],
      tools: [READ_FILE_TOOL],
    });
    expect(sentBody(fake.requests, 1).contents).toEqual([
      { role: 'user', parts: [{ text: 'review' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'read_file', args: { path: 'src/util.ts', startLine: 1 } },
            thoughtSignature: 'CiQBVKhc7kT2dGhvdWdodC1zaWduYXR1cmU=',
          },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'read_file', response: { result: 'export const x = 1;' } } }],
      },
    ]);
  });

  it('forces one named tool as mode ANY with allowedFunctionNames', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: fixture('generate-content-function-call') }));
    await kind().createModel(withKey(), chatSpec('gemini-2.5-flash')).chat(FORCED_TOOL_REQUEST);
    expect(fake.requests[0]?.json).toEqual(fixture('request-generate-content-forced-tool'));
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['required', { mode: 'ANY' }],
    ['none', { mode: 'NONE' }],
  ] as const)('sends toolChoice %s as functionCallingConfig %j', async (toolChoice, wire) => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: fixture('generate-content-text') }));
    await kind()
      .createModel(withKey(), chatSpec('gemini-2.5-flash'))
      .chat({ messages: [{ role: 'user', content: 'x' }], tools: [READ_FILE_TOOL], toolChoice });
    expect(sentBody(fake.requests, 0).toolConfig).toEqual({ functionCallingConfig: wire });
  });

  it('reports a blocked prompt as contentFilter and a body without candidates as invalidResponse', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: fixture('generate-content-blocked') }));
    const model = kind().createModel(withKey(), chatSpec('gemini-2.5-flash'));
    expect(await model.chat({ messages: [{ role: 'user', content: 'x' }] })).toMatchObject({
      text: '',
      finishReason: 'contentFilter',
      usage: { inputTokens: 40 },
    });
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: { usageMetadata: {} } }));
    expect((await marginErrorOf(model.chat({ messages: [{ role: 'user', content: 'x' }] }))).details).toMatchObject({
      providerFailure: 'invalidResponse',
    });
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({
      text: '<!DOCTYPE html>',
      headers: { 'content-type': 'text/html' },
    }));
    expect((await marginErrorOf(model.chat({ messages: [{ role: 'user', content: 'x' }] }))).details).toMatchObject({
      providerFailure: 'invalidResponse',
    });
  });
});

describe('Google Vertex AI (kindCloudC): embeddings', () => {
  it('embeds text-embedding models with :predict', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: fixture('predict-embeddings') }));
    const model = kind().createModel(withKey(), embeddingSpec('text-embedding-005', { embeddingDimensions: 3 }));
    const result = await model.embed(['one', 'two']);
    expect(result.vectors).toEqual([
      [0.01, 0.02, 0.03],
      [0.04, 0.05, 0.06],
    ]);
    expect(result.usage.inputTokens).toBe(10);
    expect(fake.requests[0]?.params.call).toBe('text-embedding-005:predict');
    expect(fake.requests[0]?.json).toEqual({
      instances: [{ content: 'one' }, { content: 'two' }],
      parameters: { outputDimensionality: 3 },
    });
  });

  it('embeds gemini-embedding models with :embedContent, one text per call', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ json: fixture('embed-content') }));
    const model = kind().createModel(withKey(), embeddingSpec('gemini-embedding-001'));
    const result = await model.embed(['a', 'b']);
    expect(result.vectors).toHaveLength(2);
    expect(result.usage.inputTokens).toBe(10);
    expect(fake.requests.map((r) => r.params.call)).toEqual([
      'gemini-embedding-001:embedContent',
      'gemini-embedding-001:embedContent',
    ]);
    expect(fake.requests[0]?.json).toEqual({ content: { parts: [{ text: 'a' }] } });
  });
});

describe('Google Vertex AI (kindCloudC): service-account keys', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccount = () =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'sa-project',
      private_key_id: 'key-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'margin@sa-project.iam.gserviceaccount.com',
      token_uri: `${fake.url}/token`,
    });

  /** Checks the JWT-bearer grant as Google would: signature, issuer, audience, scope, lifetime. */
  function verifyGrant(req: FakeRequest): boolean {
    const form = new URLSearchParams(req.text);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return false;
    const [header = '', claims = '', signature = ''] = (form.get('assertion') ?? '').split('.');
    const ok = createVerify('RSA-SHA256')
      .update(`${header}.${claims}`)
      .verify(publicKey, Buffer.from(signature, 'base64url'));
    const h = JSON.parse(Buffer.from(header, 'base64url').toString());
    const c = JSON.parse(Buffer.from(claims, 'base64url').toString());
    return (
      ok &&
      h.alg === 'RS256' &&
      h.kid === 'key-1' &&
      c.iss === 'margin@sa-project.iam.gserviceaccount.com' &&
      c.aud === `${fake.url}/token` &&
      c.scope === 'https://www.googleapis.com/auth/cloud-platform' &&
      c.exp - c.iat === 3600
    );
  }

  it('exchanges a signed JWT for an access token, uses it as Bearer, and caches it', async () => {
    fake.on('POST', '/token', (req) =>
      verifyGrant(req) ? { json: fixture('oauth-token') } : { status: 400, json: fixture('oauth-invalid-grant') },
    );
    fake.on('POST', '/v1/projects/sa-project/locations/europe-west4/publishers/google/models/:call', () => ({
      json: fixture('generate-content-text'),
    }));
    const model = kind().createModel(
      storedProfile(kind(), fake.url, {
        auth: { mode: 'apiKey', apiKey: serviceAccount() },
        defaultQueryParams: { location: 'europe-west4' },
      }),
      chatSpec('gemini-2.5-pro'),
    );
    await model.chat({ messages: [{ role: 'user', content: 'one' }] });
    await model.chat({ messages: [{ role: 'user', content: 'two' }] });
    expect(fake.requests.filter((r) => r.path === '/token')).toHaveLength(1);
    const calls = fake.requests.filter((r) => r.path.endsWith(':generateContent'));
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.headers.authorization).toBe('Bearer ya29.c.b0AXv0zTPexampleAccessToken');
      expect(call.headers['x-goog-api-key']).toBeUndefined();
    }
  });

  it('maps a refused grant to credentials without leaking the key', async () => {
    fake.on('POST', '/token', () => ({ status: 400, json: fixture('oauth-invalid-grant') }));
    const result = await kind().probe(
      profile('kindCloudC', fake.url, { auth: { mode: 'apiKey', apiKey: serviceAccount() } }),
    );
    expect(result).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    expect(result.summary).toMatch(/invalid_grant|Invalid JWT Signature/);
    expect(result.summary).not.toContain('PRIVATE KEY');
  });
});

describe('Google Vertex AI (kindCloudC): failures', () => {
  const chat = () =>
    kind()
      .createModel(withKey(), chatSpec('gemini-2.5-pro'))
      .chat({ messages: [{ role: 'user', content: 'x' }] });

  it.each([
    [401, 'error-unauthenticated', 'credentials'],
    [400, 'error-api-key-invalid', 'credentials'],
    [403, 'error-permission-denied', 'authorization'],
  ])('maps %s %s to %s', async (status, name, failure) => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ status, json: fixture(name) }));
    const error = await marginErrorOf(chat());
    expect(error.details).toMatchObject({ providerFailure: failure, providerStatus: status });
    expect(error.message).not.toContain(API_KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it('honours RetryInfo.retryDelay on RESOURCE_EXHAUSTED, then succeeds', async () => {
    let calls = 0;
    fake.on('POST', `${MODEL_PATH}/:call`, () =>
      ++calls === 1
        ? { status: 429, json: fixture('error-resource-exhausted') }
        : { json: fixture('generate-content-text') },
    );
    const started = Date.now();
    expect((await chat()).text).toBe('The guard clause is redundant.');
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('reports an input token count over the maximum as contextLengthExceeded, without retrying', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ status: 400, json: fixture('error-input-token-count') }));
    const error = await marginErrorOf(
      kind()
        .createModel(withKey(), chatSpec('gemini-2.5-pro'))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toEqual({ providerFailure: 'contextLengthExceeded', providerStatus: 400 });
    expect(error.message).toBe(
      'Google Vertex AI answered 400: The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 503 and fails as unavailable', async () => {
    fake.on('POST', `${MODEL_PATH}/:call`, () => ({ status: 503, json: fixture('error-unavailable') }));
    const error = await marginErrorOf(chat());
    expect(error.details).toMatchObject({ providerFailure: 'unavailable', providerStatus: 503 });
    expect(fake.requests).toHaveLength(3);
  });

  it('requires a project for a service account without one', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const key = JSON.stringify({
      client_email: 'x@y.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    const error = await marginErrorOf(
      Promise.resolve().then(() =>
        kind().createModel(profile('kindCloudC', fake.url, { auth: { mode: 'apiKey', apiKey: key } }), chatSpec('g')),
      ),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/defaultQueryParams\.project/);
  });

  it('declares project and location as settings of their own shapes, so the location cannot name another host', () => {
    const refused = (params: Record<string, string>, path: string) =>
      expect(() => withKey(params)).toThrow(
        expect.objectContaining({ details: { details: [expect.objectContaining({ path })] } }),
      );
    refused({ location: 'evil.example/x?' }, 'defaultQueryParams.location');
    refused({ location: 'US-Central1' }, 'defaultQueryParams.location');
    refused({ project: 'my project' }, 'defaultQueryParams.project');
    refused({ project: 'a/../b' }, 'defaultQueryParams.project');
    for (const settings of [
      { project: 'my-project-123', location: 'us-central1' },
      { project: 'example.com:my-project', location: 'global' },
      { project: '123456789012', location: 'europe-west4' },
    ]) {
      expect(withKey(settings).settings).toEqual(settings);
    }
  });

  it('refuses modes Vertex does not have', async () => {
    const error = await marginErrorOf(
      Promise.resolve().then(() => kind().createModel(withKey(), chatSpec('g', { protocolMode: 'chatCompletions' }))),
    );
    expect(error.message).toMatch(/chatCompletions is not available for provider kind kindCloudC/);
  });
});

describe('Google Vertex AI (kindCloudC): probe and discovery', () => {
  it('probes and discovers Gemini and embedding publisher models across pages', async () => {
    fake.on('GET', '/v1beta1/publishers/google/models', (req) => ({
      json:
        req.query.get('pageToken') === 'page-2'
          ? fixture('publisher-models-page-2')
          : fixture('publisher-models-page-1'),
    }));
    const probe = await kind().probe(withKey());
    expect(probe).toMatchObject({ status: 'succeeded', summary: expect.stringContaining('project my-proj') });
    expect(fake.requests[0]?.query.get('pageSize')).toBe('1');

    const discovery = await kind().discoverModels(withKey());
    expect(discovery.models).toEqual([
      { remoteModelId: 'gemini-2.5-flash', operationKinds: ['chat'] },
      { remoteModelId: 'gemini-2.5-pro', operationKinds: ['chat'] },
      { remoteModelId: 'text-embedding-005', operationKinds: ['embedding'] },
    ]);
  });

  it('maps a forbidden probe to authorization', async () => {
    fake.on('GET', '/v1beta1/publishers/google/models', () => ({
      status: 403,
      json: fixture('error-permission-denied'),
    }));
    expect(await kind().probe(withKey())).toMatchObject({ status: 'failed', failureCategory: 'authorization' });
  });
});

describe('Gemini Developer API (kindCloudC by host)', () => {
  // The vendor host name resolves to the loopback fake through the egress guard's resolver.
  const toFake = ((
    _host: string,
    _options: unknown,
    callback: (e: null, a: Array<{ address: string; family: number }>) => void,
  ) => callback(null, [{ address: '127.0.0.1', family: 4 }])) as unknown as typeof dnsLookup;
  const geminiKind = () => createVertexKind(fakeRuntime({ lookup: toFake }));
  const gemini = () =>
    profile('kindCloudC', `http://generativelanguage.googleapis.com:${new URL(fake.url).port}`, {
      auth: { mode: 'apiKey', apiKey: API_KEY },
    });

  it('calls /v1beta/models/{model}:generateContent with the key', async () => {
    fake.on('POST', '/v1beta/models/:call', () => ({ json: fixture('generate-content-structured') }));
    await geminiKind()
      .createModel(gemini(), chatSpec('models/gemini-2.5-flash'))
      .chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(fake.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(fake.requests[0]?.headers['x-goog-api-key']).toBe(API_KEY);
  });

  it('embeds with :batchEmbedContents', async () => {
    fake.on('POST', '/v1beta/models/:call', () => ({ json: fixture('batch-embed-contents') }));
    const result = await geminiKind()
      .createModel(gemini(), embeddingSpec('gemini-embedding-001', { embeddingDimensions: 768 }))
      .embed(['a', 'b']);
    expect(result.vectors).toEqual([
      [0.11, 0.12],
      [0.13, 0.14],
    ]);
    expect(fake.requests[0]?.json).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'a' }] }, outputDimensionality: 768 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'b' }] }, outputDimensionality: 768 },
      ],
    });
  });

  it('discovers models with limits and kinds from their generation methods', async () => {
    fake.on('GET', '/v1beta/models', () => ({ json: fixture('gemini-api-models') }));
    const result = await geminiKind().discoverModels(gemini());
    expect(result.models).toEqual([
      {
        remoteModelId: 'gemini-2.5-flash',
        displayName: 'Gemini 2.5 Flash',
        operationKinds: ['chat'],
        maxContextTokens: 1048576,
        maxInputTokens: undefined,
      },
      {
        remoteModelId: 'gemini-embedding-001',
        displayName: 'Gemini Embedding 001',
        operationKinds: ['embedding'],
        maxContextTokens: undefined,
        maxInputTokens: 2048,
      },
    ]);
  });
});

describe('Gemini schema conversion', () => {
  it('turns nullable, const and refs into the OpenAPI subset and drops what Gemini refuses', () => {
    expect(
      toGeminiSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          severity: { type: 'string', enum: ['error', 'warning'] },
          note: { anyOf: [{ type: 'string', description: 'why' }, { type: 'null' }] },
          kind: { const: 'finding' },
          when: { type: ['string', 'null'], format: 'date-time' },
          id: { type: 'string', format: 'uuid', default: 'x' },
          child: { $ref: '#/$defs/Child' },
        },
        required: ['severity', 'missing'],
        additionalProperties: false,
        $defs: { Child: { type: 'object', properties: { n: { type: 'number' } }, additionalProperties: false } },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        severity: { type: 'string', enum: ['error', 'warning'] },
        note: { nullable: true, type: 'string', description: 'why' },
        kind: { type: 'string', enum: ['finding'] },
        when: { nullable: true, type: 'string', format: 'date-time' },
        id: { type: 'string' },
        child: { type: 'object', properties: { n: { type: 'number' } }, propertyOrdering: ['n'] },
      },
      propertyOrdering: ['severity', 'note', 'kind', 'when', 'id', 'child'],
      required: ['severity'],
    });
  });
});
