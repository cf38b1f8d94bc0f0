import { z } from 'zod';
import { MAX_STORED_INTEGER, PageQuery, storedIntegerMessage } from '../kernel/index.js';
import { ScmUserView } from '../scm/index.js';
import { CONVERSATION_OUTCOMES } from './conversation-record.js';
import { MENTION_COMMANDS } from './mentions.js';

const timestamp = z.string().meta({ format: 'date-time' });

export const ConversationListQuery = PageQuery.extend({
  repositoryId: z.string().trim().min(1).max(300).optional(),
  pullRequestId: z.coerce.number().int().min(1).max(MAX_STORED_INTEGER, storedIntegerMessage).optional(),
});

export const ConversationUsageView = z
  .object({
    inputTokens: z.number().int(),
    cachedInputTokens: z.number().int(),
    outputTokens: z.number().int(),
    reasoningTokens: z.number().int(),
    estimatedCostUsd: z.number(),
  })
  .meta({ id: 'ConversationUsage' });

export const ConversationView = z
  .object({
    id: z.string(),
    repositoryId: z.string(),
    pullRequestId: z.number().int(),
    providerThreadId: z.string().nullable().meta({ description: 'Null where the comment opened no thread.' }),
    commentId: z.string(),
    author: ScmUserView,
    command: z.enum(MENTION_COMMANDS).nullable().meta({ description: 'Null for a question.' }),
    question: z.string().nullable(),
    answer: z.string().nullable().meta({ description: 'What Margin replied; null until handled.' }),
    outcome: z
      .enum(CONVERSATION_OUTCOMES)
      .nullable()
      .meta({ description: 'Null while the conversation waits for the worker.' }),
    jobId: z.string().nullable().meta({ description: 'The review a `review` command queued.' }),
    usage: ConversationUsageView.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Conversation' });

export const ConversationList = z
  .object({ items: z.array(ConversationView), nextCursor: z.string().nullable() })
  .meta({ id: 'ConversationList' });

export type ConversationViewBody = z.infer<typeof ConversationView>;
export type ConversationListBody = z.infer<typeof ConversationList>;
