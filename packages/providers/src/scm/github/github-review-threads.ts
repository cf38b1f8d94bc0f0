import { MarginError, type PullRequestRef, type RepositoryRef } from '@margin/core/spec';
import { BoundedCache, paginate } from '../../utils/index.js';
import type { GitHubClient } from './github-client.js';
import { repositoryPath, type Signal } from './github-connection.js';
import {
  RESOLVE_THREAD_MUTATION,
  REVIEW_THREADS_QUERY,
  THREAD_COMMENTS_QUERY,
  UNRESOLVE_THREAD_MUTATION,
} from './github-graphql.js';
import type { GhRepository, GqlComment, GqlPageInfo, GqlReviewThread } from './github-wire.js';

type ThreadsAnswer = {
  node: {
    pullRequest: { reviewThreads: { pageInfo: GqlPageInfo; nodes: GqlReviewThread[] } } | null;
  } | null;
};
type ThreadCommentsAnswer = { node: { comments: { pageInfo: GqlPageInfo; nodes: GqlComment[] } } | null };

/** A pull request's review threads as GitHub's GraphQL API has them, the one API that knows threads. */
export interface GitHubReviewThreads {
  /** Every review thread of the pull request, page by page, its first 100 comments included. */
  list(ref: PullRequestRef, signal: Signal): AsyncGenerator<GqlReviewThread>;
  /** Every comment of a thread: the first 100 come with the thread, the rest page by node id. */
  comments(thread: GqlReviewThread, signal: Signal): Promise<GqlComment[]>;
  /** Resolves or reopens the thread whose first comment is the REST review comment `rootCommentId`. */
  setResolved(ref: PullRequestRef, rootCommentId: number, resolved: boolean, signal: Signal): Promise<void>;
}

/**
 * GraphQL reaches a repository through its node id, looked up once and cached. REST knows review
 * comments, GraphQL knows threads: a thread's node id is found by its first comment, and every thread
 * listed on the way is remembered, so resolving a thread just listed costs no lookup.
 */
export function gitHubReviewThreads(client: GitHubClient): GitHubReviewThreads {
  const repositoryNodeIds = new BoundedCache<string, string>(512);
  const threadNodeIds = new BoundedCache<string, string>(4096);
  const threadKey = (ref: PullRequestRef, rootCommentId: number) =>
    `${ref.repositoryId}#${ref.pullRequestId}:${rootCommentId}`;

  const repositoryNodeId = async (ref: RepositoryRef, signal: Signal) => {
    const known = repositoryNodeIds.get(ref.repositoryId);
    if (known) return known;
    const { data } = await client.rest<GhRepository>({ path: repositoryPath(ref), signal });
    if (!data.node_id) throw MarginError.provider('invalidResponse', 'GitHub named no node id for the repository.');
    repositoryNodeIds.set(ref.repositoryId, data.node_id);
    return data.node_id;
  };

  async function* list(ref: PullRequestRef, signal: Signal): AsyncGenerator<GqlReviewThread> {
    const repository = await repositoryNodeId(ref, signal);
    const pages = paginate<GqlReviewThread, string>(undefined, async (after) => {
      const answer = await client.graphql<ThreadsAnswer>(
        REVIEW_THREADS_QUERY,
        { repository, number: ref.pullRequestId, after: after ?? null },
        signal,
      );
      const listed = answer.node?.pullRequest?.reviewThreads;
      if (!listed) throw MarginError.notFound(`GitHub has no pull request #${ref.pullRequestId} in this repository.`);
      return {
        items: listed.nodes,
        next: listed.pageInfo.hasNextPage ? (listed.pageInfo.endCursor ?? undefined) : undefined,
      };
    });
    for await (const thread of pages) {
      const root = thread.comments.nodes[0];
      if (root) threadNodeIds.set(threadKey(ref, root.databaseId), thread.id);
      yield thread;
    }
  }

  const threadNodeIdOf = async (ref: PullRequestRef, rootCommentId: number, signal: Signal) => {
    const known = threadNodeIds.get(threadKey(ref, rootCommentId));
    if (known) return known;
    for await (const thread of list(ref, signal)) {
      if (thread.comments.nodes[0]?.databaseId === rootCommentId) return thread.id;
    }
    throw MarginError.notFound(`GitHub has no review thread starting with comment ${rootCommentId}.`);
  };

  return {
    list,

    async comments(thread, signal) {
      const comments = [...thread.comments.nodes];
      let page = thread.comments.pageInfo;
      while (page.hasNextPage && page.endCursor) {
        const answer = await client.graphql<ThreadCommentsAnswer>(
          THREAD_COMMENTS_QUERY,
          { thread: thread.id, after: page.endCursor },
          signal,
        );
        if (!answer.node) break;
        comments.push(...answer.node.comments.nodes);
        page = answer.node.comments.pageInfo;
      }
      return comments;
    },

    async setResolved(ref, rootCommentId, resolved, signal) {
      const thread = await threadNodeIdOf(ref, rootCommentId, signal);
      await client.graphql(resolved ? RESOLVE_THREAD_MUTATION : UNRESOLVE_THREAD_MUTATION, { thread }, signal);
    },
  };
}
