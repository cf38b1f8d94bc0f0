import { decodeCursor, MarginError, toPage } from '../../kernel/index.js';
import type {
  ProviderConnectionRecord,
  ProviderConnectionsRepository,
  ProviderScopeRecord,
  ProviderScopesRepository,
  ReviewerIdentitiesRepository,
} from '../../scm/index.js';
import { copy, type MemoryState, pageByCreatedAt } from './memory-state.js';

const duplicateConnection = () =>
  MarginError.conflict('This client already has a connection of this provider family to this host.');
const duplicateScope = () => MarginError.conflict('This provider connection already has a scope with this path.');

export function memoryProviderConnections(state: () => MemoryState): ProviderConnectionsRepository {
  const rows = () => state().providerConnections;
  const hostTaken = (c: Pick<ProviderConnectionRecord, 'clientId' | 'providerFamily' | 'hostKey'>, exceptId?: string) =>
    [...rows().values()].some(
      (o) =>
        o.id !== exceptId &&
        o.clientId === c.clientId &&
        o.providerFamily === c.providerFamily &&
        o.hostKey === c.hostKey,
    );
  return {
    async insert(connection) {
      if (rows().has(connection.id) || hostTaken(connection)) throw duplicateConnection();
      rows().set(connection.id, copy(connection));
    },
    async findById(id) {
      const c = rows().get(id);
      return c && copy(c);
    },
    async countForClient(clientId) {
      return [...rows().values()].filter((c) => c.clientId === clientId).length;
    },
    async update(id, patch) {
      const c = rows().get(id);
      if (!c) return undefined;
      const next: ProviderConnectionRecord = { ...c, ...copy(patch) };
      if (next.hostKey !== c.hostKey && hostTaken(next, id)) throw duplicateConnection();
      rows().set(id, next);
      return copy(next);
    },
    async delete(id) {
      if (!rows().delete(id)) return false;
      // As the database's foreign keys do: the connection's scopes and identity go with it.
      for (const [scopeId, scope] of state().providerScopes) {
        if (scope.connectionId === id) state().providerScopes.delete(scopeId);
      }
      state().reviewerIdentities.delete(id);
      return true;
    },
    async listForClient(clientId, page) {
      const mine = [...rows().values()].filter((c) => c.clientId === clientId);
      const items = pageByCreatedAt(mine, decodeCursor(page.cursor), page.limit);
      return toPage(items, page.limit, (c) => ({ key: c.createdAt, id: c.id }));
    },
  };
}

export function memoryProviderScopes(state: () => MemoryState): ProviderScopesRepository {
  const rows = () => state().providerScopes;
  const pathTaken = (s: Pick<ProviderScopeRecord, 'connectionId' | 'scopePathKey'>, exceptId?: string) =>
    [...rows().values()].some(
      (o) => o.id !== exceptId && o.connectionId === s.connectionId && o.scopePathKey === s.scopePathKey,
    );
  return {
    async insert(scope) {
      if (rows().has(scope.id) || pathTaken(scope)) throw duplicateScope();
      rows().set(scope.id, copy(scope));
    },
    async findById(id) {
      const s = rows().get(id);
      return s && copy(s);
    },
    async findWithConnection(scopeId) {
      const scope = rows().get(scopeId);
      const connection = scope && state().providerConnections.get(scope.connectionId);
      return scope && connection ? { scope: copy(scope), connection: copy(connection) } : undefined;
    },
    async update(id, patch) {
      const s = rows().get(id);
      if (!s) return undefined;
      const next: ProviderScopeRecord = { ...s, ...copy(patch) };
      if (next.scopePathKey !== s.scopePathKey && pathTaken(next, id)) throw duplicateScope();
      rows().set(id, next);
      return copy(next);
    },
    async delete(id) {
      return rows().delete(id);
    },
    async listForConnection(connectionId, page) {
      const mine = [...rows().values()].filter((s) => s.connectionId === connectionId);
      const items = pageByCreatedAt(mine, decodeCursor(page.cursor), page.limit);
      return toPage(items, page.limit, (s) => ({ key: s.createdAt, id: s.id }));
    },
    async firstEnabled(connectionId) {
      const [first] = [...rows().values()]
        .filter((s) => s.connectionId === connectionId && s.isEnabled)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      return first && copy(first);
    },
  };
}

export function memoryReviewerIdentities(state: () => MemoryState): ReviewerIdentitiesRepository {
  const rows = () => state().reviewerIdentities;
  return {
    async put(identity) {
      const existing = rows().get(identity.connectionId);
      const next = { ...copy(identity), createdAt: existing?.createdAt ?? identity.createdAt };
      rows().set(identity.connectionId, next);
      return copy(next);
    },
    async findByConnection(connectionId) {
      const r = rows().get(connectionId);
      return r && copy(r);
    },
  };
}
