/**
 * Small readers for vendor JSON. Answers are read leniently (vendors add fields all the time) but
 * never trusted: every value is checked for its type before use.
 */
export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A token count: a non-negative integer, 0 when absent. */
export function count(value: unknown): number {
  const n = asNumber(value);
  return n !== undefined && n > 0 ? Math.round(n) : 0;
}

/**
 * Tool-call arguments arrive as a JSON string (OpenAI) or an object (Anthropic, Bedrock, Gemini).
 * A string that is not JSON is handed back as it is, so the caller can report what the model sent.
 */
export function parseToolArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Vendors restrict schema and tool names (OpenAI: `^[a-zA-Z0-9_-]{1,64}$`). */
export function safeName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned || 'response';
}
