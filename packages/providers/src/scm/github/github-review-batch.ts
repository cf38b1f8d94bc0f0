import {
  type CreatedThread,
  type CreateThreadInput,
  type CreateThreadOutcome,
  MarginError,
  type PullRequestRef,
  type Revision,
  type ThreadAnchor,
} from '@margin/core/spec';
import { readHiddenMarker } from '../shared/index.js';
import { type GitHubConnection, pullRequestPath, type Signal } from './github-connection.js';
import type { GitHubReviewThreads } from './github-review-threads.js';
import { type GhReview, type GhReviewComment, REVIEW_THREAD_PREFIX, reviewCommentBody } from './github-wire.js';

export type InlineThread = Omit<CreateThreadInput, 'revision'> & { anchor: ThreadAnchor };

/**
 * One review (`event: COMMENT`) carrying every inline comment of a batch: one request, and one
 * notification for the author instead of one per finding. The created comments are found again
 * among the review's comments by marker (or by place and body). `undefined` when GitHub refused
 * the review with 422, which it does as a whole when one comment is outside the diff.
 */
export async function postReview(
  github: GitHubConnection,
  reviewThreads: GitHubReviewThreads,
  ref: PullRequestRef,
  revision: Revision,
  threads: readonly InlineThread[],
  signal: Signal,
): Promise<CreateThreadOutcome[] | undefined> {
  const { client } = github;
  let review: GhReview;
  try {
    const { data } = await client.rest<GhReview>({
      method: 'POST',
      path: `${pullRequestPath(ref)}/reviews`,
      json: {
        commit_id: revision.headSha,
        event: 'COMMENT',
        // GitHub documents a body as required for a COMMENT review; a short one, the summary is elsewhere.
        body: `${threads.length === 1 ? '1 comment' : `${threads.length} comments`} on ${revision.headSha.slice(0, 7)}.`,
        comments: threads.map(reviewCommentBody),
      },
      signal,
    });
    review = data;
  } catch (error) {
    if (MarginError.isInstance(error) && error.details.providerStatus === 422) return undefined;
    throw error;
  }
  const posted: GhReviewComment[] = [];
  for await (const comment of client.pages<GhReviewComment>(
    `${pullRequestPath(ref)}/reviews/${review.id}/comments`,
    {},
    { signal },
  )) {
    posted.push(comment);
  }
  const used = new Set<number>();
  const outcomes: CreateThreadOutcome[] = [];
  for (const thread of threads) {
    const match = posted.find((comment) => !used.has(comment.id) && isCommentOf(comment, thread));
    if (!match) {
      const where = `${thread.anchor.filePath}:${thread.anchor.endLine}`;
      outcomes.push({
        ok: false,
        error: MarginError.provider('invalidResponse', `GitHub did not list the comment on ${where} in its review.`),
      });
      continue;
    }
    used.add(match.id);
    if (thread.status === 'resolved') await reviewThreads.setResolved(ref, match.id, true, signal);
    outcomes.push({ ok: true, thread: createdThreadOf(match) });
  }
  return outcomes;
}

/** The thread a review comment starts, as the port names it. */
export function createdThreadOf(comment: GhReviewComment): CreatedThread {
  return { threadId: `${REVIEW_THREAD_PREFIX}${comment.id}`, commentId: String(comment.id), webUrl: comment.html_url };
}

/** A review's comment is the one posted for a thread when it carries the thread's marker, else its place and body. */
function isCommentOf(comment: GhReviewComment, thread: InlineThread) {
  const { body, marker } = readHiddenMarker(comment.body);
  if (thread.marker !== undefined) return marker === thread.marker;
  return (
    marker === undefined &&
    comment.path === thread.anchor.filePath &&
    comment.line === thread.anchor.endLine &&
    body.trim() === thread.body.trim()
  );
}
