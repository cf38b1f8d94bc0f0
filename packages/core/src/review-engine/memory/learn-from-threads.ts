import type { ReviewThread, ThreadComment } from '../../scm-provider/index.js';
import { normaliseCode } from '../identity/finding-keys.js';
import type { KnownFinding, PublicationEntry } from './review-memory.js';
import { resolutionMarker } from './review-memory.js';
import type { LearnedDecision, PastDecision } from './thread-memory.js';

const FINDING_MARKER = /^margin:fp=([A-Za-z0-9]+)(?::r\d+)?$/;
const SUMMARY_CHARS = 1_000;

/** One of Margin's finding threads with what a review knows of it. */
export interface OurThread {
  thread: ReviewThread;
  known: KnownFinding | undefined;
  fingerprint: string;
  filePath: string | null;
  summary: string;
  /** Replies by someone other than the thread's author (Margin), oldest first. */
  replies: ThreadComment[];
  /** The record kept for this thread, if any. */
  remembered: PastDecision | undefined;
}

/** Margin's finding threads (by their hidden marker), each with its finding and its record. */
export function ourThreads(
  threads: readonly ReviewThread[],
  known: readonly KnownFinding[],
  remembered: readonly PastDecision[],
): OurThread[] {
  const out: OurThread[] = [];
  for (const thread of threads) {
    const fp = thread.marker && FINDING_MARKER.exec(thread.marker)?.[1];
    if (!fp) continue;
    const k =
      known.find((x) => x.providerThreadId === thread.threadId) ?? known.find((x) => x.marker === thread.marker);
    const first = thread.comments[0];
    out.push({
      thread,
      known: k,
      fingerprint: k?.fingerprint ?? fp,
      filePath: k?.path ?? thread.anchor?.filePath ?? null,
      summary: (k ? `${k.title}\n${k.message}` : (first?.body ?? '')).slice(0, SUMMARY_CHARS),
      replies: first ? thread.comments.slice(1).filter((c) => !sameAuthor(c, first)) : [],
      remembered: remembered.find((d) => d.threadOnThisPullRequest === thread.threadId),
    });
  }
  return out;
}

function sameAuthor(a: ThreadComment, b: ThreadComment): boolean {
  if (a.author.externalUserId && b.author.externalUserId) return a.author.externalUserId === b.author.externalUserId;
  return a.author.login.toLowerCase() === b.author.login.toLowerCase();
}

/** Margin resolved this thread itself because the code changed: that is not a person's decision. */
export function resolvedByMargin(t: OurThread, ledger: readonly PublicationEntry[]): boolean {
  if (!t.known) return false;
  if (t.known.state === 'resolved') return true;
  const marker = resolutionMarker(t.known.id);
  return ledger.some((e) => e.kind === 'resolution' && e.marker === marker && e.state !== 'failed');
}

/**
 * Whether the code the thread pointed at changed since it was written: the provider says it is
 * outdated, or the finding's anchored line is no longer in the file at the head.
 */
export function anchoredCodeChanged(t: OurThread, headText: string | undefined): boolean {
  if (t.thread.isOutdated) return true;
  const anchor = t.known?.anchorText;
  if (!anchor || headText === undefined) return false;
  const wanted = normaliseCode(anchor);
  return !headText.split('\n').some((line) => normaliseCode(line) === wanted);
}

/** What a closed thread says, before the anchored code is looked at: a rejection, or a resolution. */
export function closureOf(t: OurThread): 'rejected' | 'resolved' | undefined {
  if (t.thread.closedAs === 'wontFix' || t.thread.closedAs === 'byDesign') return 'rejected';
  return t.thread.status === 'resolved' ? 'resolved' : undefined;
}

/** The decision to keep for a thread, from its parts. */
export function decisionOf(
  t: OurThread,
  outcome:
    | { kind: 'rejected' }
    | { kind: 'resolved'; codeChanged: boolean }
    | { kind: 'replyRejected'; by: ThreadComment },
): Omit<LearnedDecision, 'embedding'> {
  const base = {
    providerThreadId: t.thread.threadId,
    filePath: t.filePath,
    summary: t.summary,
    findingFingerprint: t.fingerprint,
  };
  switch (outcome.kind) {
    case 'rejected':
      return { ...base, source: 'threadResolved', intent: 'rejected', createdBy: null };
    case 'resolved':
      return {
        ...base,
        source: 'threadResolved',
        intent: outcome.codeChanged ? 'claimsFix' : 'acceptedByHuman',
        createdBy: null,
      };
    case 'replyRejected':
      return { ...base, source: 'replyRejected', intent: 'rejected', createdBy: outcome.by.author.login };
  }
}
