import type { ParsedDiff } from '../diff/parse-diff.js';
import { renderFileDiff } from '../diff/render-diff.js';
import type { PlannedFile } from '../pipeline/prepare-files.js';
import type { TriageFileInput } from '../prompt/triage-prompt.js';

/** What one file shows the triage model at most (reference §6.4). */
export const TRIAGE_DIFF_CHARS = 6000;

export interface TriageBatchLimits {
  /** Files per call. */
  maxFiles: number;
  /** Diff characters per call. */
  maxChars: number;
}

export const DEFAULT_TRIAGE_BATCH: TriageBatchLimits = { maxFiles: 12, maxChars: 24_000 };

/** Siblings listed per file: enough to see a test or a caller changed alongside, no more. */
const MAX_SIBLINGS = 10;

/**
 * Groups files into triage calls in the order given, each call up to `maxFiles` files and
 * `maxChars` diff characters. Sizes come from the plan's token counts (×3.5, capped like the diff
 * itself), so nothing is rendered before its call: huge pull requests keep memory flat.
 */
export function triageBatches(files: readonly PlannedFile[], limits: TriageBatchLimits): PlannedFile[][] {
  const batches: PlannedFile[][] = [];
  let open: PlannedFile[] = [];
  let chars = 0;
  for (const file of files) {
    const size = Math.min(
      TRIAGE_DIFF_CHARS,
      Math.ceil((file.headerTokens + file.hunks.reduce((n, h) => n + h.tokens, 0)) * 3.5),
    );
    if (open.length > 0 && (open.length >= limits.maxFiles || chars + size > limits.maxChars)) {
      batches.push(open);
      open = [];
      chars = 0;
    }
    open.push(file);
    chars += size;
  }
  if (open.length > 0) batches.push(open);
  return batches;
}

/** Changed paths by folder, for the sibling lists. */
export function siblingsIndex(paths: readonly string[]): (path: string) => string[] {
  const byFolder = new Map<string, string[]>();
  for (const path of paths) {
    const folder = folderOf(path);
    const list = byFolder.get(folder) ?? [];
    list.push(path);
    byFolder.set(folder, list);
  }
  return (path) => (byFolder.get(folderOf(path)) ?? []).filter((p) => p !== path).slice(0, MAX_SIBLINGS);
}

/**
 * A file as the triage model sees it: its path, its siblings and its diff (already redacted, with
 * invisible characters shown, when the plan prepared it), cut at a line boundary past 6,000
 * characters with a note saying how much was left out.
 */
export function triageInput(file: PlannedFile, siblings: (path: string) => string[]): TriageFileInput {
  const rendered = renderFileDiff({
    path: file.file.path,
    previousPath: file.file.previousPath,
    changeType: file.file.changeType,
    diff: file.diff as ParsedDiff,
  });
  return { path: file.file.path, siblings: siblings(file.file.path), diff: capDiff(rendered) };
}

export function capDiff(text: string): string {
  if (text.length <= TRIAGE_DIFF_CHARS) return text;
  const cut = text.lastIndexOf('\n', TRIAGE_DIFF_CHARS);
  const kept = text.slice(0, cut > 0 ? cut : TRIAGE_DIFF_CHARS);
  return `${kept}\n… (diff cut here: ${text.length - kept.length} more characters not shown)`;
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
