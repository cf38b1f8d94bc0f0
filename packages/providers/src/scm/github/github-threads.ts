import {
  type CreatedThread,
  type CreateThreadInput,
  type CreateThreadOutcome,
  MarginError,
  type PullRequestRef,
  type ReviewThread,
  type ScmProviderV1,
} from '@margin/core/spec';
import { createThreadsOneByOne, readHiddenMarker, withHiddenMarker } from '../shared/index.js';
import { type GitHubConnection, pullRequestPath, repositoryPath } from './github-connection.js';
import { createdThreadOf, type InlineThread, postReview } from './github-review-batch.js';
import { gitHubReviewThreads } from './github-review-threads.js';
import {
  type GhIssueComment,
  type GhReviewComment,
  ISSUE_COMMENT_PREFIX,
  type IsConnectionAuthor,
  inlineCommentBody,
  issueCommentThread,
  parseThreadId,
  reviewThreadOf,
} from './github-wire.js';

type ThreadPart = Pick<
  ScmProviderV1,
  'listThreads' | 'createThread' | 'createThreads' | 'editComment' | 'reply' | 'setThreadStatus'
>;

/**
 * Review threads and conversation comments: listing, creating (one by one or as one review),
 * replying, resolving and editing. Inline threads are review threads; pull-request-level ones are
 * conversation (issue) comments, each a thread of one. Hidden thread markers travel as HTML comments
 * at the end of the first comment's body.
 */
export function gitHubThreads(github: GitHubConnection): ThreadPart {
  const { client } = github;
  const reviewThreads = gitHubReviewThreads(client);

  const part: ThreadPart = {
    async *listThreads(ref, options): AsyncGenerator<ReviewThread> {
      const signal = options?.signal;
      const isConnectionAuthor = await connectionAuthor(github);
      for await (const thread of reviewThreads.list(ref, signal)) {
        const mapped = reviewThreadOf(thread, await reviewThreads.comments(thread, signal), isConnectionAuthor);
        if (mapped) yield mapped;
      }
      // Conversation comments have no threads on GitHub: each is a thread of one.
      for await (const comment of client.pages<GhIssueComment>(issueCommentsPath(ref), {}, { signal })) {
        yield issueCommentThread(comment, isConnectionAuthor);
      }
    },

    async createThread(ref, input: CreateThreadInput, options): Promise<CreatedThread> {
      const signal = options?.signal;
      if (!input.anchor) {
        const { data } = await client.rest<GhIssueComment>({
          method: 'POST',
          path: issueCommentsPath(ref),
          json: { body: withHiddenMarker(input.body, input.marker, 'htmlComment') },
          signal,
        });
        return { threadId: `${ISSUE_COMMENT_PREFIX}${data.id}`, commentId: String(data.id), webUrl: data.html_url };
      }
      const { data } = await client.rest<GhReviewComment>({
        method: 'POST',
        path: `${pullRequestPath(ref)}/comments`,
        json: inlineCommentBody({ ...input, anchor: input.anchor, headSha: input.revision.headSha }),
        signal,
      });
      if (input.status === 'resolved') await reviewThreads.setResolved(ref, data.id, true, signal);
      return createdThreadOf(data);
    },

    async createThreads(ref, { revision, threads }, options) {
      const signal = options?.signal;
      const one = (thread: Omit<CreateThreadInput, 'revision'>) =>
        part.createThread(ref, { ...thread, revision }, options);
      const inline: InlineThread[] = [];
      const inlineAt: number[] = [];
      const conversation: Array<Omit<CreateThreadInput, 'revision'>> = [];
      const conversationAt: number[] = [];
      threads.forEach((thread, index) => {
        if (thread.anchor) {
          inline.push({ ...thread, anchor: thread.anchor });
          inlineAt.push(index);
        } else {
          conversation.push(thread);
          conversationAt.push(index);
        }
      });
      const outcomes: CreateThreadOutcome[] = new Array(threads.length);
      const place = (at: number[], results: CreateThreadOutcome[]) =>
        results.forEach((result, k) => {
          outcomes[at[k] as number] = result;
        });
      // Pull-request-level comments are conversation comments, one request each.
      place(conversationAt, await createThreadsOneByOne(conversation, one, signal));
      if (inline.length > 0) {
        // One comment outside the diff refuses the review: then each goes alone, so only it fails.
        place(
          inlineAt,
          (await postReview(github, reviewThreads, ref, revision, inline, signal)) ??
            (await createThreadsOneByOne(inline, one, signal)),
        );
      }
      return outcomes;
    },

    async editComment(ref, input, options) {
      const signal = options?.signal;
      const path = commentPath(ref, input.threadId, input.commentId);
      let marker = input.marker;
      if (marker === undefined) {
        // The marker lives in the body: an edit that names none keeps the one already there.
        const { data } = await client.rest<{ body?: string | null }>({ path, signal });
        marker = readHiddenMarker(data.body ?? '').marker;
      }
      await client.rest({
        method: 'PATCH',
        path,
        json: { body: withHiddenMarker(input.body, marker, 'htmlComment') },
        responseType: 'none',
        signal,
      });
    },

    async reply(ref, threadId, body, options) {
      const signal = options?.signal;
      const parsed = parseOwnThreadId(threadId);
      if (parsed.kind === 'issue') {
        // Conversation comments cannot be replied to; the answer is a new comment on the pull request.
        const { data } = await client.rest<GhIssueComment>({
          method: 'POST',
          path: issueCommentsPath(ref),
          json: { body },
          signal,
        });
        return { commentId: String(data.id) };
      }
      const { data } = await client.rest<GhReviewComment>({
        method: 'POST',
        path: `${pullRequestPath(ref)}/comments/${parsed.rootCommentId}/replies`,
        json: { body },
        signal,
      });
      return { commentId: String(data.id) };
    },

    async setThreadStatus(ref, threadId, status, options) {
      const parsed = parseOwnThreadId(threadId);
      // Conversation comments have no resolution state on GitHub; there is nothing to set.
      if (parsed.kind === 'issue') return;
      await reviewThreads.setResolved(ref, parsed.rootCommentId, status === 'resolved', options?.signal);
    },
  };
  return part;
}

/** GraphQL names a bot `slug`, REST `slug[bot]`; an App's comments are always a bot's. */
async function connectionAuthor(github: GitHubConnection): Promise<IsConnectionAuthor> {
  const own = botless((await github.account.get()).login);
  return (author) => botless(author.login) === own && (!github.client.isApp || author.isBot);
}

function botless(login: string): string {
  return login.replace(/\[bot\]$/i, '').toLowerCase();
}

function parseOwnThreadId(threadId: string) {
  const parsed = parseThreadId(threadId);
  if (!parsed) throw MarginError.validation(`"${threadId}" is not a GitHub thread id of this adapter.`);
  return parsed;
}

function issueCommentsPath(ref: PullRequestRef): string {
  return `${repositoryPath(ref)}/issues/${ref.pullRequestId}/comments`;
}

function commentPath(ref: PullRequestRef, threadId: string, commentId: string): string {
  const parsed = parseOwnThreadId(threadId);
  if (!/^\d+$/.test(commentId)) throw MarginError.validation(`"${commentId}" is not a GitHub comment id.`);
  return parsed.kind === 'issue'
    ? `${repositoryPath(ref)}/issues/comments/${commentId}`
    : `${repositoryPath(ref)}/pulls/comments/${commentId}`;
}
