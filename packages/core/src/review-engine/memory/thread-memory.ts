/**
 * What people decided about Margin's findings, remembered across pull requests of a repository —
 * the engine's port for it. The service keeps the records in the database (`core/reviewing`); a
 * review without one keeps none (the port is optional).
 */

export const MEMORY_SOURCES = ['threadResolved', 'replyRejected', 'adminDismissed'] as const;
export type MemorySource = (typeof MEMORY_SOURCES)[number];

export const MEMORY_INTENTS = ['acceptedByHuman', 'claimsFix', 'rejected'] as const;
/**
 * - `acceptedByHuman`: a person resolved the thread without changing the code it pointed at;
 * - `claimsFix`: a person resolved it after the anchored code changed (a fix, not a verdict on the finding);
 * - `rejected`: won't fix, by design, a reply saying the finding is wrong, or an administrator's dismissal.
 */
export type MemoryIntent = (typeof MEMORY_INTENTS)[number];

/** A remembered decision, as a review retrieves it. */
export interface PastDecision {
  id: string;
  source: MemorySource;
  intent: MemoryIntent;
  filePath: string | null;
  /** The finding as it was posted: its title, then its message. */
  summary: string;
  findingFingerprint: string | null;
  /** Set only for a record of a thread on the pull request under review. */
  threadOnThisPullRequest: string | null;
  embedding: number[] | null;
  /**
   * A client administrator deleted it: it holds nothing back and is not shown, but the closure it
   * came from is not learned again (reopening the thread forgets it for good).
   */
  forgotten: boolean;
}

/** A decision read from a thread of the pull request under review. */
export interface LearnedDecision {
  providerThreadId: string;
  source: Exclude<MemorySource, 'adminDismissed'>;
  intent: MemoryIntent;
  filePath: string | null;
  summary: string;
  findingFingerprint: string | null;
  /** The login of the person whose reply rejected it; unknown for a resolution. */
  createdBy: string | null;
  embedding: number[] | null;
}

export interface ThreadMemory {
  /** The repository's decisions and the client-wide ones, newest first, forgotten ones included. */
  list(): Promise<PastDecision[]>;
  /** Keeps the decision of a thread of this pull request, replacing an earlier one of the same thread. */
  remember(decision: LearnedDecision): Promise<PastDecision>;
  /** Forgets a thread of this pull request (it was reopened); whether there was a record. */
  forget(providerThreadId: string): Promise<boolean>;
}

/** Decisions that hold a finding back: a person said it is wrong, or resolved it without a change. */
export const holdsBack = (d: Pick<PastDecision, 'intent'>) => d.intent === 'rejected' || d.intent === 'acceptedByHuman';
