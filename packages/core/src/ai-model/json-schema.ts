import { z } from 'zod';

/**
 * The zod schema as the JSON Schema vendors accept, without `$schema`. The output view is used
 * because it closes objects (`additionalProperties: false`), which strict structured-output modes
 * require; response schemas should therefore not rely on transforms.
 */
export function toVendorJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let known = converted.get(schema);
  if (!known) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    known = rest;
    converted.set(schema, known);
  }
  return known;
}

// Schemas are module constants asked for on every call; converting one costs a millisecond.
const converted = new WeakMap<z.ZodType, Record<string, unknown>>();
