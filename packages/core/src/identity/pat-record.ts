import type { Page, PageRequest } from '../kernel/index.js';

export interface PersonalAccessTokenRecord {
  id: string;
  userId: string;
  label: string;
  /** SHA-256 hex of the token; the plaintext is shown once and never stored. */
  tokenHash: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface PersonalAccessTokensRepository {
  insert(token: PersonalAccessTokenRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<PersonalAccessTokenRecord | undefined>;
  /** Usable tokens (not revoked, not expired at `now`), newest first, a page at a time. */
  listForUser(userId: string, now: string, page: PageRequest): Promise<Page<PersonalAccessTokenRecord>>;
  /** Revokes the user's token; false when it does not exist, belongs to someone else or is revoked. */
  revoke(userId: string, id: string, at: string): Promise<boolean>;
  touch(id: string, at: string): Promise<void>;
}
