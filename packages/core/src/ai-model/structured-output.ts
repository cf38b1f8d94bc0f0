import { jsonrepair } from 'jsonrepair';
import type { z } from 'zod';
import { MarginError } from '../kernel/index.js';
import type { AiChatRequest, AiChatResult, AiModelV1, AiUsage } from './ai-model-v1.js';
import { toVendorJsonSchema } from './json-schema.js';
import { addUsage, emptyUsage } from './usage.js';

/**
 * How a structured answer is asked for, most reliable first:
 * - `nativeSchema`: the vendor's JSON-schema mode (`responseFormat`), for models configured with
 *   `supportsStructuredOutput`;
 * - `forcedTool`: one tool the model must call, whose arguments are the answer — the reliable way on
 *   Anthropic, Bedrock and Vertex, for models with `supportsToolUse`;
 * - `text`: the schema and an example in the prompt, the JSON found in the text and repaired.
 */
export type OutputRung = 'nativeSchema' | 'forcedTool' | 'text';

export interface StructuredSpec<T> {
  /** Names the schema for vendors and the forced tool, e.g. `review_findings`. */
  name: string;
  /** What the tool is for, shown to the model on the tool rung. */
  description: string;
  /** The shape asked for; its JSON Schema is sent as is (keep it strict-mode safe). */
  schema: z.ZodType;
  /** A compact, valid example answer for the text rung. */
  example: string;
  /**
   * Reads a parsed JSON value, salvaging what it can. `undefined` or `usable: false` means nothing
   * usable: the answer earns the one repair call, then fails.
   */
  read(value: unknown): { value: T; usable: boolean; problem?: string | undefined } | undefined;
}

export interface StructuredCapabilities {
  supportsStructuredOutput: boolean;
  supportsToolUse: boolean;
}

export type StructuredOutcome<T> =
  | { ok: true; value: T; rung: OutputRung; calls: number; repaired: boolean; usage: AiUsage }
  | { ok: false; rung: OutputRung; calls: number; problem: string; usage: AiUsage };

/**
 * Asks for a structured answer and reads it leniently, walking down the rungs when a model or
 * server refuses one (a 400 for an unsupported `response_format`, a 500 "error parsing tool call"),
 * and spending at most one repair call — the model's own answer and what was wrong with it — when
 * an answer cannot be read. A failure is returned, never thrown, so the caller can disclose it;
 * errors that say the call itself cannot succeed (credentials, rate limits after retries, a context
 * window too small) are thrown for the caller to act on.
 */
export async function askStructured<T>(
  model: Pick<AiModelV1, 'chat' | 'remoteModelId'>,
  request: AiChatRequest,
  spec: StructuredSpec<T>,
  capabilities: StructuredCapabilities,
): Promise<StructuredOutcome<T>> {
  const rungs: OutputRung[] = [
    ...(capabilities.supportsStructuredOutput ? (['nativeSchema'] as const) : []),
    ...(capabilities.supportsToolUse ? (['forcedTool'] as const) : []),
    'text',
  ];
  const jsonSchema = toVendorJsonSchema(spec.schema);
  let usage = emptyUsage();
  let calls = 0;
  for (const [i, rung] of rungs.entries()) {
    const asked = requestFor(rung, request, spec, jsonSchema);
    let result: AiChatResult;
    try {
      result = await model.chat(asked);
    } catch (error) {
      calls++;
      if (i < rungs.length - 1 && refusesRung(error)) continue;
      throw error;
    }
    calls++;
    usage = addUsage(usage, result.usage);
    const first = readResult(result, rung, spec);
    if (first.ok) return { ok: true, value: first.value, rung, calls, repaired: false, usage };

    const repair: AiChatRequest = {
      ...asked,
      messages: [
        ...asked.messages,
        // An empty answer has nothing to quote back; vendors refuse empty assistant turns.
        ...(result.text.trim() ? [{ role: 'assistant' as const, content: result.text }] : []),
        { role: 'user' as const, content: repairInstructions(first.problem, rung, jsonSchema) },
      ],
    };
    const second = await model.chat(repair);
    calls++;
    usage = addUsage(usage, second.usage);
    const again = readResult(second, rung, spec);
    if (again.ok) return { ok: true, value: again.value, rung, calls, repaired: true, usage };
    return { ok: false, rung, calls, problem: again.problem, usage };
  }
  // Unreachable: the text rung never `continue`s.
  throw MarginError.internal('No output rung answered.');
}

function requestFor<T>(
  rung: OutputRung,
  request: AiChatRequest,
  spec: StructuredSpec<T>,
  jsonSchema: Record<string, unknown>,
): AiChatRequest {
  switch (rung) {
    case 'nativeSchema':
      return {
        ...request,
        tools: undefined,
        toolChoice: undefined,
        responseFormat: { name: spec.name, schema: jsonSchema },
      };
    case 'forcedTool':
      return {
        ...request,
        responseFormat: undefined,
        tools: [{ name: spec.name, description: spec.description, parameters: jsonSchema }],
        toolChoice: { name: spec.name },
      };
    case 'text':
      return {
        ...request,
        tools: undefined,
        toolChoice: undefined,
        responseFormat: undefined,
        system: [
          request.system?.trim(),
          'Answer with a single JSON value matching this JSON Schema. Write only the JSON: no prose, no Markdown fences.',
          JSON.stringify(jsonSchema),
          `Example of a valid answer: ${spec.example}`,
        ]
          .filter(Boolean)
          .join('\n\n'),
      };
  }
}

function repairInstructions(problem: string, rung: OutputRung, jsonSchema: Record<string, unknown>): string {
  return [
    `Your previous answer could not be used: ${problem}`,
    rung === 'forcedTool'
      ? 'Call the tool again with arguments that match its schema.'
      : 'Reply again with only the corrected JSON value matching this JSON Schema:',
    ...(rung === 'forcedTool' ? [] : [JSON.stringify(jsonSchema)]),
  ].join('\n');
}

/** A provider error that says this way of asking is not supported, so the next rung may work. */
function refusesRung(error: unknown): boolean {
  if (!MarginError.isInstance(error) || error.code !== 'provider_unavailable') return false;
  const failure = error.details.providerFailure;
  return failure === 'rejected' || failure === 'invalidResponse';
}

export type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

function readResult<T>(result: AiChatResult, rung: OutputRung, spec: StructuredSpec<T>): Read<T> {
  const fromTool = rung === 'forcedTool' ? result.toolCalls.find((c) => c.name === spec.name) : undefined;
  if (fromTool) {
    const value = typeof fromTool.arguments === 'string' ? jsonCandidates(fromTool.arguments)[0] : fromTool.arguments;
    return readValue(value, spec) ?? { ok: false, problem: 'the tool arguments do not match the schema.' };
  }
  if (!result.text.trim()) {
    return {
      ok: false,
      problem:
        result.toolCalls.length > 0
          ? 'it called tools instead of answering.'
          : `it was empty (finish reason: ${result.finishReason}).`,
    };
  }
  return readTextAnswer(result.text, spec);
}

/**
 * An answer text read as the text rung reads one: the first JSON value in it (see
 * `jsonCandidates`) the spec can use, or the problem with the most likely reading.
 */
export function readTextAnswer<T>(text: string, spec: StructuredSpec<T>): Read<T> {
  // The first candidate is the most likely reading, so its problem is the one worth reporting.
  let problem: string | undefined;
  for (const candidate of jsonCandidates(text)) {
    const read = readValue(candidate, spec);
    if (read?.ok) return read;
    if (read) problem ??= read.problem;
  }
  return { ok: false, problem: problem ?? 'no JSON value was found in it.' };
}

function readValue<T>(value: unknown, spec: StructuredSpec<T>): Read<T> | undefined {
  if (value === undefined) return undefined;
  const read = spec.read(value);
  if (!read) return { ok: false, problem: 'it does not have the expected shape.' };
  if (!read.usable) return { ok: false, problem: read.problem ?? 'no item in it matches the schema.' };
  return { ok: true, value: read.value };
}

/**
 * Every JSON value a text may hold, most likely first: the whole text, a fenced block, the span
 * from the first `{` to the last `}` and from the first `[` to the last `]`. Each is parsed as is,
 * then repaired (trailing commas, single or smart quotes, unquoted keys, comments, control
 * characters) before it is given up.
 */
export function jsonCandidates(text: string): unknown[] {
  const spans = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) spans.push(fenced[1].trim());
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const start = text.indexOf(open);
    const end = text.lastIndexOf(close);
    if (start >= 0 && end > start) spans.push(text.slice(start, end + 1));
  }
  const values: unknown[] = [];
  for (const span of new Set(spans)) {
    const value = parseSpan(span);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/** The most likely JSON value of an answer text (see `jsonCandidates`). */
export function parseJsonLeniently(text: string): { ok: true; value: unknown } | { ok: false } {
  const [value] = jsonCandidates(text);
  return value === undefined ? { ok: false } : { ok: true, value };
}

/** One span parsed as JSON, repaired when it must be; `undefined` when it holds none. */
function parseSpan(text: string): unknown {
  const normalised = text.replace(/[\u201C\u201D]/g, '"').replace(/[\u2018\u2019]/g, "'");
  try {
    return JSON.parse(normalised);
  } catch {
    try {
      const repaired = jsonrepair(normalised);
      const value: unknown = JSON.parse(repaired);
      // A repaired bare word ("Sure") is a string, not an answer.
      return typeof value === 'object' && value !== null ? value : undefined;
    } catch {
      return undefined;
    }
  }
}
