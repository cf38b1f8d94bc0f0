import type { PublicationEntry } from '../review-engine/index.js';

/** One outbox entry of a pull request (see `PublicationEntry`), as stored. */
export interface PublicationRecord extends PublicationEntry {
  id: string;
  clientId: string;
  /** The job's pull-request key: client, provider, host, repository and number. */
  pullRequestKey: string;
  createdAt: string;
  updatedAt: string;
}

export type PublicationPatch = Partial<
  Pick<PublicationRecord, 'state' | 'providerThreadId' | 'providerCommentId' | 'error' | 'updatedAt'>
>;

export interface ReviewPublicationsRepository {
  /** Every entry of the pull request, oldest first. */
  listForPullRequest(pullRequestKey: string): Promise<PublicationRecord[]>;
  /**
   * Inserts entries whose marker the pull request does not have yet, as given. An existing entry
   * that `failed` is handed to the new job as `pending` (a later run may try it again); any other
   * existing entry is left as it is.
   */
  reserve(records: PublicationRecord[]): Promise<void>;
  update(pullRequestKey: string, marker: string, patch: PublicationPatch): Promise<void>;
}
