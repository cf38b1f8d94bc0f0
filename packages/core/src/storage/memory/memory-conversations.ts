import type { ConversationRecord, ConversationsRepository } from '../../conversations/index.js';
import { copy, keysetPage, type MemoryState } from './memory-state.js';

export function memoryConversations(state: () => MemoryState): ConversationsRepository {
  const rows = () => state().conversations;
  return {
    async insertIfAbsent(record) {
      const taken = [...rows().values()].some(
        (c) => c.clientId === record.clientId && c.providerCommentKey === record.providerCommentKey,
      );
      if (taken) return 'duplicate';
      rows().set(record.id, copy(record));
      return 'inserted';
    },
    async findById(id) {
      const c = rows().get(id);
      return c && copy(c);
    },
    async claimQueued({ owner, now, leaseMs, limit }) {
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      const due = [...rows().values()]
        .filter((c) => c.status === 'queued' || (c.status === 'handling' && (c.leaseExpiresAt ?? '') <= now))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .slice(0, limit);
      return due.map((c) => {
        const next: ConversationRecord = {
          ...c,
          status: 'handling',
          leaseOwner: owner,
          leaseExpiresAt: leaseUntil,
          attempts: c.attempts + 1,
        };
        rows().set(c.id, next);
        return copy(next);
      });
    },
    async finish(id, owner, finish) {
      const c = rows().get(id);
      if (c?.status !== 'handling' || c.leaseOwner !== owner) return false;
      rows().set(id, { ...c, ...copy(finish), status: 'done', leaseOwner: null, leaseExpiresAt: null });
      return true;
    },
    async list(clientId, filter, page) {
      const mine = [...rows().values()].filter(
        (c) =>
          c.clientId === clientId &&
          (filter.repositoryId === undefined || c.repositoryId.toLowerCase() === filter.repositoryId.toLowerCase()) &&
          (filter.pullRequestId === undefined || c.pullRequestId === filter.pullRequestId),
      );
      return keysetPage(mine, (c) => ({ key: c.createdAt, id: c.id }), 'desc', page);
    },
  };
}
