import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MarginError } from '../kernel/index.js';
import type { AiChatRequest, AiChatResult, AiModelV1, AiUsage } from './ai-model-v1.js';
import { chatStructured } from './structured-chat.js';
import { parseJsonLeniently } from './structured-output.js';

const Findings = z.object({
  findings: z.array(z.object({ line: z.number().int(), message: z.string() })),
});

const usage = (input: number, output: number): AiUsage => ({
  inputTokens: input,
  cachedInputTokens: 1,
  cacheWriteTokens: 0,
  outputTokens: output,
  reasoningTokens: 2,
});

/** A model that answers with the scripted texts in order and records every request. */
function scriptedModel(answers: Array<Partial<AiChatResult>>): AiModelV1 & { requests: AiChatRequest[] } {
  const requests: AiChatRequest[] = [];
  return {
    specificationVersion: 'v1',
    providerKind: 'kindDirect',
    remoteModelId: 'gpt-test',
    requests,
    async chat(request) {
      requests.push(request);
      const answer = answers[requests.length - 1];
      if (!answer) throw new Error('no more scripted answers');
      return {
        text: '',
        toolCalls: [],
        finishReason: 'stop',
        usage: usage(10, 5),
        protocolMode: 'responses',
        ...answer,
      };
    },
    async embed() {
      throw new Error('not used');
    },
  };
}

const request: AiChatRequest = { system: 'You review code.', messages: [{ role: 'user', content: 'diff' }] };
const valid = JSON.stringify({ findings: [{ line: 3, message: 'off by one' }] });

describe('structured chat', () => {
  it('asks for native structured output with the JSON Schema of the zod schema', async () => {
    const model = scriptedModel([{ text: valid }]);
    const out = await chatStructured(model, request, Findings, {
      nativeStructuredOutput: true,
      schemaName: 'review_findings',
    });
    expect(out.value).toEqual({ findings: [{ line: 3, message: 'off by one' }] });
    expect(out.attempts).toBe(1);
    const sent = model.requests[0];
    expect(sent?.system).toBe('You review code.');
    expect(sent?.responseFormat?.name).toBe('review_findings');
    expect(sent?.responseFormat?.schema).toMatchObject({
      type: 'object',
      required: ['findings'],
      additionalProperties: false,
    });
    expect(sent?.responseFormat?.schema).not.toHaveProperty('$schema');
  });

  it('puts the schema into the system prompt when the model has no native structured output', async () => {
    const model = scriptedModel([{ text: `Here you go:\n\`\`\`json\n${valid}\n\`\`\`` }]);
    const out = await chatStructured(model, request, Findings, { nativeStructuredOutput: false });
    expect(out.value.findings[0]?.line).toBe(3);
    const sent = model.requests[0];
    expect(sent?.responseFormat).toBeUndefined();
    expect(sent?.system).toMatch(/^You review code\.\n\nAnswer with a single JSON value/);
    expect(sent?.system).toContain('"findings"');
  });

  it('makes exactly one repair attempt with the invalid answer and the validation errors, summing usage', async () => {
    const bad = JSON.stringify({ findings: [{ line: 'three' }] });
    const model = scriptedModel([{ text: bad }, { text: valid, usage: usage(20, 7) }]);
    const out = await chatStructured(model, request, Findings, { nativeStructuredOutput: true });
    expect(out.attempts).toBe(2);
    expect(out.usage).toEqual({
      inputTokens: 30,
      cachedInputTokens: 2,
      cacheWriteTokens: 0,
      outputTokens: 12,
      reasoningTokens: 4,
    });
    const repair = model.requests[1];
    expect(repair?.responseFormat?.name).toBe('response');
    expect(repair?.messages.slice(-2)).toEqual([
      { role: 'assistant', content: bad },
      { role: 'user', content: expect.stringContaining('findings.0.line: Invalid input: expected number') },
    ]);
    expect(repair?.messages.at(-1)?.content).toContain('findings.0.message');
  });

  it('fails with a clear error when the repair is invalid too, without a third call', async () => {
    const model = scriptedModel([{ text: 'not json' }, { text: '{"findings": 1}' }, { text: valid }]);
    const error = await chatStructured(model, request, Findings, { nativeStructuredOutput: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(MarginError.isInstance(error)).toBe(true);
    if (!MarginError.isInstance(error)) return;
    expect(error.code).toBe('provider_unavailable');
    expect(error.details).toMatchObject({ providerFailure: 'invalidResponse', attempts: 2 });
    expect(error.message).toMatch(/gpt-test did not answer with JSON matching the expected schema.*findings/);
    expect(model.requests).toHaveLength(2);
  });

  it('treats a tool-call answer as invalid and asks again without quoting an empty assistant turn', async () => {
    const model = scriptedModel([
      { text: '', finishReason: 'toolCalls', toolCalls: [{ id: 'c1', name: 'read_file', arguments: {} }] },
      { text: valid },
    ]);
    const out = await chatStructured(model, request, Findings, { nativeStructuredOutput: true });
    expect(out.attempts).toBe(2);
    const repair = model.requests[1];
    expect(repair?.messages).toHaveLength(2);
    expect(repair?.messages[1]).toMatchObject({ role: 'user', content: expect.stringContaining('called tools') });
  });
});

describe('lenient JSON reading', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['```json\n{"a":1}\n```', { a: 1 }],
    ['Sure! {"a":[1,2]} Hope that helps.', { a: [1, 2] }],
    ['[1,2]', [1, 2]],
  ])('reads %j', (text, value) => {
    expect(parseJsonLeniently(text)).toEqual({ ok: true, value });
  });

  it('refuses text without JSON', () => {
    expect(parseJsonLeniently('no json here')).toEqual({ ok: false });
  });
});
