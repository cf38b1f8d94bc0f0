import { z } from 'zod';
import { MarginError } from '../errors.js';
import type { AiChatRequest, AiChatResult, AiModelV1, AiUsage } from './ai-model-v1.js';
import { addUsage, emptyUsage } from './usage.js';

export interface ChatStructuredOptions {
  /**
   * Use the vendor's native structured output (`responseFormat`). Set it from the configured
   * model's `supportsStructuredOutput`; otherwise the schema goes into the system prompt.
   */
  nativeStructuredOutput: boolean;
  /** Name of the schema sent to the vendor, e.g. `review_findings`. Default `response`. */
  schemaName?: string | undefined;
}

export interface ChatStructuredResult<T> {
  value: T;
  /** Summed over every attempt, so cost covers the repair too. */
  usage: AiUsage;
  /** 1, or 2 when the repair attempt was needed. */
  attempts: 1 | 2;
  /** The answer that passed validation. */
  result: AiChatResult;
}

/**
 * Asks for an answer that must match a zod schema, validates it, and makes exactly one repair
 * attempt (the invalid answer and the validation errors go back to the model) before failing.
 * Tool loops are the caller's: a turn that answers with tool calls instead of JSON counts as invalid.
 */
export async function chatStructured<Schema extends z.ZodType>(
  model: AiModelV1,
  request: AiChatRequest,
  schema: Schema,
  options: ChatStructuredOptions,
): Promise<ChatStructuredResult<z.output<Schema>>> {
  const jsonSchema = toVendorJsonSchema(schema);
  const first = options.nativeStructuredOutput
    ? { ...request, responseFormat: { name: options.schemaName ?? 'response', schema: jsonSchema } }
    : { ...request, responseFormat: undefined, system: withSchemaInstructions(request.system, jsonSchema) };

  const firstResult = await model.chat(first);
  let usage = addUsage(emptyUsage(), firstResult.usage);
  const firstCheck = validate(firstResult, schema);
  if (firstCheck.ok) return { value: firstCheck.value, usage, attempts: 1, result: firstResult };

  const repair: AiChatRequest = {
    ...first,
    messages: [
      ...first.messages,
      // An empty answer has nothing to quote back; vendors refuse empty assistant turns.
      ...(firstResult.text.trim() ? [{ role: 'assistant' as const, content: firstResult.text }] : []),
      { role: 'user' as const, content: repairInstructions(firstCheck.problem, jsonSchema) },
    ],
  };
  const secondResult = await model.chat(repair);
  usage = addUsage(usage, secondResult.usage);
  const secondCheck = validate(secondResult, schema);
  if (secondCheck.ok) return { value: secondCheck.value, usage, attempts: 2, result: secondResult };

  throw new MarginError(
    'provider_unavailable',
    `The model ${model.remoteModelId} did not answer with JSON matching the expected schema, even after one repair attempt: ${secondCheck.problem}`,
    { providerFailure: 'invalidResponse', attempts: 2, usage },
  );
}

/**
 * The zod schema as the JSON Schema vendors accept, without `$schema`. The output view is used
 * because it closes objects (`additionalProperties: false`), which strict structured-output modes
 * require; response schemas should therefore not rely on transforms.
 */
export function toVendorJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

function withSchemaInstructions(system: string | undefined, jsonSchema: Record<string, unknown>): string {
  const instructions = [
    'Answer with a single JSON value that matches this JSON Schema.',
    'Write only the JSON: no prose before or after it, no Markdown code fences.',
    JSON.stringify(jsonSchema),
  ].join('\n');
  return system?.trim() ? `${system}\n\n${instructions}` : instructions;
}

function repairInstructions(problem: string, jsonSchema: Record<string, unknown>): string {
  return [
    `Your previous answer was not valid: ${problem}`,
    'Reply again with only the corrected JSON value matching this JSON Schema, and do not call any tools:',
    JSON.stringify(jsonSchema),
  ].join('\n');
}

type Check<T> = { ok: true; value: T } | { ok: false; problem: string };

function validate<Schema extends z.ZodType>(result: AiChatResult, schema: Schema): Check<z.output<Schema>> {
  if (!result.text.trim()) {
    return {
      ok: false,
      problem:
        result.toolCalls.length > 0
          ? 'it called tools instead of answering with JSON.'
          : `it was empty (finish reason: ${result.finishReason}).`,
    };
  }
  const parsed = parseJsonLeniently(result.text);
  if (!parsed.ok) return { ok: false, problem: 'it is not valid JSON.' };
  const checked = schema.safeParse(parsed.value);
  if (checked.success) return { ok: true, value: checked.data };
  const issues = checked.error.issues.slice(0, 10).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return { ok: false, problem: `it does not match the schema (${issues.join('; ')}).` };
}

/** Models without native structured output like Markdown fences or a sentence around the JSON. */
export function parseJsonLeniently(text: string): { ok: true; value: unknown } | { ok: false } {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start >= 0 && end > start) candidates.push(text.slice(start, end + 1));
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next reading
    }
  }
  return { ok: false };
}
