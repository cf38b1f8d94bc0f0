import type { ReviewThread } from '../../scm-provider/index.js';
import type { KnownMatch } from '../dedupe/dedupe.js';
import type { ParsedDiff } from '../diff/parse-diff.js';
import type { EngineFinding } from '../engine-finding.js';
import { normaliseCode } from '../identity/finding-keys.js';
import type { KnownFinding } from '../memory/review-memory.js';

const isOpen = (k: KnownFinding) => k.state === 'open' || k.state === 'reopened';

/**
 * People's answers on our threads: a thread closed as won't-fix or by-design makes its finding
 * `dismissed`, so it is never raised again on this pull request.
 */
export function applyThreadClosures(
  known: readonly KnownFinding[],
  threads: readonly ReviewThread[],
): { known: KnownFinding[]; dismissed: KnownFinding[] } {
  const byId = new Map(threads.map((t) => [t.threadId, t]));
  const byMarker = new Map(threads.filter((t) => t.marker).map((t) => [t.marker as string, t]));
  const dismissed: KnownFinding[] = [];
  const updated = known.map((k) => {
    if (!isOpen(k)) return k;
    const thread = (k.providerThreadId && byId.get(k.providerThreadId)) || (k.marker && byMarker.get(k.marker));
    if (thread && (thread.closedAs === 'wontFix' || thread.closedAs === 'byDesign')) {
      const next = { ...k, state: 'dismissed' as const };
      dismissed.push(next);
      return next;
    }
    return k;
  });
  return { known: updated, dismissed };
}

/** The open findings of one file whose anchored line the file's current diff no longer shows. */
export function anchorsGone(known: readonly KnownFinding[], diff: ParsedDiff): string[] {
  const shown = new Set<string>();
  const removed = new Set<string>();
  for (const hunk of diff.hunks) {
    for (const line of hunk.lines) (line.kind === 'removed' ? removed : shown).add(normaliseCode(line.text));
  }
  return known.filter((k) => !(k.side === 'old' ? removed : shown).has(normaliseCode(k.anchorText))).map((k) => k.id);
}

export interface Settled {
  /** Fixed: the file was fully reviewed, the finding's lines changed, and nothing matches it now. */
  resolved: KnownFinding[];
  /** Its file is no longer part of the pull request. */
  superseded: KnownFinding[];
  /** Neither found again nor shown to be fixed (its file carried forward, partly reviewed, or unchanged). */
  stillOpen: KnownFinding[];
}

/**
 * What became of the open findings this run did not find again. A finding is resolved only when its
 * file was fully reviewed at the new head and its anchored lines changed: if the lines are the same,
 * the model merely did not repeat itself, and the finding stays open.
 */
export function settleKnown(input: {
  known: readonly KnownFinding[];
  matches: ReadonlyMap<EngineFinding, KnownMatch>;
  /** Paths (current and previous, lower-cased) of the files the pull request changes now. */
  changedPaths: ReadonlySet<string>;
  fullyReviewed: (path: string) => boolean;
  gone: ReadonlySet<string>;
}): Settled {
  const matched = new Set([...input.matches.values()].map((m) => m.known.id));
  const settled: Settled = { resolved: [], superseded: [], stillOpen: [] };
  for (const k of input.known) {
    if (!isOpen(k) || matched.has(k.id)) continue;
    const path = k.path.toLowerCase();
    if (!input.changedPaths.has(path)) settled.superseded.push(k);
    else if (input.fullyReviewed(path) && input.gone.has(k.id)) settled.resolved.push(k);
    else settled.stillOpen.push(k);
  }
  return settled;
}
