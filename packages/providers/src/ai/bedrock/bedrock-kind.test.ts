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
import { bedrockAuthOf, bedrockConnectionOf } from './bedrock-connection.js';
import { createBedrockKind } from './bedrock-kind.js';
import { signSigV4 } from './sigv4.js';

const fixture = fixtureReader(import.meta.url);
const ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const SIGV4_KEY = `${ACCESS_KEY_ID}:${SECRET}`;
const API_KEY = 'ABSKQmVkcm9ja0FQSUtleS1leGFtcGxlLWtleQ==';
const NOW = Date.parse('2026-03-04T05:06:07Z');
const SONNET = 'anthropic.claude-3-5-sonnet-20240620-v1:0';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

const kind = () => createBedrockKind(fakeRuntime({ now: () => NOW }));
/** A profile as stored, `region` among its `defaultQueryParams`, split by the kind's settings as core splits it. */
const connection = (apiKey = SIGV4_KEY, params: Record<string, string> = { region: 'us-east-1' }) =>
  storedProfile(kind(), fake.url, { auth: { mode: 'apiKey', apiKey }, defaultQueryParams: params });

/** Recomputes the signature of a received request, proving the header covers what was sent. */
function expectValidSignature(req: FakeRequest | undefined, rawPath: string, sessionToken?: string) {
  const authorization = String(req?.headers.authorization);
  expect(authorization).toMatch(
    /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/20260304\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/,
  );
  expect(req?.headers['x-amz-date']).toBe('20260304T050607Z');
  const url = new URL(`http://${req?.headers.host}${rawPath}`);
  const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const headers = Object.fromEntries(
    signedNames
      .filter((n) => n !== 'host' && n !== 'x-amz-date' && n !== 'x-amz-security-token')
      .map((n) => [n, String(req?.headers[n])]),
  );
  const expected = signSigV4({
    method: req?.method ?? '',
    url,
    headers,
    body: req?.text ?? '',
    credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET, sessionToken },
    region: 'us-east-1',
    service: 'bedrock',
    now: new Date(NOW),
  });
  expect(authorization).toBe(expected.authorization);
}

describe('AWS Bedrock (kindCloudB): Converse', () => {
  it('signs Converse with SigV4 (double-encoded model id), keeps region out of the query, and normalises usage', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-text') }));
    const model = kind().createModel(connection(SIGV4_KEY, { region: 'us-east-1', trace: 'on' }), chatSpec(SONNET));
    const result = await model.chat({
      system: 'You review code.',
      messages: [{ role: 'user', content: 'diff' }],
      maxOutputTokens: 1000,
      temperature: 0.1,
    });
    expect(result).toEqual({
      text: 'The loop bound is off by one.',
      toolCalls: [],
      finishReason: 'stop',
      usage: {
        inputTokens: 1500,
        cachedInputTokens: 4000,
        cacheWriteTokens: 100,
        outputTokens: 90,
        reasoningTokens: 0,
      },
      protocolMode: 'converseApi',
    });
    const req = fake.requests[0];
    expect(req?.params.id).toBe(SONNET);
    expect(Object.fromEntries(req?.query ?? [])).toEqual({ trace: 'on' });
    expect(req?.json).toEqual({
      messages: [{ role: 'user', content: [{ text: 'diff' }] }],
      system: [{ text: 'You review code.' }],
      inferenceConfig: { maxTokens: 1000, temperature: 0.1 },
    });
    expectValidSignature(req, `/model/${encodeURIComponent(SONNET)}/converse?trace=on`);
    expect(req?.headers.authorization).toContain('SignedHeaders=content-type;host;x-amz-date,');
  });

  it('adds the session token of temporary credentials and signs it', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-text') }));
    const token = 'FwoGZXIvYXdzEXAMPLESESSIONTOKEN/abc+def=';
    const model = kind().createModel(connection(`${SIGV4_KEY}:${token}`), chatSpec(SONNET));
    await model.chat({ messages: [{ role: 'user', content: 'x' }] });
    const req = fake.requests[0];
    expect(req?.headers['x-amz-security-token']).toBe(token);
    expect(req?.headers.authorization).toContain('x-amz-security-token');
    expectValidSignature(req, `/model/${encodeURIComponent(SONNET)}/converse`, token);
  });

  it('sends a Bedrock API key as Bearer, unsigned', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-text') }));
    await kind()
      .createModel(connection(API_KEY), chatSpec(SONNET))
      .chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(fake.requests[0]?.headers['x-amz-date']).toBeUndefined();
  });

  it('uses outputConfig.textFormat with the schema as a string for structured output', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-structured') }));
    const result = await kind()
      .createModel(connection(), chatSpec(SONNET))
      .chat({
        messages: [{ role: 'user', content: 'review' }],
        responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
      });
    expect(JSON.parse(result.text)).toEqual({ findings: [{ line: 21, message: 'Missing await.' }] });
    expect(sentBody(fake.requests, 0).outputConfig).toEqual({
      textFormat: {
        type: 'json_schema',
        structure: { jsonSchema: { schema: JSON.stringify(REVIEW_SCHEMA), name: 'review_findings' } },
      },
    });
  });

  it('forces an answer tool for models without native structured output', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-forced-tool') }));
    const result = await kind()
      .createModel(connection(), chatSpec('mistral.mistral-large-2407-v1:0', { supportsStructuredOutput: false }))
      .chat({
        messages: [{ role: 'user', content: 'review' }],
        responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
      });
    expect(result).toMatchObject({ finishReason: 'stop', toolCalls: [] });
    expect(JSON.parse(result.text)).toEqual({ findings: [{ line: 5, message: 'Shadowed variable.' }] });
    expect(sentBody(fake.requests, 0).toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'emit_review_findings',
            description: expect.any(String),
            inputSchema: { json: REVIEW_SCHEMA },
          },
        },
      ],
      toolChoice: { tool: { name: 'emit_review_findings' } },
    });
  });

  it('maps tools, parses toolUse and sends toolResult back in the user turn', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-tool-use') }));
    const model = kind().createModel(connection(), chatSpec(SONNET));
    const first = await model.chat({ messages: [{ role: 'user', content: 'review' }], tools: [READ_FILE_TOOL] });
    expect(first).toMatchObject({
      finishReason: 'toolCalls',
      toolCalls: [{ id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'read_file', arguments: { path: 'src/helper.ts' } }],
    });
    expect(sentBody(fake.requests, 0).toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'read_file',
            description: READ_FILE_TOOL.description,
            inputSchema: { json: READ_FILE_TOOL.parameters },
          },
        },
      ],
      toolChoice: { auto: {} },
    });
    await model.chat({
      messages: [
        { role: 'user', content: 'review' },
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', toolName: 'read_file', content: 'export {}' },
      ],
      tools: [READ_FILE_TOOL],
    });
    expect(sentBody(fake.requests, 1).messages).toEqual([
      { role: 'user', content: [{ text: 'review' }] },
      {
        role: 'assistant',
        content: [
          { text: 'Let me read the helper.' },
          {
            toolUse: {
              toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
              name: 'read_file',
              input: { path: 'src/helper.ts' },
            },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            toolResult: {
              toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
              content: [{ text: 'export {}' }],
              status: 'success',
            },
          },
        ],
      },
    ]);
  });
});

describe('AWS Bedrock (kindCloudB): tool choice', () => {
  it('forces one named tool as toolConfig.toolChoice {tool: {name}}', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-tool-use') }));
    await kind().createModel(connection(), chatSpec(SONNET)).chat(FORCED_TOOL_REQUEST);
    expect(fake.requests[0]?.json).toEqual(fixture('request-converse-forced-tool'));
  });

  it.each([
    ['auto', { auto: {} }],
    ['required', { any: {} }],
  ] as const)('sends toolChoice %s as %j', async (toolChoice, wire) => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-text') }));
    await kind()
      .createModel(connection(), chatSpec(SONNET))
      .chat({ messages: [{ role: 'user', content: 'x' }], tools: [READ_FILE_TOOL], toolChoice });
    expect((sentBody(fake.requests, 0).toolConfig as { toolChoice: unknown }).toolChoice).toEqual(wire);
  });

  it('says none by sending no toolConfig, with earlier tool turns as text (Converse refuses tool blocks then)', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-text') }));
    await kind()
      .createModel(connection(), chatSpec(SONNET))
      .chat({
        messages: [
          { role: 'user', content: 'review' },
          { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'read_file', arguments: { path: 'a.ts' } }] },
          { role: 'tool', toolCallId: 't1', toolName: 'read_file', content: 'export {}' },
          { role: 'user', content: 'Now answer.' },
        ],
        tools: [READ_FILE_TOOL],
        toolChoice: 'none',
      });
    const sent = sentBody(fake.requests, 0);
    expect(sent).not.toHaveProperty('toolConfig');
    expect(sent.messages).toEqual([
      { role: 'user', content: [{ text: 'review' }] },
      { role: 'assistant', content: [{ text: '[Called the tool read_file with {"path":"a.ts"}]' }] },
      { role: 'user', content: [{ text: '[Result of the tool read_file]\nexport {}' }, { text: 'Now answer.' }] },
    ]);
  });

  it('with a forced answer tool and toolChoice none, still declares the caller tools but forces the answer', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ json: fixture('converse-forced-tool') }));
    const result = await kind()
      .createModel(connection(), chatSpec('mistral.mistral-large-2407-v1:0', { supportsStructuredOutput: false }))
      .chat({
        messages: [{ role: 'user', content: 'review' }],
        tools: [READ_FILE_TOOL],
        toolChoice: 'none',
        responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
      });
    expect(JSON.parse(result.text)).toEqual({ findings: [{ line: 5, message: 'Shadowed variable.' }] });
    const toolConfig = sentBody(fake.requests, 0).toolConfig as { tools: Array<{ toolSpec: { name: string } }> };
    expect(toolConfig.tools.map((t) => t.toolSpec.name)).toEqual(['read_file', 'emit_review_findings']);
    expect(sentBody(fake.requests, 0).toolConfig).toMatchObject({
      toolChoice: { tool: { name: 'emit_review_findings' } },
    });
  });
});

describe('AWS Bedrock (kindCloudB): InvokeModel embeddings', () => {
  it('embeds with Titan v2, one text per call, with dimensions and normalisation', async () => {
    fake.on('POST', '/model/:id/invoke', () => ({ json: fixture('titan-embedding') }));
    const model = kind().createModel(
      connection(),
      embeddingSpec('amazon.titan-embed-text-v2:0', { embeddingDimensions: 256 }),
    );
    const result = await model.embed(['alpha', 'beta']);
    expect(result.vectors).toEqual([
      [0.012, -0.034, 0.056],
      [0.012, -0.034, 0.056],
    ]);
    expect(result.usage.inputTokens).toBe(14);
    expect(fake.requests.map((r) => r.json)).toEqual([
      { inputText: 'alpha', normalize: true, dimensions: 256 },
      { inputText: 'beta', normalize: true, dimensions: 256 },
    ]);
    expect(fake.requests[0]?.params.id).toBe('amazon.titan-embed-text-v2:0');
    expectValidSignature(fake.requests[0], `/model/${encodeURIComponent('amazon.titan-embed-text-v2:0')}/invoke`);
  });

  it('embeds with Cohere in one call, taking the token count from the header', async () => {
    fake.on('POST', '/model/:id/invoke', () => ({
      json: fixture('cohere-embeddings'),
      headers: { 'x-amzn-bedrock-input-token-count': '9' },
    }));
    const model = kind().createModel(connection(), embeddingSpec('cohere.embed-english-v3'));
    const result = await model.embed(['first', 'second']);
    expect(result).toEqual({
      vectors: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
      usage: { inputTokens: 9, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 },
    });
    expect(fake.requests[0]?.json).toEqual({
      texts: ['first', 'second'],
      input_type: 'search_document',
      embedding_types: ['float'],
    });
  });

  it('refuses embedding families it does not know', async () => {
    const error = await marginErrorOf(kind().createModel(connection(), embeddingSpec('acme.embed-x')).embed(['x']));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/Titan and Cohere/);
  });
});

describe('AWS Bedrock (kindCloudB): failures', () => {
  const chat = (key = SIGV4_KEY) =>
    kind()
      .createModel(connection(key), chatSpec(SONNET))
      .chat({ messages: [{ role: 'user', content: 'x' }] });

  it('maps an unrecognised key (403 UnrecognizedClientException) to credentials', async () => {
    fake.on('POST', '/model/:id/converse', () => ({
      status: 403,
      headers: {
        'x-amzn-errortype': 'UnrecognizedClientException:http://internal.amazon.com/coral/com.amazon.coral.service/',
      },
      json: fixture('error-unrecognized-client'),
    }));
    const error = await marginErrorOf(chat());
    expect(error.details).toMatchObject({ providerFailure: 'credentials', providerStatus: 403 });
    expect(error.message).not.toContain(SECRET);
  });

  it('maps 401 to credentials and AccessDeniedException to authorization', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ status: 401, json: { message: 'Invalid API key' } }));
    expect((await marginErrorOf(chat(API_KEY))).details).toMatchObject({ providerFailure: 'credentials' });
    fake.on('POST', '/model/:id/converse', () => ({
      status: 403,
      headers: { 'x-amzn-errortype': 'AccessDeniedException:http://internal.amazon.com/coral/' },
      json: fixture('error-access-denied'),
    }));
    expect((await marginErrorOf(chat())).details).toMatchObject({ providerFailure: 'authorization' });
  });

  it('retries ThrottlingException (no Retry-After) with backoff, then succeeds', async () => {
    let calls = 0;
    fake.on('POST', '/model/:id/converse', () =>
      ++calls < 3
        ? {
            status: calls === 1 ? 429 : 400,
            headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/' },
            json: fixture('error-throttling'),
          }
        : { json: fixture('converse-text') },
    );
    expect((await chat()).text).toBe('The loop bound is off by one.');
    expect(calls).toBe(3);
  });

  it('reports a ValidationException saying the input is too long as contextLengthExceeded, without retrying', async () => {
    fake.on('POST', '/model/:id/converse', () => ({
      status: 400,
      headers: { 'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
      json: fixture('error-input-too-long'),
    }));
    const error = await marginErrorOf(
      kind()
        .createModel(connection(), chatSpec(SONNET))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toEqual({ providerFailure: 'contextLengthExceeded', providerStatus: 400 });
    expect(error.message).toBe(
      'AWS Bedrock answered 400: The model returned the following errors: Input is too long for requested model.',
    );
    expect(error.message).not.toContain(SECRET);
    expect(fake.requests).toHaveLength(1);
  });

  it('keeps other ValidationExceptions as rejected', async () => {
    fake.on('POST', '/model/:id/converse', () => ({
      status: 400,
      headers: { 'x-amzn-errortype': 'ValidationException' },
      json: { message: 'The provided model identifier is invalid.' },
    }));
    const error = await marginErrorOf(
      kind()
        .createModel(connection(), chatSpec(SONNET))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 400 });
  });

  it('retries 5xx and fails as unavailable', async () => {
    fake.on('POST', '/model/:id/converse', () => ({
      status: 500,
      headers: { 'x-amzn-errortype': 'InternalServerException' },
      json: fixture('error-internal'),
    }));
    const error = await marginErrorOf(chat());
    expect(error.details).toMatchObject({ providerFailure: 'unavailable', providerStatus: 500 });
    expect(fake.requests).toHaveLength(3);
  });

  it('reports malformed answers as invalidResponse', async () => {
    fake.on('POST', '/model/:id/converse', () => ({ text: 'not json', headers: { 'content-type': 'text/plain' } }));
    expect((await marginErrorOf(chat())).details).toMatchObject({ providerFailure: 'invalidResponse' });
    fake.on('POST', '/model/:id/converse', () => ({ json: { output: {} } }));
    expect((await marginErrorOf(chat())).details).toMatchObject({ providerFailure: 'invalidResponse' });
  });

  it('requires a region, naming the setting', async () => {
    const error = await marginErrorOf(
      Promise.resolve().then(() => kind().createModel(connection(SIGV4_KEY, {}), chatSpec(SONNET))),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/defaultQueryParams\.region/);
    await expect(kind().probe(connection(SIGV4_KEY, {}))).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('declares region as a setting of an AWS region’s shape, so no other host can be named through it', () => {
    for (const region of ['attacker.example/x?', 'us-east-1.evil.example', 'US EAST 1']) {
      expect(() => connection(SIGV4_KEY, { region })).toThrow(
        expect.objectContaining({
          code: 'validation_failed',
          details: {
            details: [{ path: 'defaultQueryParams.region', message: 'must be an AWS region such as us-east-1' }],
          },
        }),
      );
    }
    for (const region of ['us-east-1', 'eu-central-1', 'ap-southeast-2', 'us-gov-west-1', 'us-isob-east-1']) {
      expect(connection(SIGV4_KEY, { region }).settings).toEqual({ region });
    }
  });

  it('refuses modes Bedrock does not have', async () => {
    const error = await marginErrorOf(
      Promise.resolve().then(() => kind().createModel(connection(), chatSpec(SONNET, { protocolMode: 'messagesApi' }))),
    );
    expect(error.message).toMatch(/messagesApi is not available for provider kind kindCloudB/);
  });
});

describe('AWS Bedrock (kindCloudB): probe and discovery', () => {
  it('probes with a signed ListInferenceProfiles call', async () => {
    fake.on('GET', '/inference-profiles', () => ({ json: fixture('inference-profiles') }));
    const result = await kind().probe(connection());
    expect(result).toMatchObject({ status: 'succeeded', summary: expect.stringContaining('us-east-1') });
    expect(fake.requests[0]?.query.get('maxResults')).toBe('1');
    expectValidSignature(fake.requests[0], '/inference-profiles?maxResults=1');
  });

  it('maps probe failures to categories', async () => {
    fake.on('GET', '/inference-profiles', () => ({
      status: 403,
      headers: { 'x-amzn-errortype': 'InvalidSignatureException' },
      json: { message: 'The request signature we calculated does not match the signature you provided.' },
    }));
    expect(await kind().probe(connection())).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    fake.on('GET', '/inference-profiles', () => ({
      status: 403,
      headers: { 'x-amzn-errortype': 'AccessDeniedException' },
      json: { message: 'not authorized to perform: bedrock:ListInferenceProfiles' },
    }));
    expect(await kind().probe(connection())).toMatchObject({ status: 'failed', failureCategory: 'authorization' });
  });

  it('discovers on-demand foundation models and inference profiles', async () => {
    fake.on('GET', '/foundation-models', () => ({ json: fixture('foundation-models') }));
    fake.on('GET', '/inference-profiles', () => ({ json: fixture('inference-profiles') }));
    const result = await kind().discoverModels(connection());
    expect(result).toEqual({
      discoveryStatus: 'succeeded',
      manualEntryAllowed: true,
      warnings: [],
      models: [
        {
          remoteModelId: 'amazon.titan-embed-text-v2:0',
          displayName: 'Amazon Titan Text Embeddings V2',
          operationKinds: ['embedding'],
        },
        {
          remoteModelId: 'anthropic.claude-3-5-haiku-20241022-v1:0',
          displayName: 'Anthropic Claude 3.5 Haiku',
          operationKinds: ['chat'],
        },
        {
          remoteModelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
          displayName: 'US Anthropic Claude Sonnet 4.5',
          operationKinds: ['chat'],
        },
      ],
    });
    for (const req of fake.requests) expect(req.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
  });

  it('keeps foundation models with a warning when profiles cannot be listed', async () => {
    fake.on('GET', '/foundation-models', () => ({ json: fixture('foundation-models') }));
    fake.on('GET', '/inference-profiles', () => ({
      status: 403,
      headers: { 'x-amzn-errortype': 'AccessDeniedException' },
      json: fixture('error-access-denied'),
    }));
    const result = await kind().discoverModels(connection());
    expect(result.discoveryStatus).toBe('succeeded');
    expect(result.models).toHaveLength(2);
    expect(result.warnings[0]).toMatch(/Inference profiles could not be listed/);
  });
});

describe('Bedrock connection settings', () => {
  it('reads SigV4 keys by their colon form and everything else as a Bedrock API key', () => {
    expect(bedrockAuthOf(SIGV4_KEY)).toEqual({
      kind: 'sigv4',
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET, sessionToken: undefined },
    });
    expect(bedrockAuthOf(`${SIGV4_KEY}:tok/en+=`)).toMatchObject({
      kind: 'sigv4',
      credentials: { sessionToken: 'tok/en+=' },
    });
    expect(bedrockAuthOf(API_KEY)).toEqual({ kind: 'apiKey', key: API_KEY });
    expect(bedrockAuthOf('bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t')).toMatchObject({ kind: 'apiKey' });
  });

  it('takes the region from a regional host and derives the control plane', () => {
    const resolved = bedrockConnectionOf(profile('kindCloudB', 'https://bedrock-runtime.eu-central-1.amazonaws.com'));
    expect(resolved).toMatchObject({
      region: 'eu-central-1',
      runtimeRoot: 'https://bedrock-runtime.eu-central-1.amazonaws.com',
      controlRoot: 'https://bedrock.eu-central-1.amazonaws.com',
    });
  });

  it('builds the public endpoint from the region when baseUrl is empty', () => {
    const resolved = bedrockConnectionOf(storedProfile(kind(), '', { defaultQueryParams: { region: 'us-west-2' } }));
    expect(resolved.runtimeRoot).toBe('https://bedrock-runtime.us-west-2.amazonaws.com');
    expect(resolved.controlRoot).toBe('https://bedrock.us-west-2.amazonaws.com');
    expect(resolved.query).toEqual({});
  });
});
