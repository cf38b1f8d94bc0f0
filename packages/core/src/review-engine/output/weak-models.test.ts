import { describe, expect, it } from 'vitest';
import { askStructured } from '../../ai-model/index.js';
import { MarginError } from '../../kernel/index.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { REVIEW_ANSWER_SPEC } from './review-answer.js';

const item = (over: Record<string, unknown> = {}) => ({
  path: 'src/a.ts',
  quote: 'const x = y!;',
  startLine: 3,
  endLine: 3,
  category: 'bug',
  title: 'Non-null assertion on an optional value',
  evidence: 'y is undefined when the cache is cold.',
  claim: { kind: 'none', symbol: null, path: null },
  severity: 'error',
  confidence: 85,
  message: '`y` is undefined on a cold cache, and the assertion hides it.',
  suggestion: null,
  ruleId: null,
  ...over,
});

const request = { system: 'Review.', messages: [{ role: 'user' as const, content: 'diff' }] };
const textOnly = { supportsStructuredOutput: false, supportsToolUse: false };

describe('structured output from weak models', () => {
  it('reads JSON with prose around it and a trailing comma, without an extra call', async () => {
    const text = `Here is my review:\n\`\`\`json\n{"findings": [${JSON.stringify(item())},], "fileNotes": null}\n\`\`\`\nHope it helps!`;
    const model = scriptedModel([{ text }]);
    const out = await askStructured(model, request, REVIEW_ANSWER_SPEC, textOnly);
    expect(out).toMatchObject({ ok: true, rung: 'text', calls: 1, repaired: false });
    if (out.ok) expect(out.value.value.findings).toHaveLength(1);
  });

  it('takes a bare array as the findings and coerces wrong severities and numeric strings', async () => {
    const answer = [
      item({ severity: 'critical' }),
      item({ severity: 'nit', startLine: '17', endLine: '18' }),
      item({ severity: 'Medium', category: 'style' }),
    ];
    const out = await askStructured(
      scriptedModel([{ text: JSON.stringify(answer) }]),
      request,
      REVIEW_ANSWER_SPEC,
      textOnly,
    );
    if (!out.ok) throw new Error(out.problem);
    const findings = out.value.value.findings;
    expect(findings.map((f) => f.severity)).toEqual(['error', 'suggestion', 'warning']);
    expect(findings[1]).toMatchObject({ startLine: 17, endLine: 18 });
    expect(findings[2]?.category).toBe('maintainability');
    expect(out.value.coercions).toBeGreaterThanOrEqual(4);
  });

  it('salvages the valid items and records why each invalid one was dropped', async () => {
    const answer = {
      findings: [
        item({ severity: 'critical' }),
        item({ path: undefined }),
        item({ startLine: '17' }),
        item({ message: '' }),
      ],
      fileNotes: null,
    };
    const out = await askStructured(
      scriptedModel([{ text: JSON.stringify(answer) }]),
      request,
      REVIEW_ANSWER_SPEC,
      textOnly,
    );
    if (!out.ok) throw new Error(out.problem);
    expect(out.value.value.findings).toHaveLength(2);
    expect(out.value.dropped).toEqual([
      { index: 1, reason: 'missingPath' },
      { index: 3, reason: 'missingMessage' },
    ]);
  });

  it('spends exactly one repair call on an unreadable answer, then succeeds', async () => {
    const model = scriptedModel([
      { text: 'I found a few issues, mainly around nulls.' },
      { text: JSON.stringify({ findings: [item()], fileNotes: null }) },
    ]);
    const out = await askStructured(model, request, REVIEW_ANSWER_SPEC, textOnly);
    expect(out).toMatchObject({ ok: true, calls: 2, repaired: true });
    expect(model.requests[1]?.messages.at(-1)?.content).toMatch(/^Your previous answer could not be used/);
    if (out.ok) expect(out.usage.inputTokens).toBeGreaterThan(model.requests.length);
  });

  it('fails visibly when nothing is parseable even after the repair', async () => {
    const model = scriptedModel([{ text: 'LGTM!' }, { text: 'Still looks good to me.' }]);
    const out = await askStructured(model, request, REVIEW_ANSWER_SPEC, textOnly);
    expect(out).toMatchObject({ ok: false, calls: 2 });
    expect(model.requests).toHaveLength(2);
  });

  it('treats an empty findings list as a clean answer, not a failure', async () => {
    const out = await askStructured(
      scriptedModel([{ text: '{"findings": [], "fileNotes": null}' }]),
      request,
      REVIEW_ANSWER_SPEC,
      textOnly,
    );
    expect(out).toMatchObject({ ok: true, calls: 1 });
  });

  it('uses the native schema, then a forced tool call, falling down a rung the server refuses', async () => {
    const model = scriptedModel([
      MarginError.provider('rejected', 'response_format is not supported', { providerStatus: 400 }),
      {
        toolCalls: [{ id: 't1', name: 'report_findings', arguments: { findings: [item()], fileNotes: null } }],
        finishReason: 'toolCalls',
      },
    ]);
    const out = await askStructured(model, request, REVIEW_ANSWER_SPEC, {
      supportsStructuredOutput: true,
      supportsToolUse: true,
    });
    expect(out).toMatchObject({ ok: true, rung: 'forcedTool', calls: 2 });
    expect(model.requests[0]?.responseFormat?.name).toBe('report_findings');
    expect(model.requests[1]?.toolChoice).toEqual({ name: 'report_findings' });
    expect(model.requests[1]?.tools?.[0]?.parameters).toMatchObject({ type: 'object', additionalProperties: false });
  });

  it('throws what the caller must act on, such as a context window too small', async () => {
    const model = scriptedModel([MarginError.provider('contextLengthExceeded', 'too long', { providerStatus: 400 })]);
    await expect(askStructured(model, request, REVIEW_ANSWER_SPEC, textOnly)).rejects.toMatchObject({
      details: { providerFailure: 'contextLengthExceeded' },
    });
  });
});
