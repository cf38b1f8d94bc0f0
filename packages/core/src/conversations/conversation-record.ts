import type { Page, PageRequest } from '../kernel/index.js';
import type { ScmUser } from '../scm-provider/index.js';
import type { MentionCommand } from './mentions.js';

/** How a conversation ended (decisions.md, Conversations and memory). */
export const CONVERSATION_OUTCOMES = ['answered', 'queuedReview', 'paused', 'resumed', 'refused', 'failed'] as const;
export type ConversationOutcome = (typeof CONVERSATION_OUTCOMES)[number];

/** `queued` until a worker takes it, `handling` while one holds its lease, `done` once answered. */
export type ConversationStatus = 'queued' | 'handling' | 'done';

/** Which configuration found the comment: its scope opens the provider, its options shape a review. */
export type ConversationOriginKind = 'webhook' | 'crawl';

export interface ConversationUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  estimatedCostUsd: number;
}

/** One provider comment that mentioned Margin, and what Margin did about it. */
export interface ConversationRecord {
  id: string;
  clientId: string;
  /**
   * Names the provider comment within the client: repository, pull request and comment id (and the
   * thread where ids are per thread). Unique: whoever inserts second — another delivery, host or
   * scan — inserts nothing.
   */
  providerCommentKey: string;
  configurationId: string;
  originKind: ConversationOriginKind;
  organizationScopeId: string;
  providerScopePath: string;
  providerProjectKey: string;
  repositoryId: string;
  pullRequestId: number;
  providerThreadId: string | null;
  commentId: string;
  author: ScmUser;
  isReviewComment: boolean;
  commentedAt: string;
  command: MentionCommand | null;
  question: string | null;
  answer: string | null;
  outcome: ConversationOutcome | null;
  jobId: string | null;
  usage: ConversationUsage | null;
  status: ConversationStatus;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  attempts: number;
  createdAt: string;
  handledAt: string | null;
}

/** What handling a conversation settles. */
export interface ConversationFinish {
  answer: string | null;
  outcome: ConversationOutcome;
  jobId: string | null;
  usage: ConversationUsage | null;
  handledAt: string;
}

export interface ConversationFilter {
  repositoryId?: string | undefined;
  pullRequestId?: number | undefined;
}

export interface ConversationsRepository {
  /** Inserts unless the client already has this provider comment; says which happened. */
  insertIfAbsent(record: ConversationRecord): Promise<'inserted' | 'duplicate'>;
  findById(id: string): Promise<ConversationRecord | undefined>;
  /**
   * Takes up to `limit` queued conversations, and those whose lease ran out, for `owner` until
   * `now + leaseMs`, counting an attempt. Two hosts never hold the same one.
   */
  claimQueued(request: { owner: string; now: string; leaseMs: number; limit: number }): Promise<ConversationRecord[]>;
  /** Settles a conversation this owner holds; false when its lease was lost. */
  finish(id: string, owner: string, finish: ConversationFinish): Promise<boolean>;
  /** Newest first (by `createdAt`, then id). */
  list(clientId: string, filter: ConversationFilter, page: PageRequest): Promise<Page<ConversationRecord>>;
}
