import { gitDiffOf } from './git-diff.js';
import type { MemoryFile } from './memory-review.js';

/** `n` lines of text, each made by `line(i)` for i = 1..n, ending in a newline. */
export const lines = (n: number, line: (i: number) => string): string =>
  `${Array.from({ length: n }, (_, i) => line(i + 1)).join('\n')}\n`;

/** The changed files of a pull request from before/after texts (added, deleted, renamed or modified). */
export function changedFiles(changes: Parameters<typeof gitDiffOf>[0]): MemoryFile[] {
  const diffs = gitDiffOf(changes);
  return Object.entries(changes).map(([path, c]) => ({
    path: c.renameTo ?? path,
    previousPath: c.renameTo ? path : undefined,
    changeType:
      c.before === undefined ? 'added' : c.after === undefined ? 'deleted' : c.renameTo ? 'renamed' : 'modified',
    diff: diffs[c.renameTo ?? path] ?? '',
  }));
}

/** A reviewing model's answer with these findings, as the text rung reads it. */
export const reviewAnswer = (...findings: unknown[]) => ({ text: JSON.stringify({ findings, fileNotes: null }) });
