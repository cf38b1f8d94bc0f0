import type { FakeRequest } from '../../testing/fake-http-server.js';
import { type AzureDevOpsFakeContext, adoFixture, notFound, R } from './azure-devops-fake-context.js';
import type { AdoComment, AdoThread, AdoThreadContext } from './azure-devops-wire.js';

/** Who the fake says wrote what the adapter posts: the identity `connectionData` names. */
const BOT = {
  id: '8c4a5b7e-1f2d-4e3c-9a8b-7c6d5e4f3a2b',
  displayName: 'Margin Review Bot',
  uniqueName: 'margin-bot@acme.example',
};

/** Pull request threads with their property bag: listed, created, replied to, resolved, edited. */
export function serveThreads(fake: AzureDevOpsFakeContext): void {
  const { route, pr, threadsOf } = fake;
  const findThread = (req: FakeRequest) =>
    fake.threadsByPull.get(Number(req.params.id))?.find((t) => String(t.id) === req.params.thread);
  let nextThreadId = 1000;

  route('GET', `${R}/pullRequests/:id/threads`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    const value = threadsOf(found.pullRequestId);
    return { json: { value, count: value.length } };
  });

  route('POST', `${R}/pullRequests/:id/threads`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    const body = req.json as Partial<AdoThread> & { comments: Array<Partial<AdoComment>> };
    if (refused(fake, body.threadContext)) return { status: 400, json: adoFixture('error-thread-refused') };
    const thread = newThread(nextThreadId++, body);
    threadsOf(found.pullRequestId).push(thread);
    return { json: thread };
  });

  route('PATCH', `${R}/pullRequests/:id/threads/:thread/comments/:comment`, (req) => {
    const comment = findThread(req)?.comments.find((c) => String(c.id) === req.params.comment);
    if (!comment) return { status: 404, json: { message: 'TF401182: The requested comment was not found.' } };
    const content = (req.json as { content?: string } | undefined)?.content;
    if (typeof content === 'string') comment.content = content;
    return { json: comment };
  });

  route('POST', `${R}/pullRequests/:id/threads/:thread/comments`, (req) => {
    const thread = findThread(req);
    if (!thread)
      return {
        status: 404,
        json: {
          message: 'TF401181: The requested thread was not found.',
          typeKey: 'GitPullRequestThreadNotFoundException',
        },
      };
    const body = req.json as Partial<AdoComment>;
    const comment: AdoComment = {
      id: thread.comments.length + 1,
      parentCommentId: body.parentCommentId ?? 0,
      author: personOf(req) ?? BOT,
      content: body.content ?? '',
      commentType: body.commentType ?? 'text',
      publishedDate: new Date().toISOString(),
    };
    thread.comments.push(comment);
    return { json: comment };
  });

  route('PATCH', `${R}/pullRequests/:id/threads/:thread`, (req) => {
    const thread = findThread(req);
    if (!thread) return { status: 404, json: { message: 'TF401181: The requested thread was not found.' } };
    const body = req.json as { status?: string };
    if (body.status) thread.status = body.status;
    return { json: thread };
  });
}

/**
 * Tests reply as a person (not the connection's identity) with an `x-fake-author` header naming
 * them; Azure DevOps itself takes the author from the credentials.
 */
function personOf(req: FakeRequest) {
  const name = req.headers['x-fake-author'];
  if (typeof name !== 'string' || !name) return undefined;
  return { id: `person-${name}`, displayName: name, uniqueName: `${name}@acme.example` };
}

/** Azure DevOps takes a comment on any line; it refuses a malformed position (and the files a test names). */
function refused(fake: AzureDevOpsFakeContext, context: AdoThreadContext | null | undefined): boolean {
  if (!context) return false;
  const positions = [context.rightFileStart, context.rightFileEnd, context.leftFileStart, context.leftFileEnd];
  return (
    !context.filePath.startsWith('/') ||
    fake.refusedPaths.has(context.filePath.slice(1)) ||
    positions.some((p) => p && (p.line < 1 || p.offset < 1))
  );
}

function newThread(id: number, body: Partial<AdoThread> & { comments: Array<Partial<AdoComment>> }): AdoThread {
  const now = new Date().toISOString();
  return {
    id,
    status: body.status ?? 'active',
    threadContext: body.threadContext ?? null,
    pullRequestThreadContext: body.pullRequestThreadContext ?? null,
    // Azure DevOps adds its own properties next to the ones it was sent.
    properties: {
      'Microsoft.TeamFoundation.Discussion.SupportsMarkdown': { $type: 'System.Int32', $value: 1 },
      'Microsoft.TeamFoundation.Discussion.UniqueID': {
        $type: 'System.String',
        $value: `0b1c2d3e-4f5a-4b6c-8d9e-${String(id).padStart(12, '0')}`,
      },
      ...body.properties,
    },
    isDeleted: false,
    comments: body.comments.map((c, i) => ({
      id: i + 1,
      parentCommentId: c.parentCommentId ?? 0,
      author: BOT,
      content: c.content ?? '',
      commentType: c.commentType ?? 'text',
      publishedDate: now,
    })),
  };
}
