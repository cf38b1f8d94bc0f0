import type { ChangeType } from '../../scm-provider/index.js';
import { type DiffHunk, isWhitespaceOnly, type ParsedDiff } from './parse-diff.js';

export interface RenderFileInput {
  path: string;
  previousPath?: string | undefined;
  changeType: ChangeType;
  diff: ParsedDiff;
  /** Only these hunks (by index); all when absent. Big files are reviewed a few hunks at a time. */
  hunks?: readonly number[] | undefined;
}

/**
 * The diff as a model reads it. Only head-version lines carry numbers (right-aligned, then `+` for
 * an added line or a space for context); removed lines follow under `__old hunk__` with `-` and no
 * number. One numbering removes the old/new confusion behind comments on the wrong line, and every
 * finding must also quote its line, which anchoring trusts over the number.
 *
 *     ## File: src/billing/invoice.ts  (modified; renamed from src/invoice.ts)  lang=typescript
 *     @@ -118,9 +120,14 @@ export function totalFor(order: Order)
 *     __new hunk__
 *      120   const lines = order.lines ?? [];
 *      121 + const rate = taxRate(order.region);
 *     __old hunk__
 *     - const rate = TAX[order.region];
 *
 * Whitespace-only hunks are left out; a delete-only hunk is one line saying what was removed where.
 */
export function renderFileDiff(input: RenderFileInput): string {
  const { header, hunks } = renderFileParts(input);
  return [header, ...hunks.map((h) => h.text)].join('\n');
}

/** The header and each shown hunk rendered apart, so a plan can weigh and split a file by hunk. */
export function renderFileParts(input: RenderFileInput): {
  header: string;
  hunks: Array<{ index: number; text: string }>;
} {
  const { diff } = input;
  const shown = diff.hunks.filter((h) => (input.hunks ? input.hunks.includes(h.index) : true) && !isWhitespaceOnly(h));
  // One width for the whole file, so numbers line up however the file is split.
  const width = String(Math.max(1, ...diff.hunks.map((h) => h.newStart + h.newCount))).length;
  return {
    header: fileHeader(input),
    hunks: shown.map((hunk) => ({ index: hunk.index, text: renderHunk(hunk, width).join('\n') })),
  };
}

function fileHeader(input: RenderFileInput): string {
  const what =
    input.changeType === 'renamed' && input.previousPath
      ? `renamed from ${input.previousPath}`
      : input.changeType === 'added'
        ? 'new file'
        : input.changeType;
  const lang = languageOf(input.path);
  return `## File: ${input.path}  (${what})${lang ? `  lang=${lang}` : ''}`;
}

function renderHunk(hunk: DiffHunk, width: number): string[] {
  const header = `@@ -${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount} @@${hunk.section ? ` ${hunk.section}` : ''}`;
  const kept = hunk.lines.filter((l) => l.kind !== 'removed');
  const removed = hunk.lines.filter((l) => l.kind === 'removed');
  if (!hunk.lines.some((l) => l.kind === 'added') && removed.length > 0) {
    // The last head line before the removal; 0 when the file's top was removed.
    const after =
      kept.filter((l) => (l.oldLine ?? 0) < (removed[0]?.oldLine ?? 0)).at(-1)?.newLine ?? hunk.newStart - 1;
    return [
      header,
      `(${removed.length} line${removed.length === 1 ? '' : 's'} removed after line ${Math.max(0, after)})`,
    ];
  }
  const out = [header, '__new hunk__'];
  for (const line of kept) {
    out.push(`${String(line.newLine).padStart(width)} ${line.kind === 'added' ? '+' : ' '} ${line.text}`);
  }
  if (removed.length > 0) {
    out.push('__old hunk__');
    for (const line of removed) out.push(`- ${line.text}`);
  }
  return out;
}

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  go: 'go',
  java: 'java',
  kt: 'kotlin',
  cs: 'csharp',
  rb: 'ruby',
  rs: 'rust',
  php: 'php',
  swift: 'swift',
  scala: 'scala',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  sql: 'sql',
  sh: 'shell',
  yml: 'yaml',
  yaml: 'yaml',
  json: 'json',
  md: 'markdown',
  tf: 'terraform',
};

export function languageOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? undefined : LANGUAGES[path.slice(dot + 1).toLowerCase()];
}
