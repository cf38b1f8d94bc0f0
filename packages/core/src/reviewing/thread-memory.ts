import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { dismissalMemoryKey, type ThreadMemoryRecord } from './memory-record.js';
import type { ReviewingDeps } from './reviewing-deps.js';
import { MemoryListQuery, type MemoryViewBody } from './schemas.js';

/** The record without its embedding, which is the engine's business. */
export const memoryView = (m: ThreadMemoryRecord): MemoryViewBody => ({
  id: m.id,
  clientId: m.clientId,
  source: m.source,
  intent: m.intent,
  filePath: m.filePath,
  summary: m.summary,
  findingFingerprint: m.findingFingerprint,
  providerThreadId: m.providerThreadId,
  repositoryId: m.repositoryId,
  pullRequestId: m.pullRequestId,
  createdAt: m.createdAt,
  createdBy: m.createdBy,
});

/** `GET /clients/{clientId}/reviewing/memory` (ClientUser): newest first, by file and source. */
export async function listMemory(deps: ReviewingDeps, actor: Actor, clientId: string, query: unknown) {
  const { filePath, source, limit, cursor } = MemoryListQuery.parse(query);
  await deps.authz.requireClient(actor, 'reviewing.memory.read', clientId);
  const page = await deps.storage.threadMemories.listPage(clientId, { filePath, source }, { limit, cursor });
  return { items: page.items.map(memoryView), nextCursor: page.nextCursor };
}

/**
 * `DELETE /clients/{clientId}/reviewing/memory/{memoryId}` (ClientAdministrator): later reviews
 * raise the finding again. A thread's record is kept as forgotten, so the next review does not
 * learn the same closure back; a dismissal's record goes with its dismissal (they are one decision).
 */
export async function deleteMemory(deps: ReviewingDeps, actor: Actor, clientId: string, memoryId: string) {
  await deps.authz.requireClient(actor, 'reviewing.memory.manage', clientId);
  const removed = await deps.storage.transaction(async (tx) => {
    const record = await tx.threadMemories.find(clientId, memoryId);
    if (!record) return false;
    if (record.source !== 'adminDismissed') {
      return tx.threadMemories.markForgotten(clientId, memoryId, deps.clock.now().toISOString());
    }
    const prefix = dismissalMemoryKey('');
    if (record.threadKey.startsWith(prefix))
      await tx.dismissals.remove(clientId, record.threadKey.slice(prefix.length));
    return tx.threadMemories.remove(clientId, memoryId);
  });
  if (!removed) throw MarginError.notFound('Memory record not found.');
}
