/** The GraphQL documents the adapter sends; named so fakes and logs can tell them apart. */

const COMMENT_FIELDS = `
  databaseId body createdAt
  author { __typename login ... on User { databaseId name } ... on Bot { databaseId } }`;

export const REVIEW_THREADS_QUERY = `query MarginReviewThreads($repository: ID!, $number: Int!, $after: String) {
  node(id: $repository) {
    ... on Repository {
      pullRequest(number: $number) {
        reviewThreads(first: 100, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes {
            id isResolved isOutdated path line startLine originalLine originalStartLine diffSide startDiffSide
            comments(first: 100) { pageInfo { hasNextPage endCursor } nodes { ${COMMENT_FIELDS} } }
          }
        }
      }
    }
  }
}`;

export const THREAD_COMMENTS_QUERY = `query MarginThreadComments($thread: ID!, $after: String) {
  node(id: $thread) {
    ... on PullRequestReviewThread {
      comments(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${COMMENT_FIELDS} } }
    }
  }
}`;

export const RESOLVE_THREAD_MUTATION = `mutation MarginResolveThread($thread: ID!) {
  resolveReviewThread(input: { threadId: $thread }) { thread { id isResolved } }
}`;

export const UNRESOLVE_THREAD_MUTATION = `mutation MarginUnresolveThread($thread: ID!) {
  unresolveReviewThread(input: { threadId: $thread }) { thread { id isResolved } }
}`;
