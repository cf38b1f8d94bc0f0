import type { AiToolDefinition } from '../../ai-model/index.js';
import type { Tier } from '../plan/tiers.js';

/** Read-only tool calls a reviewing model may make per chunk, by the chunk's tier (reference §6.5). */
export type ToolCallsByTier = Readonly<Record<Tier, number>>;

export const DEFAULT_TOOL_CALLS_BY_TIER: ToolCallsByTier = { low: 0, medium: 3, high: 8 };

/** Lines one `read_file` call returns at most; a longer span is clipped and the answer says so. */
export const MAX_LINES_PER_READ = 120;

/** Characters of file content all of one chunk's reads return together (about 7k tokens). */
export const MAX_TOOL_OUTPUT_CHARS = 24_000;

/** A line longer than this (minified code) is cut, so one line cannot spend the chunk's output. */
export const MAX_LINE_CHARS = 1_000;

export const READ_FILE_TOOL: AiToolDefinition = {
  name: 'read_file',
  description: `Reads lines of a file of the repository as it is at the pull request's head revision, to see code the diff does not show (a definition, a caller, the lines around a hunk). Returns at most ${MAX_LINES_PER_READ} numbered lines per call. Read-only.`,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path from the repository root, e.g. "src/billing/invoice.ts".' },
      startLine: { type: 'integer', description: 'First line to read, 1-based.' },
      endLine: {
        type: 'integer',
        description: `Last line to read (inclusive); at most ${MAX_LINES_PER_READ} lines after startLine.`,
      },
    },
    required: ['path', 'startLine', 'endLine'],
    additionalProperties: false,
  },
};

export type ReadFileArgs = { path: string; startLine: number; endLine: number };

/** Why a requested path is not read: the model gets this as the tool's answer. */
export type PathRefusal = 'invalid' | 'absolute' | 'traversal' | 'nul';

/**
 * A repository path as the tool reads it, or why it is refused. The model writes the path, and the
 * model may have been steered by the pull request, so nothing outside the repository's tree may be
 * named: no absolute or drive paths, no `..` segment, no NUL (which truncates paths in C-based
 * tools). `./`, `a/`-less duplicates of slashes and backslashes are normalised.
 */
export function normaliseRepoPath(raw: string): { ok: true; path: string } | { ok: false; refusal: PathRefusal } {
  if (raw.includes('\u0000')) return { ok: false, refusal: 'nul' };
  const unified = raw.trim().replaceAll('\\', '/');
  if (unified.startsWith('/') || /^[A-Za-z]:/.test(unified) || unified.startsWith('~'))
    return { ok: false, refusal: 'absolute' };
  const segments = unified.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return { ok: false, refusal: 'traversal' };
  // Control characters never name a real file and would reach the provider's URL or git's argv.
  if (segments.length === 0 || unified.length > 1000 || /\p{Cc}/u.test(unified))
    return { ok: false, refusal: 'invalid' };
  return { ok: true, path: segments.join('/') };
}

/** The call's arguments, leniently: numeric strings are numbers; a missing end reads the longest span. */
export function readFileArgs(value: unknown): ReadFileArgs | undefined {
  const args = typeof value === 'string' ? safeParse(value) : value;
  if (typeof args !== 'object' || args === null) return undefined;
  const record = args as Record<string, unknown>;
  if (typeof record.path !== 'string') return undefined;
  const start = lineNumber(record.startLine) ?? 1;
  const end = lineNumber(record.endLine) ?? start + MAX_LINES_PER_READ - 1;
  return { path: record.path, startLine: start, endLine: end };
}

function lineNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.max(1, Math.trunc(n)) : undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
