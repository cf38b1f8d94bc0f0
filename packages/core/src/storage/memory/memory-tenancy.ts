import { decodeCursor, MarginError, toPage } from '../../kernel/index.js';
import type { ClientRecord, ClientsRepository, TenantsRepository } from '../../tenancy/index.js';
import { copy, type MemoryState, pageByCreatedAt } from './memory-state.js';

const duplicateSlug = () => MarginError.conflict('A tenant with this slug already exists.');

export function memoryTenants(state: () => MemoryState): TenantsRepository {
  const rows = () => state().tenants;
  const bySlug = (slug: string) => [...rows().values()].find((t) => t.slug === slug);
  return {
    async insert(tenant) {
      if (rows().has(tenant.id)) throw MarginError.conflict('A tenant with this id already exists.');
      if (bySlug(tenant.slug)) throw duplicateSlug();
      rows().set(tenant.id, copy(tenant));
    },
    async findById(id) {
      const t = rows().get(id);
      return t && copy(t);
    },
    async findBySlug(slug) {
      const t = bySlug(slug);
      return t && copy(t);
    },
    async update(id, patch) {
      const t = rows().get(id);
      if (!t) return undefined;
      const next = { ...t, ...copy(patch) };
      rows().set(id, next);
      return copy(next);
    },
    async list() {
      return [...rows().values()]
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .map(copy);
    },
  };
}

const duplicateName = () => MarginError.conflict('This tenant already has a client with that name.');

export function memoryClients(state: () => MemoryState): ClientsRepository {
  const rows = () => state().clients;
  const nameTaken = (tenantId: string, name: string, exceptId?: string) => {
    const wanted = name.toLowerCase();
    for (const c of rows().values()) {
      if (c.tenantId === tenantId && c.displayName.toLowerCase() === wanted && c.id !== exceptId) return true;
    }
    return false;
  };
  return {
    async insert(client) {
      if (rows().has(client.id) || nameTaken(client.tenantId, client.displayName)) throw duplicateName();
      rows().set(client.id, copy(client));
    },
    async findById(id) {
      const c = rows().get(id);
      return c && copy(c);
    },
    async findAccess(clientId, userId) {
      const client = rows().get(clientId);
      if (!client) return undefined;
      return {
        client: copy(client),
        tenantIsActive: state().tenants.get(client.tenantId)?.isActive === true,
        clientRole: state().clientMembers.get(`${clientId}/${userId}`)?.role,
        tenantRole: state().tenantMembers.get(`${client.tenantId}/${userId}`)?.role,
      };
    },
    async update(id, patch) {
      const c = rows().get(id);
      if (!c) return undefined;
      if (patch.displayName !== undefined && nameTaken(c.tenantId, patch.displayName, id)) throw duplicateName();
      const next: ClientRecord = { ...c, ...copy(patch) };
      rows().set(id, next);
      return copy(next);
    },
    async list(filter, page) {
      const visible = [...rows().values()].filter(
        (c) =>
          (!filter.withinTenants || filter.withinTenants.includes(c.tenantId)) &&
          (!filter.visibility ||
            filter.visibility.clientIds.includes(c.id) ||
            filter.visibility.tenantIds.includes(c.tenantId)),
      );
      const rowsPage = pageByCreatedAt(visible, decodeCursor(page.cursor), page.limit);
      return toPage(rowsPage, page.limit, (c) => ({ key: c.createdAt, id: c.id }));
    },
  };
}
