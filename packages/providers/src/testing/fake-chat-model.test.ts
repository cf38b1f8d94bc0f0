import { CreateAiConnectionInput } from '@margin/core/schemas';
import { marginErrorOf } from '@margin/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleKind } from '../ai/openai-wire/openai-compatible-kind.js';
import { chatSpec, fakeRuntime, profile, REPORT_FINDINGS_TOOL } from '../ai/shared/ai-adapter-test-kit.js';
import { type FakeChatModel, type FakeChatModelOptions, startFakeChatModel } from './fake-chat-model.js';

let fake: FakeChatModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The fake behind the real kindCompatible adapter, as an engine test would use it. */
async function modelOn(options: FakeChatModelOptions = {}, spec = chatSpec('fake-chat-model')) {
  fake = await startFakeChatModel(options);
  return createOpenAiCompatibleKind(fakeRuntime()).createModel(profile('kindCompatible', fake.apiRoot), spec);
}

describe('startFakeChatModel', () => {
  it('answers a forced tool call and records the request in the port’s terms', async () => {
    const model = await modelOn({
      respond: (request) => ({
        toolCalls: [{ name: request.tools[0]?.name ?? '', arguments: { findings: [{ line: 1, message: 'x' }] } }],
      }),
    });
    const result = await model.chat({
      system: 'Review.',
      messages: [{ role: 'user', content: 'diff' }],
      tools: [REPORT_FINDINGS_TOOL],
      toolChoice: { name: 'report_findings' },
    });
    expect(result).toMatchObject({
      finishReason: 'toolCalls',
      toolCalls: [{ id: 'call_1', name: 'report_findings', arguments: { findings: [{ line: 1, message: 'x' }] } }],
    });
    expect(fake?.chats).toHaveLength(1);
    expect(fake?.chats[0]).toMatchObject({
      model: 'fake-chat-model',
      messages: [
        { role: 'system', content: 'Review.' },
        { role: 'user', content: 'diff' },
      ],
      tools: [REPORT_FINDINGS_TOOL],
      toolChoice: { name: 'report_findings' },
      responseFormat: undefined,
    });
  });

  it('consumes a queue in order, then answers 501', async () => {
    const model = await modelOn({ respond: [{ content: 'first' }, { content: 'second', finishReason: 'length' }] });
    const ask = () => model.chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(await ask()).toMatchObject({ text: 'first', finishReason: 'stop' });
    expect(await ask()).toMatchObject({ text: 'second', finishReason: 'length' });
    const error = await marginErrorOf(ask());
    expect(error.details).toMatchObject({ providerStatus: 501 });
    expect(error.message).toContain('no scripted answer left for call 3');

    fake?.respondWith([{ content: 'again' }]);
    expect(await ask()).toMatchObject({ text: 'again' });
  });

  it('derives non-zero usage from text length unless the answer names it', async () => {
    const model = await modelOn({
      respond: [
        { content: 'a'.repeat(70) },
        { content: '', usage: { prompt_tokens: 100, completion_tokens: 5, cached_tokens: 40 } },
      ],
    });
    const first = await model.chat({ messages: [{ role: 'user', content: 'b'.repeat(350) }] });
    expect(first.usage.inputTokens).toBeGreaterThanOrEqual(100);
    expect(first.usage.outputTokens).toBe(20);
    const second = await model.chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(second.usage).toMatchObject({ inputTokens: 60, cachedInputTokens: 40, outputTokens: 5 });
  });

  it('reads a json_schema response format back', async () => {
    const model = await modelOn();
    const schema = { type: 'object', properties: {}, additionalProperties: false };
    await model.chat({
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { name: 'review_findings', schema },
    });
    expect(fake?.chats[0]?.responseFormat).toEqual({ name: 'review_findings', schema });
  });

  it('answers a scripted error status with its body, so adapters map it', async () => {
    const model = await modelOn({
      respond: {
        status: 400,
        errorBody: { error: { message: "This model's maximum context length is 32768 tokens.", code: null } },
      },
    });
    const error = await marginErrorOf(model.chat({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.details).toEqual({ providerFailure: 'contextLengthExceeded', providerStatus: 400 });
  });

  it('waits latencyMs on a timer before answering', async () => {
    const model = await modelOn({ latencyMs: 20 });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => model.chat({ messages: [{ role: 'user', content: 'x' }] })),
    );
    expect(results.map((r) => r.text)).toEqual(['OK', 'OK', 'OK', 'OK']);
    expect(fake?.chats).toHaveLength(4);
  });

  it('lists its models, fails every route on request, and gives a valid kindCompatible profile', async () => {
    fake = await startFakeChatModel({ models: ['reviewer-model', 'other-model'] });
    const kind = createOpenAiCompatibleKind(fakeRuntime());
    const connection = profile('kindCompatible', fake.apiRoot);
    expect((await kind.discoverModels(connection)).models.map((m) => m.remoteModelId)).toEqual([
      'other-model',
      'reviewer-model',
    ]);

    fake.on('POST', '/v1/embeddings', () => ({ json: { data: [] } }));
    fake.failWith({ status: 401, json: { error: { message: 'Incorrect API key provided.' } } });
    expect(await kind.probe(connection)).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    const embeddings = await fetch(`${fake.apiRoot}/embeddings`, { method: 'POST', body: '{}' });
    expect(embeddings.status).toBe(401);
    fake.failWith(undefined);
    expect(await kind.probe(connection)).toMatchObject({ status: 'succeeded' });

    const body = fake.profile({ model: { supportsStructuredOutput: false } });
    expect(CreateAiConnectionInput.parse(body)).toMatchObject({
      providerKind: 'kindCompatible',
      baseUrl: fake.apiRoot,
      configuredModels: [{ remoteModelId: 'reviewer-model', supportsStructuredOutput: false, inputCostPer1MUsd: 1 }],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'reviewer-model' }],
    });
  });
});
