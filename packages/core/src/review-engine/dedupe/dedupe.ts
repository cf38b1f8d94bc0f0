import type { ReviewThread } from '../../scm-provider/index.js';
import { demote, type EngineFinding, isCandidate, SEVERITY_RANK } from '../engine-finding.js';
import { combinedFingerprint, cosine, jaccard, sameFinding, wordsOf } from '../identity/finding-keys.js';
import {
  type DismissedFinding,
  findingMarker,
  type KnownFinding,
  type PublicationEntry,
} from '../memory/review-memory.js';
import type { IdentityVectors } from '../pipeline/embed-findings.js';

export interface PriorState {
  jobId: string;
  threads: readonly ReviewThread[];
  ledger: readonly PublicationEntry[];
  dismissals: readonly DismissedFinding[];
  /** Findings earlier reviews posted on this pull request. */
  known: readonly KnownFinding[];
  /** Embeddings by meaning, when the client has an embedding model. */
  vectors?: IdentityVectors | undefined;
}

/**
 * How a finding of this run relates to one an earlier review posted: `seen` again (nothing new is
 * posted; its last-seen revision moves on), or `reopen` (it was resolved, its code changed, and it
 * is back: a new thread).
 */
export type KnownMatch = { known: KnownFinding; outcome: 'seen' | 'reopen' };

export interface DedupeOutcome {
  /** Findings that stand for the same root cause in several files. */
  created: EngineFinding[];
  matches: Map<EngineFinding, KnownMatch>;
}

const NEARBY_LINES = 3;
const THREAD_TEXT_SIMILARITY = 0.4;
const THREAD_MEANING_SIMILARITY = 0.85;
const DISMISSAL_TEXT_SIMILARITY = 0.5;
const DISMISSAL_MEANING_SIMILARITY = 0.85;
const CONSOLIDATE_FILES = 3;
const CONSOLIDATE_TITLE_SIMILARITY = 0.6;

/**
 * Suppresses what would repeat something: the same finding twice in this run; a finding an earlier
 * review posted on this pull request (matched by content, so rewording and moved code do not make it
 * new; by its hidden marker when no finding store is kept); a point a thread — ours or a person's —
 * already makes next to the same lines; a finding the client dismissed, or that a person closed as
 * won't-fix or by-design. A resolved finding whose code changed and that is found again is reopened.
 * The same root cause in three or more files becomes one pull-request-level finding listing the
 * places. Suppressed findings are kept with their reason.
 */
export function dedupeFindings(
  findings: EngineFinding[],
  prior: PriorState,
  newId: () => string,
  decided: (finding: EngineFinding, detail: Record<string, unknown>) => void,
): DedupeOutcome {
  const matches = new Map<EngineFinding, KnownMatch>();
  const candidates = findings.filter(isCandidate).sort(byRank);

  // The same finding twice in this run (overlapping chunks, a model repeating itself).
  const kept: EngineFinding[] = [];
  for (const f of candidates) {
    const twin = kept.find((k) =>
      sameFinding(
        comparable(k),
        comparable(f),
        prior.vectors && cosine(prior.vectors.findings.get(k), prior.vectors.findings.get(f)),
      ),
    );
    if (twin && demote(f, 'suppressed', 'duplicateInRun')) decided(f, { sameAs: twin.id });
    else kept.push(f);
  }

  const created = consolidate(kept, newId, decided);

  const postedBefore = new Map<string, PublicationEntry>();
  for (const entry of prior.ledger) {
    if (entry.kind === 'finding' && entry.jobId !== prior.jobId && entry.state !== 'failed')
      postedBefore.set(entry.marker, entry);
  }
  const dismissalOf = (f: EngineFinding) =>
    prior.dismissals.find((d) =>
      dismisses(d, f, prior.vectors && cosine(prior.vectors.dismissals.get(d.id), prior.vectors.findings.get(f))),
    );
  const ledgerMarkers = new Set(prior.ledger.filter((e) => e.jobId === prior.jobId).map((e) => e.marker));
  for (const f of [...kept, ...created]) {
    if (!isCandidate(f) || !f.keys) continue;
    const known = prior.known.find((k) =>
      matchesKnown(k, f, prior.vectors && cosine(prior.vectors.known.get(k.id), prior.vectors.findings.get(f))),
    );
    if (known) {
      // A resolved finding comes back only when the very code it pointed at is back (the bug was
      // reintroduced); found near its fixed code instead, it is the model repeating itself.
      const reopening = (known.state === 'resolved' || known.state === 'superseded') && known.locKey === f.keys.locKey;
      if (!reopening) {
        f.providerThreadId = known.providerThreadId ?? undefined;
        matches.set(f, { known, outcome: 'seen' });
        // Dismissed by the client after it was posted: say so, rather than "already reported".
        const dismissal = known.state === 'dismissed' ? undefined : dismissalOf(f);
        const reason =
          known.state === 'dismissed' || dismissal
            ? 'dismissed'
            : known.state === 'open' || known.state === 'reopened'
              ? 'alreadyReported'
              : 'resolvedBefore';
        if (demote(f, 'suppressed', reason)) {
          decided(f, { knownFindingId: known.id, knownState: known.state, dismissalId: dismissal?.id });
        }
        continue;
      }
      matches.set(f, { known, outcome: 'reopen' });
      decided(f, { knownFindingId: known.id, knownState: known.state, reopened: true });
    }
    const marker = findingMarker(f.keys.fingerprint);
    const earlier = postedBefore.get(marker);
    const onProvider = prior.threads.find((t) => t.marker === marker);
    if (!known && (earlier || (onProvider && !ledgerMarkers.has(marker)))) {
      f.providerThreadId = earlier?.providerThreadId ?? onProvider?.threadId;
      if (demote(f, 'suppressed', 'alreadyReported')) decided(f, { marker });
      continue;
    }
    // This job's own post, found again by a retry: publishing reconciles it.
    if (onProvider && !known) continue;
    const echoed = f.anchor
      ? prior.threads.find((t) =>
          echoes(t, f, prior.vectors && cosine(prior.vectors.threads.get(t.threadId), prior.vectors.findings.get(f))),
        )
      : undefined;
    if (echoed) {
      const rejected = echoed.closedAs === 'wontFix' || echoed.closedAs === 'byDesign';
      if (demote(f, 'suppressed', rejected ? 'dismissed' : 'existingThread')) {
        decided(f, { threadId: echoed.threadId, closedAs: echoed.closedAs ?? null });
      }
      continue;
    }
    const dismissal = dismissalOf(f);
    if (dismissal && demote(f, 'suppressed', 'dismissed')) decided(f, { dismissalId: dismissal.id });
  }
  return { created, matches };
}

/** The same finding as one posted before? Compared in the file where it was first seen (renames kept). */
function matchesKnown(known: KnownFinding, f: EngineFinding, similarity: number | undefined): boolean {
  const path = f.anchor?.path ?? f.path ?? '';
  const samePlace =
    path.toLowerCase() === known.path.toLowerCase() ||
    f.anchor?.previousPath?.toLowerCase() === known.path.toLowerCase();
  if (!samePlace || !f.keys) return false;
  return sameFinding(
    { path: known.path, line: f.anchor?.startLine ?? null, category: f.category, keys: f.keys },
    {
      path: known.path,
      line: known.startLine,
      category: known.category,
      keys: {
        locKey: known.locKey,
        fingerprint: known.fingerprint,
        identifiers: known.identifiers,
        words: known.words,
      },
    },
    similarity,
  );
}

function byRank(a: EngineFinding, b: EngineFinding): number {
  return (
    (a.publication === 'published' ? 0 : 1) - (b.publication === 'published' ? 0 : 1) ||
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    (b.verdict?.score ?? 0) - (a.verdict?.score ?? 0) ||
    b.confidence - a.confidence ||
    a.id.localeCompare(b.id)
  );
}

function comparable(f: EngineFinding) {
  return {
    path: f.anchor?.path ?? f.path ?? '',
    line: f.anchor?.startLine ?? null,
    category: f.category,
    keys: f.keys ?? { locKey: f.id, fingerprint: f.id, identifiers: [], words: [] },
  };
}

/**
 * A thread on the same file within a few lines that makes a similar point: in enough of the same
 * words, or, with an embedding model, in the same meaning however it is worded.
 */
function echoes(thread: ReviewThread, f: EngineFinding, similarity: number | undefined): boolean {
  // Our own resolved thread does not stand in the way of the same bug coming back.
  if (thread.marker?.startsWith('margin:fp=') && thread.status === 'resolved') return false;
  if (!threadNear(thread, f)) return false;
  const said = threadText(thread);
  return (
    jaccard(wordsOf(said), f.keys?.words ?? wordsOf(`${f.title} ${f.message}`)) >= THREAD_TEXT_SIMILARITY ||
    (similarity ?? 0) >= THREAD_MEANING_SIMILARITY
  );
}

/** Whether a thread sits on the finding's file and side, within a few lines of it. */
export function threadNear(thread: ReviewThread, f: EngineFinding): boolean {
  const anchor = f.anchor;
  if (!anchor || !thread.anchor || thread.anchor.filePath.toLowerCase() !== anchor.path.toLowerCase()) return false;
  if ((thread.anchor.side ?? 'new') !== anchor.side) return false;
  const distance = Math.min(
    Math.abs(thread.anchor.startLine - anchor.startLine),
    Math.abs(thread.anchor.endLine - anchor.startLine),
  );
  return distance <= NEARBY_LINES;
}

/** What a thread says: its comments, oldest first. */
export const threadText = (thread: ReviewThread): string => thread.comments.map((c) => c.body).join(' ');

function dismisses(d: DismissedFinding, f: EngineFinding, similarity: number | undefined): boolean {
  const path = f.anchor?.path ?? f.path;
  if (d.filePath && (!path || d.filePath.replace(/^\/+/, '').toLowerCase() !== path.toLowerCase())) return false;
  return (
    jaccard(wordsOf(d.findingMessage), wordsOf(`${f.title} ${f.message}`)) >= DISMISSAL_TEXT_SIMILARITY ||
    (similarity ?? 0) >= DISMISSAL_MEANING_SIMILARITY
  );
}

/** The same category and a similar title in three or more files: one finding listing the places. */
function consolidate(
  kept: EngineFinding[],
  newId: () => string,
  decided: (finding: EngineFinding, detail: Record<string, unknown>) => void,
): EngineFinding[] {
  const created: EngineFinding[] = [];
  const used = new Set<EngineFinding>();
  for (const seed of kept) {
    if (used.has(seed) || seed.source !== 'model' || !isCandidate(seed)) continue;
    const seedWords = wordsOf(seed.title);
    const group = kept.filter(
      (f) =>
        !used.has(f) &&
        f.source === 'model' &&
        isCandidate(f) &&
        f.category === seed.category &&
        jaccard(wordsOf(f.title), seedWords) >= CONSOLIDATE_TITLE_SIMILARITY,
    );
    const files = new Set(group.map((f) => (f.anchor?.path ?? f.path ?? '').toLowerCase()));
    if (files.size < CONSOLIDATE_FILES) continue;
    const best = group.sort(byRank)[0] as EngineFinding;
    const merged: EngineFinding = {
      ...best,
      id: newId(),
      anchor: undefined,
      path: null,
      // Lines of the new file only: a place on removed code names its file alone.
      places: group.map((f) => ({
        path: f.anchor?.path ?? f.path ?? '',
        line: f.anchor?.side === 'new' ? f.anchor.startLine : null,
      })),
      keys: best.keys && {
        ...best.keys,
        fingerprint: combinedFingerprint(group.map((f) => f.keys?.fingerprint ?? f.id)),
      },
      publication: best.publication,
      reason: undefined,
    };
    for (const f of group) {
      used.add(f);
      if (demote(f, 'suppressed', 'consolidated')) decided(f, { into: merged.id });
    }
    created.push(merged);
  }
  return created;
}
