import type { Clock, Ids, StorageSlice } from '../kernel/index.js';
import type { ScmRepositories } from '../scm/index.js';
import type { ScmProviderFamilyV1, WebhookComment } from '../scm-provider/index.js';
import type { ConversationOriginKind, ConversationRecord } from './conversation-record.js';
import { findMention } from './mentions.js';

/** The configuration a comment was found under: webhook or crawl, with the scope that opens the provider. */
export interface CommentOrigin {
  kind: ConversationOriginKind;
  clientId: string;
  configurationId: string;
  organizationScopeId: string;
  providerScopePath: string;
  providerProjectKey: string;
  /** When the configuration was created: comments older than it are not Margin's to answer. */
  configuredAt: string;
}

export interface CommentIntakeDeps {
  storage: StorageSlice<Pick<ScmRepositories, 'providerScopes' | 'reviewerIdentities'>>;
  clock: Clock;
  ids: Ids;
}

const MAX_BODY = 4000;

/**
 * The conversation a comment opens, or why it opens none. Reads the reviewer identity of the
 * configuration's connection (who "@margin" is); nothing is written here: the caller inserts the
 * record where it records what it found, so the insert shares that transaction.
 */
export async function conversationForComment(
  deps: CommentIntakeDeps,
  origin: CommentOrigin,
  family: Pick<ScmProviderFamilyV1, 'capabilities'>,
  pullRequest: { repositoryId: string; pullRequestId: number },
  comment: WebhookComment,
): Promise<{ record: ConversationRecord } | { skipped: string }> {
  const found = await deps.storage.providerScopes.findWithConnection(origin.organizationScopeId);
  if (!found) return { skipped: 'The configuration’s provider scope no longer exists.' };
  const identity = await deps.storage.reviewerIdentities.findByConnection(found.connection.id);
  if (!identity) return { skipped: 'The connection has no reviewer identity to be mentioned as.' };
  if (isOwnComment(comment, identity)) return { skipped: 'The comment is Margin’s own.' };
  if (Date.parse(comment.createdAt) < Date.parse(origin.configuredAt)) {
    return { skipped: 'The comment is older than the configuration.' };
  }
  const mention = findMention(comment.body, identity);
  if (!mention) return { skipped: 'The comment does not mention the reviewer identity.' };
  const now = deps.clock.now().toISOString();
  return {
    record: {
      id: deps.ids.uuid(),
      clientId: origin.clientId,
      providerCommentKey: providerCommentKey(family, pullRequest, comment),
      configurationId: origin.configurationId,
      originKind: origin.kind,
      organizationScopeId: origin.organizationScopeId,
      providerScopePath: origin.providerScopePath,
      providerProjectKey: origin.providerProjectKey,
      repositoryId: pullRequest.repositoryId,
      pullRequestId: pullRequest.pullRequestId,
      providerThreadId: comment.threadId ?? null,
      commentId: comment.commentId,
      author: {
        externalUserId: comment.author.externalUserId,
        login: comment.author.login,
        displayName: comment.author.displayName,
        isBot: comment.author.isBot,
      },
      isReviewComment: comment.isReviewComment === true,
      commentedAt: comment.createdAt,
      command: mention.command,
      question: mention.question?.slice(0, MAX_BODY) ?? null,
      answer: null,
      outcome: null,
      jobId: null,
      usage: null,
      status: 'queued',
      leaseOwner: null,
      leaseExpiresAt: null,
      attempts: 0,
      createdAt: now,
      handledAt: null,
    },
  };
}

/** Written as the reviewer identity: Margin's own comment, whatever it says. */
function isOwnComment(comment: WebhookComment, identity: { login: string; externalUserId: string }): boolean {
  const bare = (login: string) => login.replace(/\[bot\]$/i, '').toLowerCase();
  if (identity.externalUserId && comment.author.externalUserId === identity.externalUserId) return true;
  return bare(comment.author.login) === bare(identity.login);
}

/**
 * The comment's name within a client. Repository ids are compared ignoring case (as in job keys);
 * where comment ids are numbered per thread the thread id is part of the name.
 */
export function providerCommentKey(
  family: Pick<ScmProviderFamilyV1, 'capabilities'>,
  pullRequest: { repositoryId: string; pullRequestId: number },
  comment: { commentId: string; threadId?: string | undefined },
): string {
  const id = family.capabilities.commentIdsPerThread
    ? `${comment.threadId ?? ''}/${comment.commentId}`
    : comment.commentId;
  return `${pullRequest.repositoryId.toLowerCase()}#${pullRequest.pullRequestId}#${id}`.slice(0, 500);
}
