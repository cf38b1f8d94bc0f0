import type { PersonalAccessTokenRecord, PersonalAccessTokensRepository } from '@margin/core/spec';
import { readTime, readTimeOrNull } from '../dialect.js';
import { byCreatedAt, keysetPage } from '../paging.js';
import type { Db, Row } from '../rows.js';

function patFromRow(row: Row): PersonalAccessTokenRecord {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    label: String(row.label),
    tokenHash: String(row.token_hash),
    createdAt: readTime(row.created_at),
    expiresAt: readTimeOrNull(row.expires_at),
    lastUsedAt: readTimeOrNull(row.last_used_at),
    revokedAt: readTimeOrNull(row.revoked_at),
  };
}

export function knexPersonalAccessTokens(db: Db): PersonalAccessTokensRepository {
  const table = () => db('personal_access_tokens');
  return {
    async insert(t) {
      await table().insert({
        id: t.id,
        user_id: t.userId,
        label: t.label,
        token_hash: t.tokenHash,
        created_at: t.createdAt,
        expires_at: t.expiresAt,
        last_used_at: t.lastUsedAt,
        revoked_at: t.revokedAt,
      });
    },
    async findByHash(tokenHash) {
      const row = await table().where({ token_hash: tokenHash }).first();
      return row && patFromRow(row);
    },
    async listForUser(userId, now, page) {
      const usable = table()
        .where({ user_id: userId })
        .whereNull('revoked_at')
        .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now));
      return keysetPage(usable, byCreatedAt('desc'), page, patFromRow);
    },
    async revoke(userId, id, at) {
      const n = await table().where({ id, user_id: userId }).whereNull('revoked_at').update({ revoked_at: at });
      return n === 1;
    },
    async touch(id, at) {
      await table().where({ id }).update({ last_used_at: at });
    },
  };
}
