import { structuredPatch } from 'diff';

/** Lines of unchanged context around each change, as `git diff` shows by default. */
const CONTEXT_LINES = 3;

/**
 * A unified diff of one file computed here, for when GitLab will not give one (too large, collapsed,
 * or a revision that is no longer the merge request's newest). `undefined` text means the file does
 * not exist on that side (added or deleted). Returns `''` when both sides are equal.
 */
export function localUnifiedDiff(
  oldPath: string,
  newPath: string,
  oldText: string | undefined,
  newText: string | undefined,
): string {
  const patch = structuredPatch(oldPath, newPath, oldText ?? '', newText ?? '', undefined, undefined, {
    context: CONTEXT_LINES,
  });
  if (patch.hunks.length === 0) return '';
  const hunks = patch.hunks.map((hunk) =>
    [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines].join('\n'),
  );
  return `${fileHeader(oldPath, newPath, oldText === undefined, newText === undefined)}${hunks.join('\n')}\n`;
}

/** The `---`/`+++` lines of a unified diff, with `/dev/null` for a side that does not exist. */
export function fileHeader(oldPath: string, newPath: string, oldMissing: boolean, newMissing: boolean): string {
  return `--- ${oldMissing ? '/dev/null' : `a/${oldPath}`}\n+++ ${newMissing ? '/dev/null' : `b/${newPath}`}\n`;
}
