import type {
  AiConnectionRecord,
  AiConnectionsRepository,
  AiLogicalModelsRepository,
  AiModelCatalogRepository,
  TenantAiPoliciesRepository,
} from '../../ai/index.js';
import { AI_PURPOSES } from '../../ai-model/index.js';
import { decodeCursor, MarginError, type PageRequest, toPage } from '../../kernel/index.js';
import { copy, type MemoryState, pageByCreatedAt } from './memory-state.js';

const lower = (s: string) => s.toLowerCase();

function assertModelsUnique(c: AiConnectionRecord) {
  const keys = c.configuredModels.map((m) => lower(m.remoteModelId));
  if (new Set(keys).size !== keys.length) {
    throw MarginError.conflict('Two configured models of the connection share a remoteModelId.');
  }
}

export function memoryAiConnections(state: () => MemoryState): AiConnectionsRepository {
  const rows = () => state().aiConnections;
  const nameTaken = (c: AiConnectionRecord) =>
    [...rows().values()].some(
      (o) =>
        o.clientId === c.clientId &&
        o.ownerTenantId === c.ownerTenantId &&
        o.id !== c.id &&
        lower(o.displayName) === lower(c.displayName),
    );
  const duplicateName = (c: AiConnectionRecord) =>
    MarginError.conflict(
      `This ${c.clientId === null ? 'tenant' : 'client'} already has an AI connection with that name.`,
    );
  const pageWhere = (keep: (c: AiConnectionRecord) => boolean, page: PageRequest) => {
    const items = pageByCreatedAt([...rows().values()].filter(keep), decodeCursor(page.cursor), page.limit);
    return toPage(items, page.limit, (c) => ({ key: c.createdAt, id: c.id }));
  };
  return {
    async insert(c) {
      if (rows().has(c.id) || nameTaken(c)) throw duplicateName(c);
      assertModelsUnique(c);
      rows().set(c.id, copy(c));
    },
    async findById(id) {
      const c = rows().get(id);
      return c && copy(c);
    },
    async listByClient(clientId, page) {
      return pageWhere((c) => c.clientId === clientId, page);
    },
    async listByTenant(tenantId, page) {
      return pageWhere((c) => c.ownerTenantId === tenantId, page);
    },
    async update(c) {
      if (!rows().has(c.id)) return;
      if (nameTaken(c)) throw duplicateName(c);
      assertModelsUnique(c);
      rows().set(c.id, copy(c));
    },
    async recordVerification(id, revision, verification, at) {
      const c = rows().get(id);
      if (!c || c.revision !== revision) return false;
      rows().set(id, { ...c, verification: copy(verification), updatedAt: at });
      return true;
    },
    async setActive(id, isActive, at) {
      const c = rows().get(id);
      if (c) rows().set(id, { ...c, isActive, updatedAt: at });
    },
    async delete(id) {
      return rows().delete(id);
    },
    async findActiveBinding(clientId, purpose) {
      const active = [...rows().values()]
        .filter((c) => c.clientId === clientId && c.isActive)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      for (const c of active) {
        const binding = c.purposeBindings.find((b) => b.purpose === purpose && b.isEnabled);
        if (binding) return { connectionId: c.id, binding: copy(binding) };
      }
      return undefined;
    },
  };
}

export function memoryAiLogicalModels(state: () => MemoryState): AiLogicalModelsRepository {
  const rows = () => state().aiLogicalModels;
  const mappings = () => state().aiPurposeMappings;
  const findRow = (ownerKind: string, ownerId: string, name: string) =>
    [...rows().values()].find(
      (m) => m.ownerKind === ownerKind && m.ownerId === ownerId && lower(m.name) === lower(name),
    );
  const byName = <T extends { name: string }>(a: T, b: T) => lower(a.name).localeCompare(lower(b.name));
  const purposeOrder = (p: string) => (AI_PURPOSES as readonly string[]).indexOf(p);
  return {
    async insert(m) {
      if (rows().has(m.id) || findRow(m.ownerKind, m.ownerId, m.name)) {
        throw MarginError.conflict(`A logical model named ${m.name} already exists.`);
      }
      rows().set(m.id, copy(m));
    },
    async find(ownerKind, ownerId, name) {
      const m = findRow(ownerKind, ownerId, name);
      return m && copy(m);
    },
    async list(ownerKind, ownerId) {
      return [...rows().values()]
        .filter((m) => m.ownerKind === ownerKind && m.ownerId === ownerId)
        .sort(byName)
        .map(copy);
    },
    async update(m) {
      if (rows().has(m.id)) rows().set(m.id, copy(m));
    },
    async delete(ownerKind, ownerId, name) {
      const m = findRow(ownerKind, ownerId, name);
      return m ? rows().delete(m.id) : false;
    },
    async listByConnection(connectionId) {
      return [...rows().values()]
        .filter((m) => m.connectionId === connectionId)
        .sort(byName)
        .map(copy);
    },
    async putPurpose(m) {
      mappings().set(`${m.clientId}/${m.purpose}`, copy(m));
    },
    async findPurpose(clientId, purpose) {
      const m = mappings().get(`${clientId}/${purpose}`);
      return m && copy(m);
    },
    async listPurposes(clientId) {
      return [...mappings().values()]
        .filter((m) => m.clientId === clientId)
        .sort((a, b) => purposeOrder(a.purpose) - purposeOrder(b.purpose))
        .map(copy);
    },
    async deletePurpose(clientId, purpose) {
      return mappings().delete(`${clientId}/${purpose}`);
    },
    async listTenantNameMappings(tenantId, name) {
      const clients = state().clients;
      return [...mappings().values()]
        .filter(
          (m) =>
            lower(m.logicalModelName) === lower(name) &&
            clients.get(m.clientId)?.tenantId === tenantId &&
            !findRow('client', m.clientId, name),
        )
        .sort((a, b) => a.clientId.localeCompare(b.clientId) || purposeOrder(a.purpose) - purposeOrder(b.purpose))
        .map(copy);
    },
  };
}

export function memoryAiModelCatalog(state: () => MemoryState): AiModelCatalogRepository {
  const models = () => state().aiCatalogModels;
  const overrides = () => state().aiPriceOverrides;
  const sameModel = (
    a: { tenantId: string; providerKind: string; remoteModelId: string },
    b: { tenantId: string; providerKind: string; remoteModelId: string },
  ) =>
    a.tenantId === b.tenantId && a.providerKind === b.providerKind && lower(a.remoteModelId) === lower(b.remoteModelId);
  const ordered = <T extends { providerKind: string; remoteModelId: string }>(a: T, b: T) =>
    a.providerKind.localeCompare(b.providerKind) || lower(a.remoteModelId).localeCompare(lower(b.remoteModelId));
  return {
    async insertModel(m) {
      if (models().has(m.id) || [...models().values()].some((o) => sameModel(o, m))) {
        throw MarginError.conflict(`The tenant catalog already has ${m.remoteModelId} for ${m.providerKind}.`);
      }
      models().set(m.id, copy(m));
    },
    async listModels(tenantId) {
      return [...models().values()]
        .filter((m) => m.tenantId === tenantId)
        .sort(ordered)
        .map(copy);
    },
    async deleteModel(tenantId, id) {
      const m = models().get(id);
      return m?.tenantId === tenantId ? models().delete(id) : false;
    },
    async putPriceOverride(o) {
      const existing = [...overrides().values()].find((x) => sameModel(x, o));
      const stored = existing ? { ...copy(o), id: existing.id } : copy(o);
      overrides().set(stored.id, stored);
      return { created: !existing, override: copy(stored) };
    },
    async listPriceOverrides(tenantId) {
      return [...overrides().values()]
        .filter((o) => o.tenantId === tenantId)
        .sort(ordered)
        .map(copy);
    },
    async deletePriceOverride(tenantId, id) {
      const o = overrides().get(id);
      return o?.tenantId === tenantId ? overrides().delete(id) : false;
    },
  };
}

export function memoryTenantAiPolicies(state: () => MemoryState): TenantAiPoliciesRepository {
  return {
    async find(tenantId) {
      const policy = state().tenantAiPolicies.get(tenantId);
      return policy && copy(policy);
    },
    async save(policy) {
      state().tenantAiPolicies.set(policy.tenantId, copy(policy));
    },
  };
}
