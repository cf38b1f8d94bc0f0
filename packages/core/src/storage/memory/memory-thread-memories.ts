import type { ThreadMemoriesRepository, ThreadMemoryRecord } from '../../reviewing/index.js';
import { copy, keysetPage, type MemoryState } from './memory-state.js';

const newestFirst = (a: ThreadMemoryRecord, b: ThreadMemoryRecord) =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

export function memoryThreadMemories(state: () => MemoryState): ThreadMemoriesRepository {
  const rows = () => state().threadMemories;
  const mine = (clientId: string) => [...rows().values()].filter((m) => m.clientId === clientId);
  return {
    async upsert(record) {
      const existing = mine(record.clientId).find((m) => m.threadKey === record.threadKey);
      const stored = { ...copy(record), id: existing?.id ?? record.id };
      rows().set(stored.id, stored);
      return copy(stored);
    },
    async listForRepository(clientId, repositoryId) {
      return mine(clientId)
        .filter((m) => m.repositoryId === null || m.repositoryId === repositoryId)
        .sort(newestFirst)
        .map(copy);
    },
    async listPage(clientId, filter, page) {
      const matching = mine(clientId).filter(
        (m) =>
          !m.forgottenAt &&
          (!filter.filePath || m.filePath === filter.filePath) &&
          (!filter.source || m.source === filter.source),
      );
      return keysetPage(matching, (m) => ({ key: m.createdAt, id: m.id }), 'desc', page);
    },
    async find(clientId, id) {
      const m = rows().get(id);
      return m && m.clientId === clientId && !m.forgottenAt ? copy(m) : undefined;
    },
    async markForgotten(clientId, id, at) {
      const m = rows().get(id);
      if (!m || m.clientId !== clientId || m.forgottenAt) return false;
      rows().set(id, { ...m, forgottenAt: at });
      return true;
    },
    async remove(clientId, id) {
      const m = rows().get(id);
      if (!m || m.clientId !== clientId) return false;
      return rows().delete(id);
    },
    async removeByThreadKey(clientId, threadKey) {
      const m = mine(clientId).find((r) => r.threadKey === threadKey);
      return m ? rows().delete(m.id) : false;
    },
  };
}
