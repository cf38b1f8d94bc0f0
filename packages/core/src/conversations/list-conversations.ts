import type { Actor } from '../kernel/index.js';
import type { ConversationRecord } from './conversation-record.js';
import type { ConversationsDeps } from './conversations-deps.js';
import { type ConversationListBody, ConversationListQuery, type ConversationViewBody } from './schemas.js';

export const conversationView = (c: ConversationRecord): ConversationViewBody => ({
  id: c.id,
  repositoryId: c.repositoryId,
  pullRequestId: c.pullRequestId,
  providerThreadId: c.providerThreadId,
  commentId: c.commentId,
  author: { ...c.author },
  command: c.command,
  question: c.question,
  answer: c.answer,
  outcome: c.outcome,
  jobId: c.jobId,
  usage: c.usage && { ...c.usage },
  createdAt: c.createdAt,
});

/** `GET /clients/{clientId}/reviewing/conversations` (ClientUser): newest first, a page at a time. */
export async function listConversations(
  deps: ConversationsDeps,
  actor: Actor,
  clientId: string,
  query: unknown,
): Promise<ConversationListBody> {
  const req = ConversationListQuery.parse(query);
  await deps.authz.requireClient(actor, 'reviewing.read', clientId);
  const page = await deps.storage.conversations.list(
    clientId,
    { repositoryId: req.repositoryId, pullRequestId: req.pullRequestId },
    { limit: req.limit, cursor: req.cursor },
  );
  return { items: page.items.map(conversationView), nextCursor: page.nextCursor };
}
