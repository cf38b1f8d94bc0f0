import {
  MarginError,
  type NormalizedWebhookEvent,
  type PullRequestStatus,
  type ScmWebhookV1,
  type WebhookComment,
  type WebhookEventKind,
  type WebhookHeaders,
} from '@margin/core/spec';
import {
  isObject,
  type JsonObject,
  readBoolean,
  readNumber,
  readObject,
  readString,
  verifySha256Signature,
} from '../../utils/index.js';
import { REVIEW_THREAD_PREFIX } from './github-wire.js';

/**
 * GitHub signs each delivery: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, raw body)>`.
 * `X-GitHub-Delivery` is the delivery GUID (kept on redelivery), so it is the idempotency key.
 */
export const gitHubWebhook: ScmWebhookV1 = {
  authenticate(headers: WebhookHeaders, rawBody: Uint8Array, secret: string): boolean {
    return verifySha256Signature(headers['x-hub-signature-256'], rawBody, secret);
  },

  parse(headers: WebhookHeaders, body: unknown): NormalizedWebhookEvent {
    const event = headers['x-github-event'];
    if (!event) throw MarginError.validation('The GitHub delivery has no X-GitHub-Event header.');
    const idempotencyKey = headers['x-github-delivery'];
    if (!idempotencyKey) throw MarginError.validation('The GitHub delivery has no X-GitHub-Delivery header.');
    if (!isObject(body)) throw MarginError.validation('A GitHub webhook body must be a JSON object.');
    const action = readString(body, 'action');
    const eventType = action ? `${event}.${action}` : event;
    const unclassified: NormalizedWebhookEvent = { kind: 'unclassified', eventType, idempotencyKey };

    if (event === 'pull_request') {
      const kind: WebhookEventKind = action === 'opened' ? 'pullRequestCreated' : 'pullRequestUpdated';
      return fromPullRequest(kind, eventType, idempotencyKey, body, readObject(body, 'pull_request'));
    }
    if (event === 'pull_request_review_comment') {
      // Edits and deletions of a comment are not new comments.
      if (action !== 'created') return unclassified;
      const event = fromPullRequest(
        'pullRequestCommented',
        eventType,
        idempotencyKey,
        body,
        readObject(body, 'pull_request'),
      );
      return withComment(event, body, 'review');
    }
    if (event === 'issue_comment') {
      const issue = readObject(body, 'issue');
      if (!issue) throw MarginError.validation('The GitHub issue_comment delivery has no issue.');
      // Comments on plain issues arrive on the same hook; only pull requests carry `issue.pull_request`.
      if (!readObject(issue, 'pull_request') || action !== 'created') return unclassified;
      return withComment(fromIssue(eventType, idempotencyKey, body, issue), body, 'issue');
    }
    return unclassified;
  },
};

function repository(body: JsonObject, eventType: string) {
  const id = readNumber(body, 'repository', 'id');
  if (id === undefined) throw MarginError.validation(`The GitHub ${eventType} delivery has no repository id.`);
  return {
    repositoryId: String(id),
    repositoryName: readString(body, 'repository', 'name'),
    projectKey: readString(body, 'repository', 'owner', 'login'),
  };
}

function fromPullRequest(
  kind: WebhookEventKind,
  eventType: string,
  idempotencyKey: string,
  body: JsonObject,
  pr: JsonObject | undefined,
): NormalizedWebhookEvent {
  const pullRequestId = readNumber(pr, 'number');
  const sourceBranch = readString(pr, 'head', 'ref');
  const targetBranch = readString(pr, 'base', 'ref');
  const state = readString(pr, 'state');
  if (pullRequestId === undefined || !sourceBranch || !targetBranch || !state) {
    throw MarginError.validation(`The GitHub ${eventType} delivery lacks the pull request (number, branches, state).`);
  }
  const merged = readBoolean(pr, 'merged') === true || readString(pr, 'merged_at') !== undefined;
  return {
    kind,
    eventType,
    ...repository(body, eventType),
    pullRequestId,
    sourceBranch,
    targetBranch,
    status: statusOf(state, merged),
    headSha: readString(pr, 'head', 'sha'),
    idempotencyKey,
  };
}

/**
 * An `issue_comment` on a pull request carries the issue, not the pull request: no branches and no
 * head SHA. They are left empty; the receiver reads the pull request by number before acting.
 */
function fromIssue(
  eventType: string,
  idempotencyKey: string,
  body: JsonObject,
  issue: JsonObject,
): NormalizedWebhookEvent {
  const pullRequestId = readNumber(issue, 'number');
  const state = readString(issue, 'state');
  if (pullRequestId === undefined || !state) {
    throw MarginError.validation(`The GitHub ${eventType} delivery lacks the issue number or state.`);
  }
  return {
    kind: 'pullRequestCommented',
    eventType,
    ...repository(body, eventType),
    pullRequestId,
    sourceBranch: '',
    targetBranch: '',
    status: statusOf(state, readString(issue, 'pull_request', 'merged_at') !== undefined),
    idempotencyKey,
  };
}

/**
 * The comment a delivery announces. A review comment's thread is named as the adapter's threads
 * are (`review-comment:<root comment id>`, replies naming their root in `in_reply_to_id`); a
 * conversation comment opens no thread, so it has none.
 */
function withComment(
  event: NormalizedWebhookEvent,
  body: JsonObject,
  kind: 'review' | 'issue',
): NormalizedWebhookEvent {
  const comment = readObject(body, 'comment');
  const id = readNumber(comment, 'id');
  if (event.kind === 'unclassified' || !comment || id === undefined) return event;
  const user = readObject(comment, 'user');
  const userId = readNumber(user, 'id');
  const login = readString(user, 'login') ?? 'ghost';
  const root = readNumber(comment, 'in_reply_to_id') ?? id;
  const webhookComment: WebhookComment = {
    commentId: String(id),
    body: readString(comment, 'body') ?? '',
    author: {
      externalUserId: userId === undefined ? '' : String(userId),
      login,
      displayName: readString(user, 'name') ?? login,
      isBot: readString(user, 'type') === 'Bot',
    },
    createdAt: readString(comment, 'created_at') ?? '',
    isReviewComment: kind === 'review',
  };
  if (kind === 'review') webhookComment.threadId = `${REVIEW_THREAD_PREFIX}${root}`;
  return { ...event, comment: webhookComment };
}

function statusOf(state: string, merged: boolean): PullRequestStatus {
  if (state === 'open') return 'open';
  return merged ? 'merged' : 'closed';
}
