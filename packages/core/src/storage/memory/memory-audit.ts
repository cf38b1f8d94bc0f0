import type { AuditEntriesRepository, AuditEntryRecord } from '../../audit/index.js';
import { copy, keysetPage, type MemoryState } from './memory-state.js';

const byTime = (e: AuditEntryRecord) => ({ key: e.at, id: e.id });

export function memoryAuditEntries(state: () => MemoryState): AuditEntriesRepository {
  const rows = () => state().auditEntries;
  return {
    async insert(entry) {
      rows().set(entry.id, copy(entry));
    },
    async listForTenant(tenantId, page) {
      const ofTenant = [...rows().values()].filter((e) => e.tenantId === tenantId);
      return keysetPage(ofTenant, byTime, 'desc', page);
    },
    async listAll(page) {
      return keysetPage(rows().values(), byTime, 'desc', page);
    },
  };
}
