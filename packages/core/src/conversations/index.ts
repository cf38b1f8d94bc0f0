export { type CommentOrigin, conversationForComment, providerCommentKey } from './comment-intake.js';
export * from './conversation-record.js';
export type { ConversationOrigins, ConversationsDeps, ConversationsRepositories } from './conversations-deps.js';
export { HELP_TEXT, MAX_CONVERSATION_ATTEMPTS, PAUSE_REASON_PREFIX } from './handle-conversation.js';
export {
  findMention,
  MENTION_COMMANDS,
  type Mention,
  type MentionCommand,
  type MentionedIdentity,
} from './mentions.js';
export * from './schemas.js';
export { type ConversationUseCases, createConversationUseCases } from './use-cases.js';
