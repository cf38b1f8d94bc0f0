import type {
  PersonalAccessTokensRepository,
  RefreshTokensRepository,
  SignInFailuresRepository,
} from '../../identity/index.js';
import type { PageRequest } from '../../kernel/index.js';
import type { MembershipsRepository } from '../../tenancy/index.js';
import { copy, keysetPage, type MemoryState } from './memory-state.js';

export function memoryRefreshTokens(state: () => MemoryState): RefreshTokensRepository {
  const rows = () => state().refreshTokens;
  return {
    async insert(token) {
      rows().set(token.id, copy(token));
    },
    async findByHash(tokenHash) {
      for (const t of rows().values()) if (t.tokenHash === tokenHash) return copy(t);
      return undefined;
    },
    async markReplaced(id, replacedById, at) {
      const t = rows().get(id);
      if (!t || t.replacedById || t.revokedAt) return false;
      rows().set(id, { ...t, replacedById, revokedAt: at, lastUsedAt: at });
      return true;
    },
    async revokeFamily(familyId, at) {
      for (const [id, t] of rows())
        if (t.familyId === familyId && !t.revokedAt) rows().set(id, { ...t, revokedAt: at });
    },
    async revokeAllForUser(userId, at) {
      for (const [id, t] of rows()) if (t.userId === userId && !t.revokedAt) rows().set(id, { ...t, revokedAt: at });
    },
  };
}

export function memoryPersonalAccessTokens(state: () => MemoryState): PersonalAccessTokensRepository {
  const rows = () => state().personalAccessTokens;
  return {
    async insert(token) {
      rows().set(token.id, copy(token));
    },
    async findByHash(tokenHash) {
      for (const t of rows().values()) if (t.tokenHash === tokenHash) return copy(t);
      return undefined;
    },
    async listForUser(userId, now, page) {
      const usable = [...rows().values()].filter(
        (t) => t.userId === userId && !t.revokedAt && (!t.expiresAt || t.expiresAt > now),
      );
      return keysetPage(usable, (t) => ({ key: t.createdAt, id: t.id }), 'desc', page);
    },
    async revoke(userId, id, at) {
      const t = rows().get(id);
      if (!t || t.userId !== userId || t.revokedAt) return false;
      rows().set(id, { ...t, revokedAt: at });
      return true;
    },
    async touch(id, at) {
      const t = rows().get(id);
      if (t) rows().set(id, { ...t, lastUsedAt: at });
    },
  };
}

export function memorySignInFailures(state: () => MemoryState): SignInFailuresRepository {
  const rows = () => state().signInFailures;
  const key = (usernameKey: string, source: string) => `${usernameKey}\u0000${source}`;
  return {
    async find(usernameKey, sources) {
      return sources.flatMap((source) => {
        const r = rows().get(key(usernameKey, source));
        return r ? [copy(r)] : [];
      });
    },
    async put(record) {
      rows().set(key(record.usernameKey, record.source), copy(record));
    },
    async clear(usernameKey, source) {
      for (const [k, r] of rows()) {
        if (r.usernameKey === usernameKey && (source === undefined || r.source === source)) rows().delete(k);
      }
    },
    async deleteStale(before, limit) {
      const stale = [...rows()].filter(([, r]) => r.lastFailureAt < before).slice(0, limit);
      for (const [k] of stale) rows().delete(k);
      return stale.length;
    },
  };
}

/** Client and tenant members are kept alike: keyed by owner and user, listed oldest first. */
function memberTable<T extends { userId: string; createdAt: string }>(
  rows: () => Map<string, T>,
  ownerOf: (m: T) => string,
) {
  return {
    put(member: T) {
      const key = `${ownerOf(member)}/${member.userId}`;
      const existing = rows().get(key);
      rows().set(key, { ...copy(member), createdAt: existing?.createdAt ?? member.createdAt });
    },
    remove: (ownerId: string, userId: string) => rows().delete(`${ownerId}/${userId}`),
    list: (ownerId: string, page: PageRequest) =>
      keysetPage(
        [...rows().values()].filter((m) => ownerOf(m) === ownerId),
        (m) => ({ key: m.createdAt, id: m.userId }),
        'asc',
        page,
      ),
    find: (ownerId: string, userId: string) => {
      const m = rows().get(`${ownerId}/${userId}`);
      return m && copy(m);
    },
    ofUser: (userId: string) => [...rows().values()].filter((m) => m.userId === userId).map(copy),
  };
}

export function memoryMemberships(state: () => MemoryState): MembershipsRepository {
  const clients = memberTable(
    () => state().clientMembers,
    (m) => m.clientId,
  );
  const tenants = memberTable(
    () => state().tenantMembers,
    (m) => m.tenantId,
  );
  return {
    putClientMember: async (member) => clients.put(member),
    removeClientMember: async (clientId, userId) => clients.remove(clientId, userId),
    listClientMembers: async (clientId, page) => clients.list(clientId, page),
    findClientMember: async (clientId, userId) => clients.find(clientId, userId),
    putTenantMember: async (member) => tenants.put(member),
    removeTenantMember: async (tenantId, userId) => tenants.remove(tenantId, userId),
    listTenantMembers: async (tenantId, page) => tenants.list(tenantId, page),
    findTenantMember: async (tenantId, userId) => tenants.find(tenantId, userId),
    forUser: async (userId) => ({ clients: clients.ofUser(userId), tenants: tenants.ofUser(userId) }),
  };
}
