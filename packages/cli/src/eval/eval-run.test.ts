import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MarginError } from '@margin/core';
import type { AiChatRequest, AiModelV1 } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvalCase, loadCases } from './eval-case.js';
import { runEval } from './eval-run.js';
import { scriptedReviewer } from './scripted-reviewer.js';

const CASES = join(resolve(fileURLToPath(import.meta.url), '../../../../..'), 'eval', 'cases');

/**
 * The case's scripted reviewer answering on whichever rung the engine asks on: JSON-schema mode as
 * the JSON text, a forced tool as a call of that tool. `refuseSchema` answers the JSON-schema mode
 * as a server without it does (a 400), so the engine steps down to the tool; `badToolFirst` calls
 * the tool with unusable arguments once, so the repair is spent on the tool rung.
 */
function rungModel(c: EvalCase, options: { refuseSchema?: boolean; badToolFirst?: boolean } = {}) {
  const inner = scriptedReviewer(c);
  const asked: AiChatRequest[] = [];
  let badToolLeft = options.badToolFirst ? 1 : 0;
  const model: AiModelV1 = {
    ...inner,
    async chat(request) {
      asked.push(request);
      if (request.responseFormat && options.refuseSchema) {
        throw MarginError.provider('rejected', 'This model does not support response_format json_schema.', {
          providerStatus: 400,
        });
      }
      const result = await inner.chat(request);
      const tool = typeof request.toolChoice === 'object' ? request.toolChoice.name : undefined;
      if (!tool) return result;
      const bad = request.messages.length === 1 && badToolLeft > 0;
      if (bad) badToolLeft--;
      return {
        ...result,
        text: '',
        toolCalls: [
          { id: `call_${asked.length}`, name: tool, arguments: bad ? { notes: 'none' } : JSON.parse(result.text) },
        ],
        finishReason: 'toolCalls',
      };
    },
  };
  return { model, asked };
}

describe('runEval: parse success per structured-output rung', { timeout: 60_000 }, () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'margin-eval-rungs-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('counts the JSON-schema rung, and the forced-tool rung (with its repair) when a server refuses the schema', async () => {
    const cases = await loadCases(CASES, ['ts-cart-average-empty', 'go-nil-map-counter']);
    const native = rungModel(cases[0] as EvalCase);
    const tool = rungModel(cases[1] as EvalCase, { refuseSchema: true, badToolFirst: true });
    const { results, totals } = await runEval({
      cases,
      modelFor: (c) => (c.id === 'ts-cart-average-empty' ? native.model : tool.model),
      traits: { connectionId: 'rungs', supportsStructuredOutput: true, supportsToolUse: true },
      workDir: work,
      env: { PATH: process.env.PATH ?? '' },
      signal: new AbortController().signal,
    });
    expect(results.map((r) => [r.id, r.error ?? null, r.found, r.falseFindings])).toEqual([
      ['ts-cart-average-empty', null, 1, 0],
      ['go-nil-map-counter', null, 1, 0],
    ]);
    expect(results.map((r) => r.parsing)).toEqual([
      { nativeSchema: { ok: 1, repaired: 0, failed: 0 } },
      { forcedTool: { ok: 0, repaired: 1, failed: 0 } },
    ]);
    expect(totals.parsing).toEqual({
      nativeSchema: { ok: 1, repaired: 0, failed: 0 },
      forcedTool: { ok: 0, repaired: 1, failed: 0 },
    });
    // The rungs were really asked for as such: a response format, then a forced tool.
    expect(native.asked[0]).toMatchObject({ responseFormat: { name: expect.any(String) } });
    expect(native.asked.some((r) => r.toolChoice !== undefined)).toBe(false);
    expect(tool.asked[0]).toMatchObject({ responseFormat: { name: expect.any(String) } });
    expect(tool.asked[1]).toMatchObject({ toolChoice: { name: expect.any(String) }, responseFormat: undefined });
  });
});
