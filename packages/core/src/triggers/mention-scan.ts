import { conversationForComment } from '../conversations/index.js';
import type { OpenedScmScope } from '../scm/index.js';
import type { PullRequestRef, ReviewThread, ThreadComment, WebhookComment } from '../scm-provider/index.js';
import type { CrawlConfigurationRecord } from './trigger-records.js';
import type { TriggersDeps } from './triggers-deps.js';
import { originOf } from './webhook-intake.js';

/** Threads read per pull request and scan; a pull request with more is scanned that far. */
const MAX_THREADS = 500;

/**
 * The crawler's side of mentions: reads an open pull request's threads and records a conversation
 * for each comment that mentions the reviewer identity. The insert is the receiver's (unique on
 * client and provider comment), so a comment already delivered by a webhook, or seen by an earlier
 * scan or another host, is recorded once. Returns how many conversations this scan added.
 */
export async function scanForMentions(
  deps: TriggersDeps,
  config: CrawlConfigurationRecord,
  opened: OpenedScmScope,
  ref: PullRequestRef,
): Promise<number> {
  let added = 0;
  let seen = 0;
  for await (const thread of opened.provider.listThreads(ref)) {
    if (++seen > MAX_THREADS) break;
    for (const comment of thread.comments) {
      const found = await conversationForComment(
        deps,
        { ...originOf(config), kind: 'crawl' },
        opened.family,
        { repositoryId: ref.repositoryId, pullRequestId: ref.pullRequestId },
        asWebhookComment(thread, comment),
      );
      if (!('record' in found)) continue;
      if ((await deps.storage.conversations.insertIfAbsent(found.record)) === 'inserted') {
        added++;
        deps.events.emit('conversation.queued', { conversationId: found.record.id, clientId: config.clientId });
      }
    }
  }
  return added;
}

/**
 * A listed comment as a delivery would carry it. Adapters list a comment without a thread (a GitHub
 * or Forgejo conversation comment) as a thread of one whose id is the comment's own with a prefix;
 * such a comment is answered as a delivered one is, with a new comment quoting it.
 */
function asWebhookComment(thread: ReviewThread, comment: ThreadComment): WebhookComment {
  const threadOfOne =
    !thread.anchor &&
    thread.comments.length === 1 &&
    thread.threadId !== comment.commentId &&
    thread.threadId.endsWith(comment.commentId);
  return {
    commentId: comment.commentId,
    threadId: threadOfOne ? undefined : thread.threadId,
    body: comment.body,
    author: comment.author,
    createdAt: comment.createdAt,
    isReviewComment: thread.anchor !== undefined,
  };
}
