/**
 * Values AI vendors spell alike: token counts, tool-call arguments, tool and schema names. Reading
 * their JSON answers is `../../utils`' readers (`readObject`, `readString`, …).
 */
import { readNumber } from '../../utils/index.js';

/** A token count: a non-negative integer, 0 when absent. */
export function count(value: unknown): number {
  const n = readNumber(value);
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
