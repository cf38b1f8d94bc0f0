import type { Page, PageRequest } from '../kernel/index.js';

/** A finding an administrator dismissed, so later reviews suppress similar ones. */
export interface DismissalRecord {
  id: string;
  clientId: string;
  findingMessage: string;
  filePath: string | null;
  label: string | null;
  createdAt: string;
  createdByUserId: string | null;
}

export interface DismissalsRepository {
  insert(dismissal: DismissalRecord): Promise<void>;
  /** Newest first, all of them: reviews read the whole list for suppression. */
  list(clientId: string): Promise<DismissalRecord[]>;
  /** Newest first (by `createdAt`, then id), a page at a time: what the API lists. */
  listPage(clientId: string, page: PageRequest): Promise<Page<DismissalRecord>>;
  remove(clientId: string, id: string): Promise<boolean>;
}
