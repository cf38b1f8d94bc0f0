import type { Page, PageRequest } from '../storage/paging.js';

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
export interface StoredFindingRecord {
  id: string;
  clientId: string;
  pullRequestKey: string;
  repositoryId: string;
  pullRequestNumber: number;
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
  state: FindingState;
  firstSeenRevision: string;
  lastSeenRevision: string;
  resolvedAtRevision: string | null;
  firstJobId: string;
  lastJobId: string;
  providerThreadId: string | null;
  /** The hidden marker of its current thread. */
  marker: string | null;
  reopenCount: number;
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
