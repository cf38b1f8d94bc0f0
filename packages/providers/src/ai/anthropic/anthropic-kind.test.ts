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
} from '../shared/ai-adapter-test-kit.js';
import { createAnthropicKind } from './anthropic-kind.js';

const fixture = fixtureReader(import.meta.url);
const KEY = 'sk-test-secret-0123456789';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

const kind = () => createAnthropicKind(fakeRuntime({ defaultMaxOutputTokens: 2048 }));
const connection = (extra = {}) => profile('kindAssistant', fake.url, extra);

describe('Anthropic (kindAssistant): Messages API', () => {
  it('sends x-api-key and anthropic-version, system as a cached block, and normalises usage', async () => {
    fake.on('POST', '/v1/messages', () => ({ json: fixture('message-text') }));
    const model = kind().createModel(
      connection({
        defaultHeaders: { 'anthropic-beta': 'context-1m-2025-08-07' },
        defaultQueryParams: { beta: 'true' },
      }),
      chatSpec('claude-sonnet-4-5'),
    );
    const result = await model.chat({
      system: 'You are a code reviewer.',
      messages: [{ role: 'user', content: 'diff' }],
      temperature: 0.2,
    });
    expect(result).toEqual({
      text: 'The rename is consistent.',
      toolCalls: [],
      finishReason: 'stop',
      usage: {
        inputTokens: 1200,
        cachedInputTokens: 4096,
        cacheWriteTokens: 300,
        outputTokens: 600,
        reasoningTokens: 0,
      },
      protocolMode: 'messagesApi',
    });
    const req = fake.requests[0];
    expect(req?.headers['x-api-key']).toBe(KEY);
    expect(req?.headers['anthropic-version']).toBe('2023-06-01');
    expect(req?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.query.get('beta')).toBe('true');
    expect(req?.json).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      system: [{ type: 'text', text: 'You are a code reviewer.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'diff' }] }],
      temperature: 0.2,
    });
  });

  it('uses output_config.format for structured output and passes lower efforts', async () => {
    fake.on('POST', '/v1/messages', () => ({ json: fixture('message-structured') }));
    const model = kind().createModel(connection(), chatSpec('claude-sonnet-4-5'));
    const result = await model.chat({
      messages: [{ role: 'user', content: 'review' }],
      responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
      reasoningEffort: 'medium',
      maxOutputTokens: 4000,
    });
    expect(JSON.parse(result.text)).toEqual({ findings: [{ line: 7, message: 'Unused import.' }] });
    expect(fake.requests[0]?.json).toMatchObject({
      max_tokens: 4000,
      output_config: { format: { type: 'json_schema', schema: REVIEW_SCHEMA }, effort: 'medium' },
    });
    expect(sentBody(fake.requests, 0)).not.toHaveProperty('tools');
  });

  it('forces an answer tool for models without native structured output', async () => {
    fake.on('POST', '/v1/messages', () => ({ json: fixture('message-forced-tool') }));
    const model = kind().createModel(connection(), chatSpec('claude-3-5-haiku', { supportsStructuredOutput: false }));
    const result = await model.chat({
      messages: [{ role: 'user', content: 'review' }],
      responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
      reasoningEffort: 'high',
    });
    expect(result).toMatchObject({ finishReason: 'stop', toolCalls: [] });
    expect(JSON.parse(result.text)).toEqual({ findings: [{ line: 3, message: 'Off by one.' }] });
    const body = sentBody(fake.requests, 0);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'emit_review_findings' });
    expect(body.tools).toEqual([
      expect.objectContaining({ name: 'emit_review_findings', input_schema: REVIEW_SCHEMA }),
    ]);
    expect(body).not.toHaveProperty('output_config');
  });

  it('maps tools, parses tool_use, and sends tool results in the next user turn', async () => {
    fake.on('POST', '/v1/messages', () => ({ json: fixture('message-tool-use') }));
    const model = kind().createModel(connection(), chatSpec('claude-sonnet-4-5'));
    const first = await model.chat({ messages: [{ role: 'user', content: 'review' }], tools: [READ_FILE_TOOL] });
    expect(first).toMatchObject({
      text: 'I need to see the caller.',
      finishReason: 'toolCalls',
      toolCalls: [
        { id: 'toolu_01A09q90qw90lq917835lq9', name: 'read_file', arguments: { path: 'src/a.ts', startLine: 40 } },
      ],
    });
    expect(fake.requests[0]?.json).toMatchObject({
      tools: [{ name: 'read_file', description: READ_FILE_TOOL.description, input_schema: READ_FILE_TOOL.parameters }],
      tool_choice: { type: 'auto' },
    });

    await model.chat({
      messages: [
        { role: 'user', content: 'review' },
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'toolu_01A09q90qw90lq917835lq9', toolName: 'read_file', content: 'caller()' },
        { role: 'user', content: 'Now answer.' },
      ],
      tools: [READ_FILE_TOOL],
    });
    expect(sentBody(fake.requests, 1).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'review' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'I need to see the caller.' },
          {
            type: 'tool_use',
            id: 'toolu_01A09q90qw90lq917835lq9',
            name: 'read_file',
            input: { path: 'src/a.ts', startLine: 40 },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: 'caller()' },
          { type: 'text', text: 'Now answer.' },
        ],
      },
    ]);
  });

  it('forces one named tool as tool_choice {type: tool, name}', async () => {
    fake.on('POST', '/v1/messages', () => ({ json: fixture('message-tool-use') }));
    await kind().createModel(connection(), chatSpec('claude-sonnet-4-5')).chat(FORCED_TOOL_REQUEST);
    expect(fake.requests[0]?.json).toEqual(fixture('request-messages-forced-tool'));
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
  ] as const)('sends toolChoice %s as tool_choice %j, keeping the tools declared', async (toolChoice, wire) => {
    fake.on('POST', '/v1/messages', () => ({ json: fixture('message-text') }));
    await kind()
      .createModel(connection(), chatSpec('claude-sonnet-4-5'))
      .chat({ messages: [{ role: 'user', content: 'x' }], tools: [READ_FILE_TOOL], toolChoice });
    expect(sentBody(fake.requests, 0).tool_choice).toEqual(wire);
    expect(sentBody(fake.requests, 0).tools).toEqual([
      { name: 'read_file', description: READ_FILE_TOOL.description, input_schema: READ_FILE_TOOL.parameters },
    ]);
  });

  it('with a forced answer tool, lets the model call a caller tool first (any), or the named one', async () => {
    fake.on('POST', '/v1/messages', () => ({ json: fixture('message-forced-tool') }));
    const model = kind().createModel(connection(), chatSpec('claude-3-5-haiku', { supportsStructuredOutput: false }));
    const base = {
      messages: [{ role: 'user' as const, content: 'review' }],
      responseFormat: { name: 'review_findings', schema: { ...REVIEW_SCHEMA } },
    };
    await model.chat({ ...base, tools: [READ_FILE_TOOL] });
    await model.chat({ ...base, tools: [READ_FILE_TOOL], toolChoice: { name: 'read_file' } });
    await model.chat({ ...base, tools: [READ_FILE_TOOL], toolChoice: 'none' });
    expect(sentBody(fake.requests, 0).tool_choice).toEqual({ type: 'any' });
    expect((sentBody(fake.requests, 0).tools as Array<{ name: string }>).map((t) => t.name)).toEqual([
      'read_file',
      'emit_review_findings',
    ]);
    expect(sentBody(fake.requests, 1).tool_choice).toEqual({ type: 'tool', name: 'read_file' });
    expect(sentBody(fake.requests, 2).tool_choice).toEqual({ type: 'tool', name: 'emit_review_findings' });
  });

  it('refuses toolChoice required without tools', async () => {
    const error = await marginErrorOf(
      kind()
        .createModel(connection(), chatSpec('claude-sonnet-4-5'))
        .chat({ messages: [{ role: 'user', content: 'x' }], toolChoice: 'required' }),
    );
    expect(error.code).toBe('validation_failed');
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses embeddings clearly', async () => {
    const error = await marginErrorOf(kind().createModel(connection(), chatSpec('claude-sonnet-4-5')).embed(['x']));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/no embeddings API/);
    const mode = await marginErrorOf(
      Promise.resolve().then(() =>
        kind().createModel(connection(), embeddingSpec('x', { protocolMode: 'embeddings' })),
      ),
    );
    expect(mode.message).toMatch(/embeddings is not available for provider kind kindAssistant/);
  });
});

describe('Anthropic (kindAssistant): failures', () => {
  const chat = () =>
    kind()
      .createModel(connection(), chatSpec('claude-sonnet-4-5'))
      .chat({ messages: [{ role: 'user', content: 'x' }] });

  it('maps 401 to credentials without the key in the message', async () => {
    fake.on('POST', '/v1/messages', () => ({ status: 401, json: fixture('error-authentication') }));
    const error = await marginErrorOf(chat());
    expect(error.details).toMatchObject({ providerFailure: 'credentials', providerStatus: 401 });
    expect(error.message).toBe('Anthropic answered 401: invalid x-api-key');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 429 after retry-after, then succeeds', async () => {
    let calls = 0;
    fake.on('POST', '/v1/messages', () =>
      ++calls === 1
        ? { status: 429, headers: { 'retry-after': '0' }, json: fixture('error-rate-limit') }
        : { json: fixture('message-text') },
    );
    expect((await chat()).text).toBe('The rename is consistent.');
    expect(calls).toBe(2);
  });

  it('retries 529 overloaded and fails as unavailable when it persists', async () => {
    fake.on('POST', '/v1/messages', () => ({ status: 529, json: fixture('error-overloaded') }));
    const error = await marginErrorOf(chat());
    expect(error.details).toMatchObject({ providerFailure: 'unavailable', providerStatus: 529 });
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry an exhausted credit balance', async () => {
    fake.on('POST', '/v1/messages', () => ({ status: 400, json: fixture('error-credit-balance') }));
    const error = await marginErrorOf(chat());
    expect(error.details).toMatchObject({ providerFailure: 'quotaExceeded' });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports "prompt is too long" as contextLengthExceeded, without retrying', async () => {
    fake.on('POST', '/v1/messages', () => ({ status: 400, json: fixture('error-prompt-too-long') }));
    const error = await marginErrorOf(
      kind()
        .createModel(connection(), chatSpec('claude-sonnet-4-5'))
        .chat({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toEqual({ providerFailure: 'contextLengthExceeded', providerStatus: 400 });
    expect(error.message).toBe('Anthropic answered 400: prompt is too long: 208656 tokens > 200000 maximum');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports malformed bodies as invalidResponse', async () => {
    fake.on('POST', '/v1/messages', () => ({
      text: 'upstream connect error',
      headers: { 'content-type': 'text/plain' },
    }));
    expect((await marginErrorOf(chat())).details).toMatchObject({ providerFailure: 'invalidResponse' });
    fake.on('POST', '/v1/messages', () => ({ json: { type: 'message' } }));
    expect((await marginErrorOf(chat())).details).toMatchObject({ providerFailure: 'invalidResponse' });
  });
});

describe('Anthropic (kindAssistant): probe and discovery', () => {
  it('probes with one model and discovers every page with context sizes', async () => {
    fake.on('GET', '/v1/models', (req) => ({
      json: req.query.get('after_id') ? fixture('models-page-2') : fixture('models-page-1'),
    }));
    const probe = await kind().probe(connection());
    expect(probe).toMatchObject({ status: 'succeeded' });
    expect(fake.requests[0]?.query.get('limit')).toBe('1');
    expect(fake.requests[0]?.headers['x-api-key']).toBe(KEY);

    const discovery = await kind().discoverModels(connection());
    expect(discovery.models).toEqual([
      {
        remoteModelId: 'claude-haiku-4-5-20251001',
        displayName: 'Claude Haiku 4.5',
        operationKinds: ['chat'],
        maxContextTokens: 200000,
        supportsToolUse: true,
      },
      {
        remoteModelId: 'claude-sonnet-4-5-20250929',
        displayName: 'Claude Sonnet 4.5',
        operationKinds: ['chat'],
        maxContextTokens: 200000,
        supportsToolUse: true,
      },
    ]);
    expect(fake.requests.at(-1)?.query.get('after_id')).toBe('claude-sonnet-4-5-20250929');
  });

  it('maps a rejected key to credentials and a forbidden one to authorization', async () => {
    fake.on('GET', '/v1/models', () => ({ status: 401, json: fixture('error-authentication') }));
    expect(await kind().probe(connection())).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    fake.on('GET', '/v1/models', () => ({
      status: 403,
      json: { type: 'error', error: { type: 'permission_error', message: 'Your API key does not have permission.' } },
    }));
    expect(await kind().probe(connection())).toMatchObject({ status: 'failed', failureCategory: 'authorization' });
  });
});
