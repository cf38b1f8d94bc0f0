import type { z } from 'zod';
import { MarginError } from '../kernel/index.js';
import type { AiChatRequest, AiModelV1, AiUsage } from './ai-model-v1.js';
import { askStructured } from './structured-output.js';

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
}

/**
 * An answer that must match a zod schema as a whole (no per-item salvage), with exactly one repair
 * attempt — the invalid answer and the validation errors go back to the model — before failing
 * with a `provider_unavailable` error. The structured-output ladder in `askStructured` does the work.
 */
export async function chatStructured<Schema extends z.ZodType>(
  model: AiModelV1,
  request: AiChatRequest,
  schema: Schema,
  options: ChatStructuredOptions,
): Promise<ChatStructuredResult<z.output<Schema>>> {
  const outcome = await askStructured(
    model,
    request,
    {
      name: options.schemaName ?? 'response',
      description: 'Reports the answer.',
      schema,
      example: '{}',
      read: (value) => {
        const checked = schema.safeParse(value);
        if (checked.success) return { value: checked.data as z.output<Schema>, usable: true };
        const issues = checked.error.issues.slice(0, 10).map((issue) => {
          const path = issue.path.map(String).join('.');
          return path ? `${path}: ${issue.message}` : issue.message;
        });
        return {
          value: undefined as z.output<Schema>,
          usable: false,
          problem: `it does not match the schema (${issues.join('; ')}).`,
        };
      },
    },
    { supportsStructuredOutput: options.nativeStructuredOutput, supportsToolUse: false },
  );
  if (outcome.ok) return { value: outcome.value, usage: outcome.usage, attempts: outcome.repaired ? 2 : 1 };
  throw new MarginError(
    'provider_unavailable',
    `The model ${model.remoteModelId} did not answer with JSON matching the expected schema, even after one repair attempt: ${outcome.problem}`,
    { providerFailure: 'invalidResponse', attempts: 2, usage: outcome.usage },
  );
}
