import { createTwoFilesPatch } from 'diff';

export interface UnifiedDiffInput {
  /** Path on the old side; `undefined` for an added file. */
  oldPath: string | undefined;
  /** Path on the new side; `undefined` for a deleted file. */
  newPath: string | undefined;
  oldText: string;
  newText: string;
  /** Either side is binary: no hunks, only the `Binary files … differ` line git prints. */
  isBinary?: boolean | undefined;
  /** Context lines around each hunk. Default 3, as git and the providers use. */
  context?: number | undefined;
  /** Give up on a minimal diff past this many edits. Default 10,000. */
  maxEditLength?: number | undefined;
  /** Give up on a minimal diff after this long. Default 2 s. */
  timeoutMs?: number | undefined;
}

/**
 * Myers' diff is O(N·D): two unrelated 30,000-line versions take many seconds. Past an edit length
 * or a time budget we give up on a minimal diff and emit one hunk replacing the whole file, which is
 * still a correct unified diff a reviewer can read. The diff runs in jsdiff's async mode, so a slow
 * one yields to the event loop instead of stalling the host.
 */
const MAX_EDIT_LENGTH = 10_000;
const TIMEOUT_MS = 2_000;

/**
 * A unified diff for one file from both versions, shaped like `git diff` without its `diff --git`
 * line: `--- a/old` / `+++ b/new` (or `/dev/null`) and `@@` hunks. Used by providers without a diff
 * endpoint (Azure DevOps) and as the fallback where the provider omits one (GitHub's large files).
 */
export async function computeUnifiedDiff(input: UnifiedDiffInput): Promise<string> {
  const oldName = input.oldPath === undefined ? '/dev/null' : `a/${input.oldPath}`;
  const newName = input.newPath === undefined ? '/dev/null' : `b/${input.newPath}`;
  const header = `--- ${oldName}\n+++ ${newName}\n`;
  if (input.isBinary) return `Binary files ${oldName} and ${newName} differ\n`;
  if (input.oldText === input.newText) return header;
  const patch = await new Promise<string | undefined>((resolve) => {
    createTwoFilesPatch(oldName, newName, input.oldText, input.newText, undefined, undefined, {
      context: input.context ?? 3,
      maxEditLength: input.maxEditLength ?? MAX_EDIT_LENGTH,
      timeout: input.timeoutMs ?? TIMEOUT_MS,
      headerOptions: { includeIndex: false, includeUnderline: false, includeFileHeaders: false },
      callback: resolve,
    });
  });
  return header + (patch ?? wholeFileHunk(input.oldText, input.newText));
}

/** Prefixes a provider's hunks-only patch (GitHub's `patch` field) with the same file headers. */
export function withFileHeaders(hunks: string, oldPath: string | undefined, newPath: string | undefined): string {
  const oldName = oldPath === undefined ? '/dev/null' : `a/${oldPath}`;
  const newName = newPath === undefined ? '/dev/null' : `b/${newPath}`;
  const body = hunks === '' || hunks.endsWith('\n') ? hunks : `${hunks}\n`;
  return `--- ${oldName}\n+++ ${newName}\n${body}`;
}

function wholeFileHunk(oldText: string, newText: string): string {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const range = (start: number, count: number) => (count === 0 ? `${start - 1},0` : `${start},${count}`);
  const out = [`@@ -${range(1, oldLines.lines.length)} +${range(1, newLines.lines.length)} @@`];
  for (const line of oldLines.lines) out.push(`-${line}`);
  if (!oldLines.endsWithNewline && oldLines.lines.length > 0) out.push('\\ No newline at end of file');
  for (const line of newLines.lines) out.push(`+${line}`);
  if (!newLines.endsWithNewline && newLines.lines.length > 0) out.push('\\ No newline at end of file');
  return `${out.join('\n')}\n`;
}

function splitLines(text: string): { lines: string[]; endsWithNewline: boolean } {
  if (text === '') return { lines: [], endsWithNewline: true };
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  return { lines, endsWithNewline };
}
