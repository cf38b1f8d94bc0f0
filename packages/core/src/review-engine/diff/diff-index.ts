import type { DiffLine, ParsedDiff } from './parse-diff.js';

export interface IndexedLine {
  line: number;
  kind: 'added' | 'context';
  text: string;
  hunk: number;
}

export interface IndexedRemovedLine {
  line: number;
  text: string;
  hunk: number;
  /** The head-version line the removal sits before (the next surviving line), for anchoring on it. */
  newLineAfter: number;
}

export interface HunkRange {
  index: number;
  /** First and last head-version line of the hunk; `newEnd < newStart` for a delete-only hunk. */
  newStart: number;
  newEnd: number;
  addedLines: number[];
}

/**
 * Lookup tables over one file's diff for anchoring: which head lines the diff shows (and whether
 * each was added), which base lines it removed, and the hunks' head-line ranges.
 */
export interface DiffIndex {
  path: string;
  newLines: Map<number, IndexedLine>;
  removedLines: IndexedRemovedLine[];
  hunks: HunkRange[];
  /** Head lines in order, added before context, for quote search. */
  searchOrder: IndexedLine[];
}

export function indexDiff(path: string, diff: ParsedDiff): DiffIndex {
  const newLines = new Map<number, IndexedLine>();
  const removedLines: IndexedRemovedLine[] = [];
  const hunks: HunkRange[] = [];
  for (const hunk of diff.hunks) {
    const range: HunkRange = {
      index: hunk.index,
      newStart: hunk.newCount === 0 ? hunk.newStart + 1 : hunk.newStart,
      newEnd: hunk.newStart + hunk.newCount - 1,
      addedLines: [],
    };
    const pendingRemoved: DiffLine[] = [];
    for (const line of hunk.lines) {
      if (line.kind === 'removed') {
        pendingRemoved.push(line);
        continue;
      }
      const number = line.newLine as number;
      for (const removed of pendingRemoved.splice(0)) {
        removedLines.push({
          line: removed.oldLine as number,
          text: removed.text,
          hunk: hunk.index,
          newLineAfter: number,
        });
      }
      newLines.set(number, {
        line: number,
        kind: line.kind === 'added' ? 'added' : 'context',
        text: line.text,
        hunk: hunk.index,
      });
      if (line.kind === 'added') range.addedLines.push(number);
    }
    // Removals at a hunk's end sit after its last head line.
    for (const removed of pendingRemoved) {
      removedLines.push({
        line: removed.oldLine as number,
        text: removed.text,
        hunk: hunk.index,
        newLineAfter: Math.max(1, range.newEnd + 1),
      });
    }
    hunks.push(range);
  }
  const lines = [...newLines.values()];
  const searchOrder = [...lines.filter((l) => l.kind === 'added'), ...lines.filter((l) => l.kind === 'context')];
  return { path, newLines, removedLines, hunks, searchOrder };
}

/** The hunk containing a head line, if any. */
export function hunkAt(index: DiffIndex, line: number): HunkRange | undefined {
  const found = index.newLines.get(line);
  return found ? index.hunks.find((h) => h.index === found.hunk) : undefined;
}
