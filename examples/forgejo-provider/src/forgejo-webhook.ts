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
  constantTimeEqual,
  hmacSha256Hex,
  isObject,
  type JsonObject,
  readBoolean,
  readNumber,
  readObject,
  readString,
} from '@margin/providers/utils';

/**
 * Forgejo signs each delivery with the webhook's secret: `X-Forgejo-Signature` (and the same value
 * as `X-Gitea-Signature`, which Gitea itself sends) is the hex HMAC-SHA256 of the payload.
 * `X-Forgejo-Event` / `X-Gitea-Event` names the event (`pull_request` also for a push to the pull
 * request, with `action: synchronized`), `X-Forgejo-Delivery` / `X-Gitea-Delivery` is the delivery's
 * UUID and so the idempotency key.
 *
 * A webhook set to the form content type (`payload=<json>`) is signed over the JSON payload, not
 * over the form body; both are accepted.
 */
export const forgejoWebhook: ScmWebhookV1 = {
  authenticate(headers: WebhookHeaders, rawBody: Uint8Array, secret: string): boolean {
    const signature = (headers['x-forgejo-signature'] ?? headers['x-gitea-signature'])?.trim();
    if (!signature || !secret || !/^[0-9a-f]{64}$/i.test(signature)) return false;
    return constantTimeEqual(signature.toLowerCase(), hmacSha256Hex(secret, signedPayload(headers, rawBody)));
  },

  parse(headers: WebhookHeaders, body: unknown): NormalizedWebhookEvent {
    const event = headers['x-forgejo-event'] ?? headers['x-gitea-event'];
    if (!event) throw MarginError.validation('The Forgejo delivery has no X-Forgejo-Event or X-Gitea-Event header.');
    const idempotencyKey = headers['x-forgejo-delivery'] ?? headers['x-gitea-delivery'];
    if (!idempotencyKey) {
      throw MarginError.validation('The Forgejo delivery has no X-Forgejo-Delivery or X-Gitea-Delivery header.');
    }
    const payload = payloadOf(body);
    const action = text(payload, 'action');
    const eventType = action ? `${event}.${action}` : event;
    const unclassified: NormalizedWebhookEvent = { kind: 'unclassified', eventType, idempotencyKey };

    if (event === 'pull_request') {
      const kind = PULL_REQUEST_ACTIONS[action ?? ''];
      return kind ? fromPullRequest(kind, eventType, idempotencyKey, payload) : unclassified;
    }
    // A review comment arrives as `pull_request_comment` with the pull request in the payload.
    if (event === 'pull_request_comment') {
      return withComment(fromPullRequest('pullRequestCommented', eventType, idempotencyKey, payload), payload, true);
    }
    if (event === 'issue_comment') {
      // Comments on plain issues come on the same hook; `is_pull` tells them apart.
      if (payload.is_pull !== true || action !== 'created') return unclassified;
      return withComment(fromIssueComment(eventType, idempotencyKey, payload), payload, false);
    }
    return unclassified;
  },
};

/** Pull request actions that can call for a review; assignments, labels and milestones cannot. */
const PULL_REQUEST_ACTIONS: Record<string, WebhookEventKind> = {
  opened: 'pullRequestCreated',
  synchronized: 'pullRequestUpdated',
  reopened: 'pullRequestUpdated',
  edited: 'pullRequestUpdated',
  closed: 'pullRequestUpdated',
};

function signedPayload(headers: WebhookHeaders, rawBody: Uint8Array): Uint8Array {
  if (!(headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return rawBody;
  const payload = new URLSearchParams(Buffer.from(rawBody).toString('utf8')).get('payload');
  return payload === null ? rawBody : Buffer.from(payload, 'utf8');
}

function payloadOf(body: unknown): JsonObject {
  let value = body;
  // A form-encoded delivery parsed as a form carries its JSON in `payload`.
  if (isObject(value) && typeof value.payload === 'string' && Object.keys(value).length === 1) {
    try {
      value = JSON.parse(value.payload);
    } catch {
      throw MarginError.validation('The Forgejo delivery carries a payload that is not JSON.');
    }
  }
  if (!isObject(value)) throw MarginError.validation('A Forgejo webhook body must be a JSON object.');
  return value;
}

function repository(payload: JsonObject, eventType: string) {
  const repo = readObject(payload, 'repository');
  const id = readNumber(repo, 'id');
  if (id === undefined) throw MarginError.validation(`The Forgejo ${eventType} delivery has no repository id.`);
  return { repositoryId: String(id), repositoryName: text(repo, 'name'), projectKey: text(repo, 'owner', 'login') };
}

function fromPullRequest(
  kind: WebhookEventKind,
  eventType: string,
  idempotencyKey: string,
  payload: JsonObject,
): NormalizedWebhookEvent {
  const pr = readObject(payload, 'pull_request');
  const number = readNumber(pr, 'number') ?? readNumber(payload, 'number');
  const sourceBranch = text(pr, 'head', 'ref');
  const targetBranch = text(pr, 'base', 'ref');
  const state = text(pr, 'state');
  if (number === undefined || !sourceBranch || !targetBranch || !state) {
    throw MarginError.validation(`The Forgejo ${eventType} delivery lacks the pull request (number, branches, state).`);
  }
  return {
    kind,
    eventType,
    ...repository(payload, eventType),
    pullRequestId: number,
    sourceBranch,
    targetBranch,
    status: statusOf(state, readBoolean(pr, 'merged') === true || Boolean(text(pr, 'merged_at'))),
    headSha: text(pr, 'head', 'sha'),
    idempotencyKey,
  };
}

/**
 * An `issue_comment` on a pull request carries the issue, not the pull request: no branches and no
 * head SHA. They are left empty; the receiver reads the pull request by number before acting.
 */
function fromIssueComment(eventType: string, idempotencyKey: string, payload: JsonObject): NormalizedWebhookEvent {
  const issue = readObject(payload, 'issue');
  const number = readNumber(issue, 'number');
  const state = text(issue, 'state');
  if (number === undefined || !state) {
    throw MarginError.validation(`The Forgejo ${eventType} delivery lacks the issue number or state.`);
  }
  const meta = readObject(issue, 'pull_request');
  return {
    kind: 'pullRequestCommented',
    eventType,
    ...repository(payload, eventType),
    pullRequestId: number,
    sourceBranch: '',
    targetBranch: '',
    status: statusOf(state, readBoolean(meta, 'merged') === true || Boolean(text(meta, 'merged_at'))),
    idempotencyKey,
  };
}

/**
 * The comment a delivery announces. It names no thread: answers to Forgejo comments are new
 * comments that quote the question.
 */
function withComment(
  event: NormalizedWebhookEvent,
  payload: JsonObject,
  isReviewComment: boolean,
): NormalizedWebhookEvent {
  const comment = readObject(payload, 'comment');
  const id = readNumber(comment, 'id');
  if (event.kind === 'unclassified' || id === undefined) return event;
  const login = text(comment, 'user', 'login') ?? 'unknown';
  const userId = readNumber(comment, 'user', 'id');
  const found: WebhookComment = {
    commentId: String(id),
    body: readString(comment, 'body') ?? '',
    author: {
      externalUserId: userId === undefined ? '' : String(userId),
      login,
      displayName: text(comment, 'user', 'full_name') ?? login,
      isBot: false,
    },
    createdAt: text(comment, 'created_at') ?? '',
    isReviewComment,
  };
  return { ...event, comment: found };
}

function statusOf(state: string, merged: boolean): PullRequestStatus {
  if (state === 'open') return 'open';
  return merged ? 'merged' : 'closed';
}

/** The non-empty string at `path`: Forgejo sends `""` for an unset field. */
function text(value: unknown, ...path: string[]): string | undefined {
  return readString(value, ...path) || undefined;
}
