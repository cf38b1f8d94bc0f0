import { marginErrorOf } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../testing/index.js';
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
import { createOpenAiKind } from './openai-direct-kind.js';

const fixture = fixtureReader(import.meta.url);
const KEY = 'sk-test-secret-0123456789';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

const kind = () => createOpenAiKind(fakeRuntime());
const connection = (extra = {}) => profile('kindDirect', `${fake.url}/v1`, extra);

describe('OpenAI (kindDirect): Responses API', () => {
  it('sends instructions and input with a Bearer key, default headers and query params, and normalises usage', async () => {
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-text') }));
    const model = kind().createModel(
      storedProfile(kind(), `${fake.url}/v1`, {
        defaultHeaders: { 'OpenAI-Project': 'proj_123' },
        defaultQueryParams: { tenant: 'blue', region: 'eu' },
      }),
      chatSpec('gpt-5.1'),
    );
    const result = await model.chat({
      system: 'You are a code reviewer.',
      messages: [{ role: 'user', content: 'diff --git a/x b/x' }],
      temperature: 0.2,
      maxOutputTokens: 800,
      reasoningEffort: 'medium',
    });

    expect(result).toEqual({
      text: 'The change looks correct.',
      toolCalls: [],
      finishReason: 'stop',
      usage: {
        inputTokens: 1024,
        cachedInputTokens: 4096,
        cacheWriteTokens: 0,
        outputTokens: 700,
        reasoningTokens: 256,
      },
      protocolMode: 'responses',
    });
    const req = fake.requests[0];
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.headers['openai-project']).toBe('proj_123');
    // Query params go on every call. OpenAI declares no settings, so `region` is one of them too.
    expect(Object.fromEntries(req?.query ?? [])).toEqual({ tenant: 'blue', region: 'eu' });
    expect(req?.json).toEqual({
      model: 'gpt-5.1',
      instructions: 'You are a code reviewer.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'diff --git a/x b/x' }] }],
      store: false,
      temperature: 0.2,
      max_output_tokens: 800,
      reasoning: { effort: 'medium' },
    });
  });

  it('asks for native JSON-schema output, strict when the schema allows it', async () => {
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-structured') }));
    const model = kind().createModel(connection(), chatSpec('gpt-5.1'));
    const result = await model.chat({
      messages: [{ role: 'user', content: 'review' }],
      responseFormat: { name: 'review findings', schema: { ...REVIEW_SCHEMA } },
    });
    expect(JSON.parse(result.text)).toEqual({ findings: [{ line: 12, message: 'Possible null dereference.' }] });
    expect(fake.requests[0]?.json).toMatchObject({
      text: { format: { type: 'json_schema', name: 'review_findings', strict: true, schema: REVIEW_SCHEMA } },
    });
  });

  it('sends a non-strict schema when an object leaves properties optional', async () => {
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-structured') }));
    const model = kind().createModel(connection(), chatSpec('gpt-5.1'));
    const loose = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
    await model.chat({ messages: [{ role: 'user', content: 'x' }], responseFormat: { name: 'x', schema: loose } });
    expect(fake.requests[0]?.json).toMatchObject({ text: { format: { strict: false } } });
  });

  it('maps tools, parses function calls, and replays a tool round trip statelessly', async () => {
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-tool-call') }));
    const model = kind().createModel(connection(), chatSpec('gpt-5.1'));
    const first = await model.chat({ messages: [{ role: 'user', content: 'review' }], tools: [READ_FILE_TOOL] });
    expect(first.finishReason).toBe('toolCalls');
    expect(first.toolCalls).toEqual([
      { id: 'call_abc', name: 'read_file', arguments: { path: 'src/a.ts', startLine: 10 } },
    ]);
    expect(fake.requests[0]?.json).toMatchObject({
      tools: [{ type: 'function', name: 'read_file', parameters: READ_FILE_TOOL.parameters }],
      tool_choice: 'auto',
    });

    await model.chat({
      messages: [
        { role: 'user', content: 'review' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'call_abc', toolName: 'read_file', content: 'const a = 1;' },
      ],
      tools: [READ_FILE_TOOL],
    });
    expect(sentBody(fake.requests, 1).input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'review' }] },
      {
        type: 'function_call',
        call_id: 'call_abc',
        name: 'read_file',
        arguments: '{"path":"src/a.ts","startLine":10}',
      },
      { type: 'function_call_output', call_id: 'call_abc', output: 'const a = 1;' },
    ]);
  });

  it('reports a cut-off answer as length', async () => {
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-incomplete') }));
    const result = await kind()
      .createModel(connection(), chatSpec('gpt-5.1'))
      .chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(result.finishReason).toBe('length');
    expect(result.usage.inputTokens).toBe(100);
  });
});

describe('OpenAI (kindDirect): Chat Completions and Embeddings', () => {
  it('speaks Chat Completions when the binding says so', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ json: fixture('chat-completion-text') }));
    const model = kind().createModel(connection(), chatSpec('gpt-4.1', { protocolMode: 'chatCompletions' }));
    const result = await model.chat({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'review' }],
      responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
      maxOutputTokens: 500,
      reasoningEffort: 'low',
    });
    expect(result).toMatchObject({
      text: '{"findings":[]}',
      finishReason: 'stop',
      protocolMode: 'chatCompletions',
      usage: { inputTokens: 1024, cachedInputTokens: 1024, outputTokens: 12 },
    });
    expect(fake.requests[0]?.json).toEqual({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'review' },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'review_findings', schema: REVIEW_SCHEMA, strict: true },
      },
      max_completion_tokens: 500,
      reasoning_effort: 'low',
    });
  });

  it('parses Chat Completions tool calls and sends tool results back', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ json: fixture('chat-completion-tool-call') }));
    const model = kind().createModel(connection(), chatSpec('gpt-4.1', { protocolMode: 'chatCompletions' }));
    const first = await model.chat({ messages: [{ role: 'user', content: 'review' }], tools: [READ_FILE_TOOL] });
    expect(first).toMatchObject({
      finishReason: 'toolCalls',
      toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'src/b.ts' } }],
    });
    await model.chat({
      messages: [
        { role: 'user', content: 'review' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: 'x' },
      ],
    });
    expect((sentBody(fake.requests, 1).messages as unknown[]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/b.ts"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'x' },
    ]);
  });

  it('embeds in input order with the configured dimensions', async () => {
    fake.on('POST', '/v1/embeddings', () => ({ json: fixture('embeddings') }));
    const model = kind().createModel(connection(), embeddingSpec('text-embedding-3-large', { embeddingDimensions: 3 }));
    const result = await model.embed(['first', 'second']);
    expect(result.vectors).toEqual([
      [0.1, 0.2, 0.3],
      [0.4, 0.5, 0.6],
    ]);
    expect(result.usage.inputTokens).toBe(12);
    expect(fake.requests[0]?.json).toEqual({
      model: 'text-embedding-3-large',
      input: ['first', 'second'],
      encoding_format: 'float',
      dimensions: 3,
    });
  });

  it('refuses a count mismatch in the embeddings answer', async () => {
    fake.on('POST', '/v1/embeddings', () => ({ json: fixture('embeddings') }));
    const model = kind().createModel(connection(), embeddingSpec('text-embedding-3-large'));
    const error = await marginErrorOf(model.embed(['only one']));
    expect(error.details).toMatchObject({ providerFailure: 'invalidResponse' });
  });
});

describe('OpenAI (kindDirect): tool choice', () => {
  const chatCompletions = () =>
    kind().createModel(connection(), chatSpec('gpt-4.1', { protocolMode: 'chatCompletions' }));
  const responses = () => kind().createModel(connection(), chatSpec('gpt-5.1'));

  it('forces one named tool over Chat Completions as {type: function, function: {name}}', async () => {
    fake.on('POST', '/v1/chat/completions', () => ({ json: fixture('chat-completion-tool-call') }));
    await chatCompletions().chat(FORCED_TOOL_REQUEST);
    expect(fake.requests[0]?.json).toEqual(fixture('request-chat-completions-forced-tool'));
  });

  it('forces one named tool over the Responses API as {type: function, name}', async () => {
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-tool-call') }));
    await responses().chat(FORCED_TOOL_REQUEST);
    expect(fake.requests[0]?.json).toEqual(fixture('request-responses-forced-tool'));
  });

  it.each([
    ['auto', 'auto'],
    ['required', 'required'],
    ['none', 'none'],
  ] as const)('sends toolChoice %s as tool_choice %s on both wires', async (toolChoice, wire) => {
    fake.on('POST', '/v1/chat/completions', () => ({ json: fixture('chat-completion-text') }));
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-text') }));
    const request = { messages: [{ role: 'user' as const, content: 'x' }], tools: [READ_FILE_TOOL], toolChoice };
    await chatCompletions().chat(request);
    await responses().chat(request);
    expect(sentBody(fake.requests, 0).tool_choice).toBe(wire);
    expect(sentBody(fake.requests, 1).tool_choice).toBe(wire);
  });

  it('sends neither tools nor tool_choice without tools, and refuses a choice naming an unknown tool', async () => {
    fake.on('POST', '/v1/responses', () => ({ json: fixture('responses-text') }));
    await responses().chat({ messages: [{ role: 'user', content: 'x' }], toolChoice: 'none' });
    expect(sentBody(fake.requests, 0)).not.toHaveProperty('tool_choice');
    expect(sentBody(fake.requests, 0)).not.toHaveProperty('tools');

    const error = await marginErrorOf(
      responses().chat({
        messages: [{ role: 'user', content: 'x' }],
        tools: [READ_FILE_TOOL],
        toolChoice: { name: 'nope' },
      }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('nope');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('OpenAI (kindDirect): failures', () => {
  it('maps 401 to credentials without echoing the key', async () => {
    fake.on('POST', '/v1/responses', () => ({ status: 401, json: fixture('error-invalid-key') }));
    const error = await marginErrorOf(
      kind()
        .createModel(connection(), chatSpec('gpt-5.1'))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.code).toBe('provider_unavailable');
    expect(error.details).toMatchObject({ providerFailure: 'credentials', providerStatus: 401 });
    expect(error.message).toMatch(/^OpenAI answered 401: Incorrect API key provided/);
    expect(error.message).not.toContain(KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 after retry-after-ms and then succeeds', async () => {
    let calls = 0;
    fake.on('POST', '/v1/responses', () =>
      ++calls === 1
        ? { status: 429, headers: { 'retry-after-ms': '20' }, json: fixture('error-rate-limit') }
        : { json: fixture('responses-text') },
    );
    const result = await kind()
      .createModel(connection(), chatSpec('gpt-5.1'))
      .chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(result.text).toBe('The change looks correct.');
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry insufficient_quota and reports it as quotaExceeded', async () => {
    fake.on('POST', '/v1/responses', () => ({ status: 429, json: fixture('error-insufficient-quota') }));
    const error = await marginErrorOf(
      kind()
        .createModel(connection(), chatSpec('gpt-5.1'))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toMatchObject({ providerFailure: 'quotaExceeded', providerStatus: 429 });
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    ['chatCompletions', '/v1/chat/completions', 'error-context-length'],
    ['responses', '/v1/responses', 'error-context-length-responses'],
  ] as const)(
    'reports a %s input over the context window as contextLengthExceeded, without retrying',
    async (protocolMode, path, body) => {
      fake.on('POST', path, () => ({ status: 400, json: fixture(body) }));
      const error = await marginErrorOf(
        kind()
          .createModel(connection(), chatSpec('gpt-5.1', { protocolMode }))
          .chat({ messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(error.code).toBe('provider_unavailable');
      expect(error.details).toEqual({ providerFailure: 'contextLengthExceeded', providerStatus: 400 });
      expect(error.message).toMatch(/^OpenAI answered 400: (This model's maximum context length|Your input exceeds)/);
      expect(error.message).not.toContain(KEY);
      expect(fake.requests).toHaveLength(1);
    },
  );

  it('retries 5xx and then fails as unavailable', async () => {
    fake.on('POST', '/v1/responses', () => ({ status: 500, json: fixture('error-server') }));
    const error = await marginErrorOf(
      kind()
        .createModel(connection(), chatSpec('gpt-5.1'))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toMatchObject({ providerFailure: 'unavailable', providerStatus: 500 });
    expect(fake.requests).toHaveLength(3);
  });

  it('reports a body that is not JSON, and JSON that is not a response, as invalidResponse', async () => {
    fake.on('POST', '/v1/responses', () => ({
      text: '<html>gateway</html>',
      headers: { 'content-type': 'text/html' },
    }));
    const model = kind().createModel(connection(), chatSpec('gpt-5.1'));
    const error = await marginErrorOf(model.chat({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.details).toMatchObject({ providerFailure: 'invalidResponse' });

    fake.on('POST', '/v1/responses', () => ({ json: { hello: 'world' } }));
    const shape = await marginErrorOf(model.chat({ messages: [{ role: 'user', content: 'x' }] }));
    expect(shape.details).toMatchObject({ providerFailure: 'invalidResponse' });
  });

  it('refuses a protocol mode OpenAI does not have, naming mode and kind', async () => {
    const error = await marginErrorOf(
      Promise.resolve().then(() =>
        kind().createModel(connection(), chatSpec('gpt-5.1', { protocolMode: 'messagesApi' })),
      ),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('messagesApi');
    expect(error.message).toContain('kindDirect');
  });

  it('refuses chat on an embeddings binding and embeddings on a chat binding', async () => {
    const k = kind();
    const embeddingsBound = k.createModel(
      connection(),
      embeddingSpec('text-embedding-3-large', { protocolMode: 'embeddings' }),
    );
    expect((await marginErrorOf(embeddingsBound.chat({ messages: [] }))).code).toBe('validation_failed');
    const chatBound = k.createModel(connection(), chatSpec('gpt-5.1', { protocolMode: 'responses' }));
    expect((await marginErrorOf(chatBound.embed(['x']))).code).toBe('validation_failed');
  });
});

describe('OpenAI (kindDirect): probe and discovery', () => {
  it('probes with an authenticated model list', async () => {
    fake.on('GET', '/v1/models', () => ({ json: fixture('models') }));
    const result = await kind().probe(connection());
    expect(result).toEqual({ status: 'succeeded', summary: expect.stringContaining('3 text models'), warnings: [] });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([
    [401, 'credentials'],
    [403, 'authorization'],
    [404, 'providerRejected'],
    [400, 'providerRejected'],
  ])('maps a %s probe answer to %s', async (status, category) => {
    fake.on('GET', '/v1/models', () => ({ status, json: fixture('error-invalid-key') }));
    const result = await kind().probe(connection());
    expect(result).toMatchObject({ status: 'failed', failureCategory: category });
    expect(result.summary).not.toContain(KEY);
  });

  it('maps an unreachable endpoint to endpointReachability', async () => {
    const port = new URL(fake.url).port;
    await fake.close();
    const result = await kind().probe(profile('kindDirect', `http://127.0.0.1:${port}/v1`));
    expect(result).toMatchObject({ status: 'failed', failureCategory: 'endpointReachability' });
    fake = await startFakeHttpServer();
  });

  it('maps a refused (non-https) endpoint to endpointReachability when private egress is off', async () => {
    const guarded = createOpenAiKind(fakeRuntime({ allowPrivateEgress: false }));
    const result = await guarded.probe(connection());
    expect(result).toMatchObject({ status: 'failed', failureCategory: 'endpointReachability' });
    expect(result.summary).toMatch(/https/);
    expect(fake.requests).toHaveLength(0);
  });

  it('discovers text models and infers embedding models from their ids', async () => {
    fake.on('GET', '/v1/models', () => ({ json: fixture('models') }));
    const result = await kind().discoverModels(connection());
    expect(result).toEqual({
      discoveryStatus: 'succeeded',
      manualEntryAllowed: true,
      warnings: [],
      models: [
        { remoteModelId: 'gpt-4.1-mini', operationKinds: ['chat'] },
        { remoteModelId: 'gpt-5.1', operationKinds: ['chat'] },
        { remoteModelId: 'text-embedding-3-large', operationKinds: ['embedding'] },
      ],
    });
  });

  it('answers a failed discovery with a warning and manual entry allowed', async () => {
    fake.on('GET', '/v1/models', () => ({ status: 401, json: fixture('error-invalid-key') }));
    const result = await kind().discoverModels(connection());
    expect(result).toMatchObject({ discoveryStatus: 'failed', manualEntryAllowed: true, models: [] });
    expect(result.warnings[0]).toMatch(/401/);
  });

  it('adds /v1 to a bare host', async () => {
    fake.on('GET', '/v1/models', () => ({ json: fixture('models') }));
    await kind().probe(profile('kindDirect', fake.url));
    expect(fake.requests[0]?.path).toBe('/v1/models');
  });
});
