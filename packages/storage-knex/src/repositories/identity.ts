import type {
  ClientMemberRecord,
  MembershipsRepository,
  PersonalAccessTokenRecord,
  PersonalAccessTokensRepository,
  RefreshTokenRecord,
  RefreshTokensRepository,
  SignInFailureRecord,
  SignInFailuresRepository,
  TenantMemberRecord,
} from '@margin/core';
import type { Knex } from 'knex';
import { readTime, readTimeOrNull } from '../dialect.js';
import { keysetPage } from '../paging.js';

type Db = Knex | Knex.Transaction;
type Row = Record<string, unknown>;

function refreshTokenFromRow(row: Row): RefreshTokenRecord {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    familyId: String(row.family_id),
    tokenHash: String(row.token_hash),
    createdAt: readTime(row.created_at),
    expiresAt: readTime(row.expires_at),
    lastUsedAt: readTime(row.last_used_at),
    replacedById: (row.replaced_by_id as string | null) ?? null,
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
      return keysetPage(usable, { key: 'created_at', id: 'id', order: 'desc' }, page, patFromRow, (t) => ({
        key: t.createdAt,
        id: t.id,
      }));
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

const clientMember = (row: Row): ClientMemberRecord => ({
  clientId: String(row.client_id),
  userId: String(row.user_id),
  role: row.role as ClientMemberRecord['role'],
  createdAt: readTime(row.created_at),
});

const tenantMember = (row: Row): TenantMemberRecord => ({
  tenantId: String(row.tenant_id),
  userId: String(row.user_id),
  role: row.role as TenantMemberRecord['role'],
  createdAt: readTime(row.created_at),
});

export function knexMemberships(db: Db): MembershipsRepository {
  const byJoined = { key: 'created_at', id: 'user_id', order: 'asc' } as const;
  const joined = (m: { createdAt: string; userId: string }) => ({ key: m.createdAt, id: m.userId });
  return {
    async putClientMember(m) {
      await db('client_members')
        .insert({ client_id: m.clientId, user_id: m.userId, role: m.role, created_at: m.createdAt })
        .onConflict(['client_id', 'user_id'])
        .merge(['role']);
    },
    async removeClientMember(clientId, userId) {
      return (await db('client_members').where({ client_id: clientId, user_id: userId }).delete()) > 0;
    },
    async listClientMembers(clientId, page) {
      return keysetPage(db('client_members').where({ client_id: clientId }), byJoined, page, clientMember, joined);
    },
    async findClientMember(clientId, userId) {
      const row = await db('client_members').where({ client_id: clientId, user_id: userId }).first();
      return row && clientMember(row);
    },
    async putTenantMember(m) {
      await db('tenant_members')
        .insert({ tenant_id: m.tenantId, user_id: m.userId, role: m.role, created_at: m.createdAt })
        .onConflict(['tenant_id', 'user_id'])
        .merge(['role']);
    },
    async removeTenantMember(tenantId, userId) {
      return (await db('tenant_members').where({ tenant_id: tenantId, user_id: userId }).delete()) > 0;
    },
    async listTenantMembers(tenantId, page) {
      return keysetPage(db('tenant_members').where({ tenant_id: tenantId }), byJoined, page, tenantMember, joined);
    },
    async findTenantMember(tenantId, userId) {
      const row = await db('tenant_members').where({ tenant_id: tenantId, user_id: userId }).first();
      return row && tenantMember(row);
    },
    async forUser(userId) {
      const [clients, tenants] = await Promise.all([
        db('client_members').where({ user_id: userId }),
        db('tenant_members').where({ user_id: userId }),
      ]);
      return { clients: clients.map(clientMember), tenants: tenants.map(tenantMember) };
    },
  };
}

function signInFailureFromRow(row: Row): SignInFailureRecord {
  return {
    usernameKey: String(row.username_key),
    source: String(row.source),
    failures: Number(row.failures),
    lockouts: Number(row.lockouts),
    lockedUntil: readTimeOrNull(row.locked_until),
    lastFailureAt: readTime(row.last_failure_at),
  };
}

export function knexSignInFailures(db: Db): SignInFailuresRepository {
  const table = () => db('sign_in_failures');
  return {
    async find(usernameKey, sources) {
      if (sources.length === 0) return [];
      const rows = await table().where({ username_key: usernameKey }).whereIn('source', sources);
      return rows.map(signInFailureFromRow);
    },
    async put(r) {
      await table()
        .insert({
          username_key: r.usernameKey,
          source: r.source,
          failures: r.failures,
          lockouts: r.lockouts,
          locked_until: r.lockedUntil,
          last_failure_at: r.lastFailureAt,
        })
        .onConflict(['username_key', 'source'])
        .merge();
    },
    async clear(usernameKey, source) {
      const query = table().where({ username_key: usernameKey });
      if (source !== undefined) query.andWhere({ source });
      await query.delete();
    },
    async deleteStale(before, limit) {
      // Through sign_in_failures_last_failure, in a bounded batch.
      const stale = table().select('username_key', 'source').where('last_failure_at', '<', before).limit(limit);
      return table().whereIn(['username_key', 'source'], stale).delete();
    },
  };
}
