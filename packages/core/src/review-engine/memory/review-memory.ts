import type { KnowledgeCitation } from '../review-engine-v1.js';
import type { ThreadMemory } from './thread-memory.js';

/**
 * What a review remembers of a pull request between runs and across crashes — the engine's port for
 * it. The service keeps it in the database (`core/reviewing`); `reviewPullRequest` without a
 * database keeps it in memory and reads the provider's markers.
 */

export type PublicationKind = 'finding' | 'summary' | 'resolution';
export type PublicationState = 'pending' | 'posted' | 'failed';

/**
 * One entry of the publication outbox: written `pending` before a post and `posted` after it, so a
 * crash between the provider storing a comment and Margin recording it is found again by the
 * hidden marker instead of being posted twice.
 */
export interface PublicationEntry {
  marker: string;
  kind: PublicationKind;
  fingerprint: string | null;
  /** The job that reserved it: a retry of the same job finds its own posts. */
  jobId: string;
  state: PublicationState;
  providerThreadId: string | null;
  providerCommentId: string | null;
  error: string | null;
}

export interface PublicationLedger {
  /** Every entry of this pull request. */
  list(): Promise<PublicationEntry[]>;
  /** Records the intent to post, as `pending`; entries that already exist are left as they are. */
  reserve(entries: Array<Pick<PublicationEntry, 'marker' | 'kind' | 'fingerprint'>>): Promise<void>;
  markPosted(marker: string, ids: { threadId: string; commentId: string | null }): Promise<void>;
  markFailed(marker: string, error: string): Promise<void>;
}

export interface DismissedFinding {
  id: string;
  findingMessage: string;
  filePath: string | null;
}

export type KnownFindingState = 'open' | 'resolved' | 'dismissed' | 'superseded' | 'reopened';

/** A finding posted on this pull request by an earlier review, as the engine matches against it. */
export interface KnownFinding {
  id: string;
  fingerprint: string;
  locKey: string;
  /** The file's path at the first sighting. */
  path: string;
  anchorText: string;
  enclosingSymbol: string;
  identifiers: string[];
  words: string[];
  category: string;
  severity: string;
  title: string;
  message: string;
  startLine: number | null;
  endLine: number | null;
  side: 'new' | 'old';
  state: KnownFindingState;
  firstSeenRevision: string;
  lastSeenRevision: string;
  resolvedAtRevision: string | null;
  providerThreadId: string | null;
  marker: string | null;
  reopenCount: number;
  /** The code-knowledge passages its last sighting relied on; absent or empty when none. */
  citations?: KnowledgeCitation[] | undefined;
}

/** The pull request's findings across pushes. */
export interface FindingStore {
  list(): Promise<KnownFinding[]>;
  save(changes: { inserted: KnownFinding[]; updated: KnownFinding[] }): Promise<void>;
}

/** What the last completed review of the pull request saw: its head, and each file's content key. */
export interface ReviewBaseline {
  headSha: string;
  /** Only files that review fully reviewed (or carried forward from one that did). */
  files: ReadonlyMap<string, string>;
}

export interface ReviewMemory {
  /** What people decided on Margin's threads across the repository; without it nothing is learned or retrieved. */
  threadMemory?: ThreadMemory | undefined;
  /** Findings the client said not to report again. */
  dismissals(): Promise<DismissedFinding[]>;
  publications: PublicationLedger;
  /** Findings across pushes; without it every review stands alone (markers still prevent reposts). */
  findings?: FindingStore | undefined;
  /** The last completed review, for carrying unchanged files forward; without it, everything is reviewed. */
  lastReview?: (() => Promise<ReviewBaseline | undefined>) | undefined;
}

/**
 * A ledger held in memory, for reviews without a database; the provider's markers fill in the past.
 * Jobs that share `entries` share the pull request's outbox.
 */
export function createMemoryLedger(jobId: string, entries = new Map<string, PublicationEntry>()): PublicationLedger {
  return {
    async list() {
      return [...entries.values()].map((e) => ({ ...e }));
    },
    async reserve(wanted) {
      for (const w of wanted) {
        if (!entries.has(w.marker)) {
          entries.set(w.marker, {
            ...w,
            jobId,
            state: 'pending',
            providerThreadId: null,
            providerCommentId: null,
            error: null,
          });
        }
      }
    },
    async markPosted(marker, ids) {
      const e = entries.get(marker);
      if (e)
        Object.assign(e, {
          state: 'posted',
          providerThreadId: ids.threadId,
          providerCommentId: ids.commentId,
          error: null,
        });
    },
    async markFailed(marker, error) {
      const e = entries.get(marker);
      if (e) Object.assign(e, { state: 'failed', error });
    },
  };
}

/** The marker of a finding's thread (`:r<n>` for its n-th reopening) and of the summary comment. */
export const findingMarker = (fingerprint: string, reopenCount = 0) =>
  reopenCount > 0 ? `margin:fp=${fingerprint}:r${reopenCount}` : `margin:fp=${fingerprint}`;
export const SUMMARY_MARKER = 'margin:summary';
/** The outbox entry of the note on a resolved finding's thread. */
export const resolutionMarker = (knownFindingId: string) => `margin:resolved=${knownFindingId}`;

/** A finding store held in memory (reviews without a database; tests). */
export function createMemoryFindingStore(
  initial: KnownFinding[] = [],
): FindingStore & { all: Map<string, KnownFinding> } {
  const all = new Map(initial.map((f) => [f.id, { ...f }]));
  return {
    all,
    async list() {
      return [...all.values()].map((f) => ({ ...f, identifiers: [...f.identifiers], words: [...f.words] }));
    },
    async save(changes) {
      for (const f of [...changes.inserted, ...changes.updated]) all.set(f.id, { ...f });
    },
  };
}
