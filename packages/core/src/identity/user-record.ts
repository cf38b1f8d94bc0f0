import type { GlobalRole, Page, PageRequest } from '../kernel/index.js';

export interface UserRecord {
  id: string;
  username: string;
  displayName: string;
  /** argon2id PHC string; null for accounts that cannot sign in with a password. */
  passwordHash: string | null;
  /** Optional, unique case-insensitively. SSO compares it only to refuse a takeover, never to link. */
  email: string | null;
  globalRole: GlobalRole;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export type UserPatch = Partial<Omit<UserRecord, 'id' | 'createdAt'>>;

export interface UsersRepository {
  /** Throws a `conflict` MarginError when the username or email is taken (compared case-insensitively). */
  insert(user: UserRecord): Promise<void>;
  findById(id: string): Promise<UserRecord | undefined>;
  /** Case-insensitive. */
  findByUsername(username: string): Promise<UserRecord | undefined>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<UserRecord | undefined>;
  /** The users among `ids` that exist, in no particular order. */
  findManyByIds(ids: readonly string[]): Promise<UserRecord[]>;
  /** Returns the updated record, or undefined when no user has this id. */
  update(id: string, patch: UserPatch): Promise<UserRecord | undefined>;
  /** Oldest first. */
  list(page: PageRequest): Promise<Page<UserRecord>>;
  countActive(globalRole: GlobalRole): Promise<number>;
}
