/**
 * What a review remembers of a pull request between runs and across crashes — the engine's port for
 * it. The service keeps it in the database (`core/reviewing`); `reviewPullRequest` without a
 * database keeps it in memory and reads the provider's markers.
 */

export type PublicationKind = 'finding' | 'summary';
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

export interface ReviewMemory {
  /** Findings the client said not to report again. */
  dismissals(): Promise<DismissedFinding[]>;
  publications: PublicationLedger;
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

/** The marker of a finding's thread and of the summary comment. */
export const findingMarker = (fingerprint: string) => `margin:fp=${fingerprint}`;
export const SUMMARY_MARKER = 'margin:summary';
