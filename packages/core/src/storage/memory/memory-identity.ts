import type { MembershipsRepository } from '../../identity/membership-record.js';
import type { PersonalAccessTokensRepository } from '../../identity/pat-record.js';
import type { RefreshTokensRepository } from '../../identity/session-record.js';
import { copy, type MemoryState } from './memory-state.js';

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
    async listForUser(userId) {
      return [...rows().values()]
        .filter((t) => t.userId === userId && !t.revokedAt)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
        .map(copy);
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

export function memoryMemberships(state: () => MemoryState): MembershipsRepository {
  const clientRows = () => state().clientMembers;
  const tenantRows = () => state().tenantMembers;
  const byCreated = <T extends { createdAt: string; userId: string }>(a: T, b: T) =>
    a.createdAt.localeCompare(b.createdAt) || a.userId.localeCompare(b.userId);
  return {
    async putClientMember(member) {
      const key = `${member.clientId}/${member.userId}`;
      const existing = clientRows().get(key);
      clientRows().set(key, { ...copy(member), createdAt: existing?.createdAt ?? member.createdAt });
    },
    async removeClientMember(clientId, userId) {
      return clientRows().delete(`${clientId}/${userId}`);
    },
    async listClientMembers(clientId) {
      return [...clientRows().values()]
        .filter((m) => m.clientId === clientId)
        .sort(byCreated)
        .map(copy);
    },
    async putTenantMember(member) {
      const key = `${member.tenantId}/${member.userId}`;
      const existing = tenantRows().get(key);
      tenantRows().set(key, { ...copy(member), createdAt: existing?.createdAt ?? member.createdAt });
    },
    async removeTenantMember(tenantId, userId) {
      return tenantRows().delete(`${tenantId}/${userId}`);
    },
    async listTenantMembers(tenantId) {
      return [...tenantRows().values()]
        .filter((m) => m.tenantId === tenantId)
        .sort(byCreated)
        .map(copy);
    },
    async forUser(userId) {
      return {
        clients: [...clientRows().values()].filter((m) => m.userId === userId).map(copy),
        tenants: [...tenantRows().values()].filter((m) => m.userId === userId).map(copy),
      };
    },
  };
}
