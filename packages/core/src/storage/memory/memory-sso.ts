import type { IdentityProvidersRepository, UserIdentitiesRepository } from '../../identity/index.js';
import { decodeCursor, MarginError, toPage } from '../../kernel/index.js';
import { copy, type MemoryState, pageByCreatedAt } from './memory-state.js';

export function memoryIdentityProviders(state: () => MemoryState): IdentityProvidersRepository {
  const rows = () => state().identityProviders;
  return {
    async insert(provider) {
      if (rows().has(provider.id)) throw MarginError.conflict('This identity provider exists.');
      rows().set(provider.id, copy(provider));
    },
    async findById(id) {
      const p = rows().get(id);
      return p && copy(p);
    },
    async listForTenant(tenantId, page) {
      const mine = [...rows().values()].filter((p) => p.tenantId === tenantId);
      const rowsPage = pageByCreatedAt(mine, decodeCursor(page.cursor), page.limit);
      return toPage(rowsPage, page.limit, (p) => ({ key: p.createdAt, id: p.id }));
    },
    async update(id, patch) {
      const current = rows().get(id);
      if (!current) return undefined;
      const next = { ...current, ...copy(patch) };
      rows().set(id, next);
      return copy(next);
    },
    async delete(id) {
      return rows().delete(id);
    },
  };
}

export function memoryUserIdentities(state: () => MemoryState): UserIdentitiesRepository {
  const rows = () => state().userIdentities;
  const key = (issuer: string, subject: string) => `${issuer} ${subject}`;
  return {
    async insert(identity) {
      const k = key(identity.issuer, identity.subject);
      if (rows().has(k)) throw MarginError.conflict('This identity is linked to a user already.');
      rows().set(k, copy(identity));
    },
    async find(issuer, subject) {
      const found = rows().get(key(issuer, subject));
      return found && copy(found);
    },
  };
}
