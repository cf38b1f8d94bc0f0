import { createHash } from 'node:crypto';
import type { Revision, ThreadAnchor } from '@margin/core';

/** Where a line of the new file sits in the diff: an added line, or unchanged with its old number. */
export type NewLineKind =
  | { kind: 'added'; newLine: number; oldPos: number }
  | { kind: 'unchanged'; newLine: number; oldLine: number };

/**
 * Reads the hunks of one file's diff so a new-side line can be classified. GitLab needs to know:
 * an added line is addressed by `new_line` alone, an unchanged line by both `old_line` and `new_line`,
 * and `line_range` ends carry a `line_code` built from the old and new counters.
 */
export function lineMapFromDiff(diffText: string): (newLine: number) => NewLineKind {
  const added = new Map<number, number>(); // new line → old counter at that point
  const unchanged = new Map<number, number>(); // new line → old line
  // [new line after which the offset applies, new − old] for lines outside every hunk.
  const offsets: Array<[number, number]> = [[0, 0]];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const line of diffText.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      inHunk = true;
      continue;
    }
    if (!inHunk) continue;
    if (line.startsWith('+')) {
      added.set(newLine, oldLine);
      newLine += 1;
    } else if (line.startsWith('-')) {
      oldLine += 1;
    } else if (line.startsWith(' ')) {
      unchanged.set(newLine, oldLine);
      oldLine += 1;
      newLine += 1;
    } else {
      // `\ No newline at end of file`, or the empty string after the final newline.
      continue;
    }
    offsets.push([newLine - 1, newLine - oldLine]);
  }
  return (target) => {
    const addedAt = added.get(target);
    if (addedAt !== undefined) return { kind: 'added', newLine: target, oldPos: addedAt };
    const known = unchanged.get(target);
    if (known !== undefined) return { kind: 'unchanged', newLine: target, oldLine: known };
    let delta = 0;
    for (const [after, d] of offsets) if (after < target) delta = d;
    return { kind: 'unchanged', newLine: target, oldLine: Math.max(1, target - delta) };
  };
}

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
  new_line: number;
  old_line?: number;
  line_range?: {
    start: GitLabRangeEnd;
    end: GitLabRangeEnd;
  };
}

interface GitLabRangeEnd {
  line_code: string;
  type: 'new' | 'old';
  new_line: number;
  old_line?: number;
}

/**
 * The `position` of a new-side inline discussion. SHAs come from the revision: GitLab's `base_sha`
 * is the merge base, `start_sha` the target tip, `head_sha` the source tip.
 */
export function textPosition(
  anchor: ThreadAnchor,
  revision: Revision,
  oldPath: string,
  classify: (newLine: number) => NewLineKind,
): GitLabTextPosition {
  const end = classify(anchor.endLine);
  const position: GitLabTextPosition = {
    position_type: 'text',
    base_sha: revision.mergeBaseSha ?? revision.baseSha,
    start_sha: revision.baseSha,
    head_sha: revision.headSha,
    old_path: oldPath,
    new_path: anchor.filePath,
    new_line: anchor.endLine,
  };
  if (end.kind === 'unchanged') position.old_line = end.oldLine;
  if (anchor.startLine < anchor.endLine) {
    position.line_range = {
      start: rangeEnd(anchor.filePath, classify(anchor.startLine)),
      end: rangeEnd(anchor.filePath, end),
    };
  }
  return position;
}

function rangeEnd(path: string, line: NewLineKind): GitLabRangeEnd {
  // GitLab documents `type: new` for added lines and `old` for every other line.
  if (line.kind === 'added') {
    return { line_code: lineCode(path, line.oldPos, line.newLine), type: 'new', new_line: line.newLine };
  }
  return {
    line_code: lineCode(path, line.oldLine, line.newLine),
    type: 'old',
    old_line: line.oldLine,
    new_line: line.newLine,
  };
}
