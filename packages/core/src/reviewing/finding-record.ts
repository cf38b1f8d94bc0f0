import type { Page, PageRequest } from '../kernel/index.js';
import type { KnownFinding } from '../review-engine/index.js';

export const FINDING_STATES = ['open', 'resolved', 'dismissed', 'superseded', 'reopened'] as const;
/**
 * - `open`: posted, and not fixed yet;
 * - `resolved`: a later review of its file no longer found it after its lines changed (its thread was resolved);
 * - `dismissed`: a person closed its thread as won't-fix or by design;
 * - `superseded`: its file left the pull request;
 * - `reopened`: it came back after being resolved (a new thread).
 */
export type FindingState = (typeof FINDING_STATES)[number];

/**
 * A finding Margin posted on a pull request, remembered across pushes so it is never posted twice,
 * is resolved when it is fixed, and comes back as `reopened` if the bug does. Identity is by content
 * (see the engine's `finding-keys.ts`), never by line number.
 */
export interface StoredFindingRecord extends KnownFinding {
  clientId: string;
  pullRequestKey: string;
  repositoryId: string;
  pullRequestNumber: number;
  state: FindingState;
  firstJobId: string;
  lastJobId: string;
  createdAt: string;
  updatedAt: string;
}

export interface StoredFindingFilter {
  repositoryId?: string | undefined;
  pullRequestNumber?: number | undefined;
  state?: FindingState | undefined;
}

export interface ReviewFindingsRepository {
  /** Every finding remembered for the pull request, oldest first. */
  listForPullRequest(pullRequestKey: string): Promise<StoredFindingRecord[]>;
  /** Inserts new findings and replaces changed ones, atomically. */
  save(changes: { inserted: StoredFindingRecord[]; updated: StoredFindingRecord[] }): Promise<void>;
  /** A client's findings, most recently changed first. */
  list(clientId: string, filter: StoredFindingFilter, page: PageRequest): Promise<Page<StoredFindingRecord>>;
}
