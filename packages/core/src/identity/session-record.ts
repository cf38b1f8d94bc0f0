/**
 * A refresh token. Tokens of one sign-in form a family: each refresh replaces the presented token
 * with a new one, and presenting a replaced token again revokes the whole family (reuse detection).
 */
export interface RefreshTokenRecord {
  id: string;
  userId: string;
  familyId: string;
  /** SHA-256 hex of the opaque token; the token itself is never stored. */
  tokenHash: string;
  createdAt: string;
  /** Absolute end of the family, fixed at sign-in. */
  expiresAt: string;
  /** For the idle limit. */
  lastUsedAt: string;
  /** Set when a refresh replaced this token. */
  replacedById: string | null;
  revokedAt: string | null;
}

export interface RefreshTokensRepository {
  insert(token: RefreshTokenRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /** Marks `id` replaced by `replacedById` only if it is still live; false when someone else won. */
  markReplaced(id: string, replacedById: string, at: string): Promise<boolean>;
  revokeFamily(familyId: string, at: string): Promise<void>;
  revokeAllForUser(userId: string, at: string): Promise<void>;
}
