import type { Page, PageRequest } from '../kernel/index.js';

/** A pull request no review job may be created for until it is unblocked. */
export interface BlockedPullRequestRecord {
  id: string;
  clientId: string;
  providerScopePath: string;
  providerProjectKey: string;
  repositoryId: string;
  pullRequestId: number;
  reason: string;
  blockedByUserId: string | null;
  blockedAt: string;
}

/**
 * Repository ids are the provider's own (GUID, numeric id, project id, UUID), so a block is matched
 * by client, repository id and pull request number whatever coordinates a submission arrives with.
 */
/**
 * A pull request is named by client, repository id and number; repository ids that differ only in
 * case name the same repository, as they do in job keys.
 */
export interface BlockedPullRequestsRepository {
  /** Inserts the block, or returns the one already there (whatever the case of its repository id). */
  put(block: BlockedPullRequestRecord): Promise<BlockedPullRequestRecord>;
  find(clientId: string, repositoryId: string, pullRequestId: number): Promise<BlockedPullRequestRecord | undefined>;
  remove(clientId: string, repositoryId: string, pullRequestId: number): Promise<boolean>;
  /** Newest first (by `blockedAt`, then id), a page at a time. */
  list(clientId: string, page: PageRequest): Promise<Page<BlockedPullRequestRecord>>;
}
