import { createHash } from 'node:crypto';
import type { Revision, ThreadAnchor } from '@margin/core/spec';

/**
 * One line of a file's hunks, numbered as GitLab numbers it. GitLab keeps both counters on every
 * line: an added line's `oldPos` is the old counter where it was inserted, a removed line's `newPos`
 * the new counter where it was taken out. Its line codes are built from these.
 */
export interface DiffLine {
  type: 'added' | 'removed' | 'context';
  oldPos: number;
  newPos: number;
}

/** The `+`, `-` and ` ` lines of a hunks-only or headed unified diff, in order. */
export function readDiffLines(diffText: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldPos = 0;
  let newPos = 0;
  let inHunk = false;
  for (const line of diffText.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      oldPos = Number(header[1]);
      newPos = Number(header[2]);
      inHunk = true;
      continue;
    }
    // `--- a/x` before the first hunk is a header, never a removed line.
    if (!inHunk) continue;
    if (line.startsWith('+')) {
      lines.push({ type: 'added', oldPos, newPos });
      newPos += 1;
    } else if (line.startsWith('-')) {
      lines.push({ type: 'removed', oldPos, newPos });
      oldPos += 1;
    } else if (line.startsWith(' ')) {
      lines.push({ type: 'context', oldPos, newPos });
      oldPos += 1;
      newPos += 1;
    }
    // `\ No newline at end of file` and the empty string after the final newline carry no line.
  }
  return lines;
}

/** Where a line of one side sits: only in the new file, only in the old one, or in both. */
export type LinePlace =
  | { kind: 'added'; newLine: number; oldPos: number }
  | { kind: 'removed'; oldLine: number; newPos: number }
  | { kind: 'unchanged'; oldLine: number; newLine: number };

export type PlaceLine = (line: number, side: 'new' | 'old') => LinePlace;

/**
 * Classifies a line of either side from the file's diff. A line outside every hunk is unchanged,
 * with its other number carried over from the nearest hunk above (GitLab refuses such a place unless
 * it shows the line; the adapter leaves that verdict to GitLab).
 */
export function lineMapFromDiff(diffText: string): PlaceLine {
  const lines = readDiffLines(diffText);
  const newSide = new Map<number, DiffLine>();
  const oldSide = new Map<number, DiffLine>();
  for (const line of lines) {
    if (line.type !== 'removed') newSide.set(line.newPos, line);
    if (line.type !== 'added') oldSide.set(line.oldPos, line);
  }
  return (target, side) => {
    const found = (side === 'new' ? newSide : oldSide).get(target);
    if (found?.type === 'added') return { kind: 'added', newLine: found.newPos, oldPos: found.oldPos };
    if (found?.type === 'removed') return { kind: 'removed', oldLine: found.oldPos, newPos: found.newPos };
    if (found) return { kind: 'unchanged', oldLine: found.oldPos, newLine: found.newPos };
    // Counters after the last diff line above the target give the offset between the sides.
    let delta = 0;
    for (const line of lines) {
      if (!precedes(line, target, side)) break;
      delta = nextNew(line) - nextOld(line);
    }
    return side === 'new'
      ? { kind: 'unchanged', newLine: target, oldLine: Math.max(1, target - delta) }
      : { kind: 'unchanged', oldLine: target, newLine: Math.max(1, target + delta) };
  };
}

/** A line only on the other side sits before the counter it carries; any other line before its own number. */
function precedes(line: DiffLine, target: number, side: 'new' | 'old'): boolean {
  if (side === 'new') return line.type === 'removed' ? line.newPos <= target : line.newPos < target;
  return line.type === 'added' ? line.oldPos <= target : line.oldPos < target;
}

const nextNew = (line: DiffLine) => (line.type === 'removed' ? line.newPos : line.newPos + 1);
const nextOld = (line: DiffLine) => (line.type === 'added' ? line.oldPos : line.oldPos + 1);

/** GitLab's line code: `sha1(path)_<old counter>_<new counter>`. */
export function lineCode(path: string, oldPos: number, newPos: number): string {
  return `${createHash('sha1').update(path).digest('hex')}_${oldPos}_${newPos}`;
}

export interface GitLabTextPosition {
  position_type: 'text';
  base_sha: string;
  start_sha: string;
  head_sha: string;
  old_path: string;
  new_path: string;
  new_line?: number;
  old_line?: number;
  line_range?: {
    start: GitLabRangeEnd;
    end: GitLabRangeEnd;
  };
}

export interface GitLabRangeEnd {
  line_code: string;
  type: 'new' | 'old';
  new_line?: number;
  old_line?: number;
}

/**
 * The `position` of an inline discussion. SHAs come from the revision (the merge request version the
 * lines were read from): GitLab's `base_sha` is the merge base, `start_sha` the target tip,
 * `head_sha` the source tip. GitLab matches `old_line`/`new_line` exactly against a diff line, so an
 * added line carries `new_line` alone, a removed line `old_line` alone and an unchanged one both; a
 * multi-line anchor adds `line_range` from its first to its last line.
 */
export function textPosition(
  anchor: ThreadAnchor,
  revision: Revision,
  oldPath: string,
  place: PlaceLine,
): GitLabTextPosition {
  const side = anchor.side ?? 'new';
  const end = place(anchor.endLine, side);
  const position: GitLabTextPosition = {
    position_type: 'text',
    base_sha: revision.mergeBaseSha ?? revision.baseSha,
    start_sha: revision.baseSha,
    head_sha: revision.headSha,
    old_path: oldPath,
    new_path: anchor.filePath,
    ...linesOf(end),
  };
  if (anchor.startLine < anchor.endLine) {
    position.line_range = {
      start: rangeEnd(anchor.filePath, place(anchor.startLine, side)),
      end: rangeEnd(anchor.filePath, end),
    };
  }
  return position;
}

function linesOf(place: LinePlace): { new_line?: number; old_line?: number } {
  if (place.kind === 'added') return { new_line: place.newLine };
  if (place.kind === 'removed') return { old_line: place.oldLine };
  return { old_line: place.oldLine, new_line: place.newLine };
}

function rangeEnd(path: string, place: LinePlace): GitLabRangeEnd {
  // GitLab documents `type: new` for added lines and `old` for every other line.
  if (place.kind === 'added') {
    return { line_code: lineCode(path, place.oldPos, place.newLine), type: 'new', new_line: place.newLine };
  }
  if (place.kind === 'removed') {
    return { line_code: lineCode(path, place.oldLine, place.newPos), type: 'old', old_line: place.oldLine };
  }
  return {
    line_code: lineCode(path, place.oldLine, place.newLine),
    type: 'old',
    old_line: place.oldLine,
    new_line: place.newLine,
  };
}
