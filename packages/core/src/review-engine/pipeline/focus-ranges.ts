import type { Revision } from '../../scm-provider/index.js';
import { parseDiff } from '../diff/parse-diff.js';
import type { ReviewBaseline } from '../memory/review-memory.js';
import { forEachPooled } from './pool.js';
import type { PlannedFile } from './prepare-files.js';
import type { ReviewSource } from './review-source.js';

export interface Focus {
  /** How the new head relates to the last reviewed one; focus ranges only for `ahead`. */
  relation: string;
  /** By planned file: the new-version lines that changed since the last review. Files absent are new to the review. */
  lines: Map<number, number[]>;
}

/**
 * What changed in each file since the last completed review: the interdiff from the last reviewed
 * head to the new one. Only when the new head descends from it (an ordinary push); after a force push
 * the history is not comparable and the whole change is reviewed (identity still prevents repeats).
 */
export async function focusSince(input: {
  baseline: ReviewBaseline;
  revision: Revision;
  planned: readonly PlannedFile[];
  source: ReviewSource;
  signal: AbortSignal;
  concurrency: number;
}): Promise<Focus> {
  const { baseline, revision, source } = input;
  if (!source.compareCommits) return { relation: 'unknown', lines: new Map() };
  const comparison = await source.compareCommits(baseline.headSha, revision.headSha, { signal: input.signal });
  const lines = new Map<number, number[]>();
  if (comparison.relation !== 'ahead') return { relation: comparison.relation, lines };
  const since: Revision = {
    revisionId: revision.headSha,
    headSha: revision.headSha,
    baseSha: baseline.headSha,
    mergeBaseSha: baseline.headSha,
  };
  const seenBefore = input.planned.filter(
    (p) =>
      baseline.files.has(p.file.path) || (p.file.previousPath !== undefined && baseline.files.has(p.file.previousPath)),
  );
  await forEachPooled(seenBefore, input.concurrency, async (planned) => {
    const interdiff = parseDiff((await source.getFileDiff(planned.file, since, { signal: input.signal })).text);
    const changed: number[] = [];
    for (const hunk of interdiff.hunks) {
      const added = hunk.lines.filter((l) => l.kind === 'added').map((l) => l.newLine as number);
      // A removal alone still changes the code around it.
      changed.push(...(added.length > 0 ? added : [Math.max(1, hunk.newStart)]));
    }
    lines.set(planned.id, changed);
  });
  return { relation: comparison.relation, lines };
}

/** Lines as ranges for people and prompts: `10–14, 40`. */
export function describeLines(lines: readonly number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return ranges.join(', ');
}

/** Within `margin` lines of a line that changed since the last review. */
export function nearFocus(focus: readonly number[], startLine: number, endLine: number, margin = 3): boolean {
  return focus.some((line) => line >= startLine - margin && line <= endLine + margin);
}
