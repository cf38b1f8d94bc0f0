import type { Page, PageRequest } from '../kernel/index.js';
import type { MemoryIntent, MemorySource } from '../review-engine/index.js';

// The wire values are the engine's, which retrieves and writes the records through its port.
export { MEMORY_INTENTS, MEMORY_SOURCES, type MemoryIntent, type MemorySource } from '../review-engine/index.js';

/**
 * What a person decided about a finding, kept so later reviews of the repository do not raise it
 * again. One per (client, thread): `threadKey` is the repository, pull request and provider thread
 * (`dismissal:<id>` for an administrator's dismissal).
 */
export interface ThreadMemoryRecord {
  id: string;
  clientId: string;
  threadKey: string;
  source: MemorySource;
  intent: MemoryIntent;
  filePath: string | null;
  summary: string;
  findingFingerprint: string | null;
  providerThreadId: string | null;
  /** `null` for a dismissal: it applies in every repository of the client. */
  repositoryId: string | null;
  pullRequestId: number | null;
  /** `filePath` and `summary` by meaning (`embeddingDefault`), when the purpose resolved at the time. */
  embedding: number[] | null;
  createdAt: string;
  /** The person's login on the provider, or the user id of the administrator who dismissed. */
  createdBy: string | null;
  /**
   * Set when a client administrator deleted the record: it is no longer listed or retrieved, and the
   * same closure is not learned again (reopening the thread clears it; closing it again is new).
   */
  forgottenAt: string | null;
}

export interface ThreadMemoryFilter {
  filePath?: string | undefined;
  source?: MemorySource | undefined;
}

export interface ThreadMemoriesRepository {
  /** Inserts, or replaces the record of the same (client, thread key) keeping its id. Returns the stored record. */
  upsert(record: ThreadMemoryRecord): Promise<ThreadMemoryRecord>;
  /**
   * The records of one repository and the client-wide ones (dismissals), newest first, forgotten
   * ones included: what a review retrieves from and learns against.
   */
  listForRepository(clientId: string, repositoryId: string): Promise<ThreadMemoryRecord[]>;
  /** Newest first (by `createdAt`, then id), a page at a time, without forgotten ones: what the API lists. */
  listPage(clientId: string, filter: ThreadMemoryFilter, page: PageRequest): Promise<Page<ThreadMemoryRecord>>;
  /** A record that is not forgotten. */
  find(clientId: string, id: string): Promise<ThreadMemoryRecord | undefined>;
  /** Marks a record forgotten; whether there was one still remembered. */
  markForgotten(clientId: string, id: string, at: string): Promise<boolean>;
  remove(clientId: string, id: string): Promise<boolean>;
  removeByThreadKey(clientId: string, threadKey: string): Promise<boolean>;
}

/** The one key of a thread's memory, whatever the provider's thread ids look like (ADO numbers them per pull request). */
export const threadMemoryKey = (repositoryId: string, pullRequestId: number, providerThreadId: string) =>
  `${repositoryId}#${pullRequestId}#${providerThreadId}`;
export const dismissalMemoryKey = (dismissalId: string) => `dismissal:${dismissalId}`;
