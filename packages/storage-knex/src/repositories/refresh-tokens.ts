import type { RefreshTokenRecord, RefreshTokensRepository } from '@margin/core/spec';
import { readTime, readTimeOrNull } from '../dialect.js';
import { type Db, type Row, textOrNull } from '../rows.js';

function refreshTokenFromRow(row: Row): RefreshTokenRecord {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    familyId: String(row.family_id),
    tokenHash: String(row.token_hash),
    createdAt: readTime(row.created_at),
    expiresAt: readTime(row.expires_at),
    lastUsedAt: readTime(row.last_used_at),
    replacedById: textOrNull(row.replaced_by_id),
    revokedAt: readTimeOrNull(row.revoked_at),
  };
}

export function knexRefreshTokens(db: Db): RefreshTokensRepository {
  const table = () => db('refresh_tokens');
  return {
    async insert(t) {
      await table().insert({
        id: t.id,
        user_id: t.userId,
        family_id: t.familyId,
        token_hash: t.tokenHash,
        created_at: t.createdAt,
        expires_at: t.expiresAt,
        last_used_at: t.lastUsedAt,
        replaced_by_id: t.replacedById,
        revoked_at: t.revokedAt,
      });
    },
    async findByHash(tokenHash) {
      const row = await table().where({ token_hash: tokenHash }).first();
      return row && refreshTokenFromRow(row);
    },
    async markReplaced(id, replacedById, at) {
      // Conditional: of two concurrent refreshes with the same token, only one wins.
      const n = await table()
        .where({ id })
        .whereNull('replaced_by_id')
        .whereNull('revoked_at')
        .update({ replaced_by_id: replacedById, revoked_at: at, last_used_at: at });
      return n === 1;
    },
    async revokeFamily(familyId, at) {
      await table().where({ family_id: familyId }).whereNull('revoked_at').update({ revoked_at: at });
    },
    async revokeAllForUser(userId, at) {
      await table().where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: at });
    },
  };
}
