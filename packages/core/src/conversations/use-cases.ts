import type { Actor } from '../kernel/index.js';
import type { ConversationsDeps } from './conversations-deps.js';
import { processQueuedConversations } from './handle-conversation.js';
import { listConversations } from './list-conversations.js';
import type { ConversationListBody } from './schemas.js';

export interface ConversationUseCases {
  listConversations(actor: Actor, clientId: string, query: unknown): Promise<ConversationListBody>;
  /** For a host's conversation worker: handles leased queued conversations; returns how many. */
  processQueued(request: { owner: string; leaseMs: number; limit: number }): Promise<number>;
}

export function createConversationUseCases(deps: ConversationsDeps): ConversationUseCases {
  return {
    listConversations: (actor, clientId, query) => listConversations(deps, actor, clientId, query),
    processQueued: (request) => processQueuedConversations(deps, request),
  };
}
