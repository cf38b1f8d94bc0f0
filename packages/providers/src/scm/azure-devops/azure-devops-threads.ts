import {
  type CreatedThread,
  type CreateThreadInput,
  MarginError,
  type PullRequestRef,
  type ReviewThread,
  type ScmProviderV1,
  type ThreadStatus,
} from '@margin/core/spec';
import { createThreadsOneByOne } from '../shared/index.js';
import type { ChangeTrackingIds } from './azure-devops-change-tracking.js';
import { type AzureDevOpsConnection, getJson, pullRequestUrl, type Signal } from './azure-devops-connection.js';
import { resolveIterationId } from './azure-devops-pull-requests.js';
import {
  type AdoComment,
  type AdoList,
  type AdoThread,
  inlineThreadBody,
  pullRequestThreadBody,
  toReviewThread,
} from './azure-devops-wire.js';

/**
 * Pull request threads: listing, creating (one request each; there is no batch), replying,
 * resolving and editing. Inline threads pin to the iteration and the file's change tracking id;
 * hidden thread markers live in the thread's property bag.
 */
export function azureDevOpsThreads(
  ado: AzureDevOpsConnection,
  trackingIds: ChangeTrackingIds,
): Pick<ScmProviderV1, 'listThreads' | 'createThread' | 'createThreads' | 'editComment' | 'reply' | 'setThreadStatus'> {
  const { client } = ado;

  return {
    async *listThreads(ref, options): AsyncGenerator<ReviewThread> {
      const signal = options?.signal;
      const self = await ado.connectionUser.get();
      // The threads endpoint is not paged: one answer holds every thread of the pull request.
      const { value } = await getJson<AdoList<AdoThread>>(ado, threadsUrl(ado, ref), signal);
      for (const thread of value) {
        const mapped = toReviewThread(thread, self.id);
        if (mapped) yield mapped;
      }
    },

    async createThread(ref, input: CreateThreadInput, options): Promise<CreatedThread> {
      return createThread(ado, trackingIds, ref, input, options?.signal);
    },

    async createThreads(ref, { revision, threads }, options) {
      // Azure DevOps has no batch: one thread per request, each refused on its own.
      const signal = options?.signal;
      return createThreadsOneByOne(
        threads,
        (thread) => createThread(ado, trackingIds, ref, { ...thread, revision }, signal),
        signal,
      );
    },

    /** Only the comment's content changes: the marker sits in the thread's properties and stays. */
    async editComment(ref, input, options) {
      await client.request({
        method: 'PATCH',
        url: `${threadsUrl(ado, ref)}/${encodeURIComponent(input.threadId)}/comments/${encodeURIComponent(input.commentId)}`,
        json: { content: input.body },
        responseType: 'none',
        signal: options?.signal,
      });
    },

    async reply(ref, threadId, body, options) {
      // Replies hang off the thread's first comment, which Azure DevOps always numbers 1.
      const { data } = await client.request<AdoComment>({
        method: 'POST',
        url: `${threadsUrl(ado, ref)}/${encodeURIComponent(threadId)}/comments`,
        json: { content: body, parentCommentId: 1, commentType: 'text' },
        signal: options?.signal,
      });
      return { commentId: String(data.id) };
    },

    async setThreadStatus(ref, threadId, status: ThreadStatus, options) {
      await client.request({
        method: 'PATCH',
        url: `${threadsUrl(ado, ref)}/${encodeURIComponent(threadId)}`,
        json: { status: status === 'resolved' ? 'fixed' : 'active' },
        responseType: 'none',
        signal: options?.signal,
      });
    },
  };
}

async function createThread(
  ado: AzureDevOpsConnection,
  trackingIds: ChangeTrackingIds,
  ref: PullRequestRef,
  input: CreateThreadInput,
  signal: Signal,
): Promise<CreatedThread> {
  let body: ReturnType<typeof pullRequestThreadBody>;
  if (input.anchor) {
    const iterationId = await resolveIterationId(ado, ref, input.revision, signal);
    const changeTrackingId =
      iterationId === undefined ? undefined : await trackingIds.of(ref, iterationId, input.anchor.filePath, signal);
    body = inlineThreadBody({
      body: input.body,
      anchor: input.anchor,
      iterationId,
      changeTrackingId,
      status: input.status,
      marker: input.marker,
    });
  } else {
    body = pullRequestThreadBody(input.body, input.status, input.marker);
  }
  const { data } = await ado.client.request<AdoThread>({
    method: 'POST',
    url: threadsUrl(ado, ref),
    json: body,
    signal,
  });
  const first = data.comments[0];
  if (!first) throw MarginError.provider('invalidResponse', 'Azure DevOps created a thread without a comment.');
  return { threadId: String(data.id), commentId: String(first.id) };
}

function threadsUrl(ado: AzureDevOpsConnection, ref: PullRequestRef): string {
  return `${pullRequestUrl(ado, ref)}/threads`;
}
