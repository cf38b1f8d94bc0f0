import type { FakeReply } from '../../testing/fake-http-server.js';
import { type FakeThread, GH_REPOSITORY_NODE_ID, type GitHubFakeContext } from './github-fake-context.js';

type Variables = Record<string, unknown>;

/**
 * `/api/graphql`, answering the adapter's named operations (`github-graphql.ts`) over the threads the
 * REST part keeps: review threads page by page, a thread's further comments, resolve and unresolve.
 */
export function serveGraphql(fake: GitHubFakeContext): void {
  fake.route('POST', '/api/graphql', (req) => {
    const { query, variables } = req.json as { query: string; variables: Variables };
    const operation = /^(?:query|mutation)\s+(\w+)/.exec(query)?.[1];
    if (operation === 'MarginReviewThreads') return reviewThreads(fake, variables);
    if (operation === 'MarginThreadComments') return threadComments(fake, variables);
    if (operation === 'MarginResolveThread' || operation === 'MarginUnresolveThread') {
      return setResolved(fake, variables, operation === 'MarginResolveThread');
    }
    return { status: 200, json: { errors: [{ message: `Unknown operation ${operation ?? '(anonymous)'}` }] } };
  });
}

function reviewThreads(fake: GitHubFakeContext, variables: Variables): FakeReply {
  if (variables.repository !== GH_REPOSITORY_NODE_ID) return { json: { data: { node: null } } };
  const number = Number(variables.number);
  if (!fake.pullRequests.has(number)) {
    return {
      json: {
        data: { node: { pullRequest: null } },
        errors: [
          {
            type: 'NOT_FOUND',
            path: ['node', 'pullRequest'],
            message: `Could not resolve to a PullRequest with the number of ${variables.number}.`,
          },
        ],
      },
    };
  }
  const threads = fake.threadsOf(number);
  const start = typeof variables.after === 'string' ? Number(variables.after) : 0;
  const nodes = threads.slice(start, start + 100).map((t) => gqlThread(fake, number, t));
  const more = start + 100 < threads.length;
  return {
    json: {
      data: {
        node: {
          pullRequest: {
            reviewThreads: { pageInfo: { hasNextPage: more, endCursor: more ? String(start + 100) : null }, nodes },
          },
        },
      },
    },
  };
}

function threadComments(fake: GitHubFakeContext, variables: Variables): FakeReply {
  const thread = threadById(fake, variables.thread);
  const start = Number(variables.after ?? 0);
  const nodes = thread?.comments.nodes.slice(start, start + 100).map(({ reviewId: _review, ...c }) => c) ?? [];
  const more = thread !== undefined && start + 100 < thread.comments.nodes.length;
  return {
    json: {
      data: {
        node: thread ? { comments: { pageInfo: { hasNextPage: more, endCursor: String(start + 100) }, nodes } } : null,
      },
    },
  };
}

function setResolved(fake: GitHubFakeContext, variables: Variables, resolved: boolean): FakeReply {
  const thread = threadById(fake, variables.thread);
  if (!thread)
    return {
      json: {
        data: null,
        errors: [
          {
            type: 'NOT_FOUND',
            message: `Could not resolve to a node with the global id of '${String(variables.thread)}'`,
          },
        ],
      },
    };
  thread.isResolved = resolved;
  const field = resolved ? 'resolveReviewThread' : 'unresolveReviewThread';
  return { json: { data: { [field]: { thread: { id: thread.id, isResolved: thread.isResolved } } } } };
}

function threadById(fake: GitHubFakeContext, id: unknown): FakeThread | undefined {
  return [...fake.threadsByPull.values()].flat().find((t) => t.id === id);
}

/** A thread as GraphQL shows it: outdated once the file changed since the commit it was written on. */
function gqlThread(fake: GitHubFakeContext, number: number, thread: FakeThread) {
  const { history } = fake;
  const latest = history.pullRequests.get(number)?.revisions.at(-1);
  const isOutdated =
    latest !== undefined &&
    thread.commitId !== latest.headSha &&
    history.fileAt(thread.commitId, thread.path)?.blobId !== history.fileAt(latest.headSha, thread.path)?.blobId;
  const { commitId: _commit, startDiffSide, comments, ...rest } = thread;
  return {
    ...rest,
    isOutdated,
    startDiffSide,
    line: isOutdated ? null : thread.line,
    startLine: isOutdated ? null : thread.startLine,
    comments: {
      pageInfo: { hasNextPage: comments.nodes.length > 100, endCursor: '100' },
      nodes: comments.nodes.slice(0, 100).map(({ reviewId: _review, ...c }) => c),
    },
  };
}
