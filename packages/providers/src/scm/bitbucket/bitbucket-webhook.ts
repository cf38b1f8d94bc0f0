import { createHash } from 'node:crypto';
import {
  MarginError,
  type NormalizedWebhookEvent,
  type PullRequestStatus,
  type ScmWebhookV1,
  type WebhookComment,
  type WebhookHeaders,
} from '@margin/core/spec';
import { isObject, type JsonObject, requiredFields, verifySha256Signature } from '../../utils/index.js';
import { toUser } from './bitbucket-mapping.js';
import type { BbUser } from './bitbucket-wire.js';

/**
 * Bitbucket Cloud deliveries: `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with the
 * webhook's secret, compared in constant time. Bitbucket sends nothing else to authenticate with.
 */
export function createBitbucketWebhook(): ScmWebhookV1 {
  return {
    authenticate: (headers, rawBody, secret) => verifySha256Signature(headers['x-hub-signature'], rawBody, secret),
    parse: parseBitbucketDelivery,
  };
}

const { object, integer, text, invalid } = requiredFields('Bitbucket delivery');

/** Pull request events that are not about comments; all but `created` are updates. */
const COMMENT_EVENT = /^pullrequest:comment_/;

export function parseBitbucketDelivery(headers: WebhookHeaders, body: unknown): NormalizedWebhookEvent {
  const eventType = headers['x-event-key'];
  if (!eventType) throw invalid('X-Event-Key', 'header is missing');
  if (!isObject(body)) throw MarginError.validation('The Bitbucket delivery is not a JSON object.');
  const idempotencyKey = idempotencyKeyOf(headers, eventType, body);

  let kind: 'pullRequestCreated' | 'pullRequestUpdated' | 'pullRequestCommented';
  if (eventType === 'pullrequest:created') kind = 'pullRequestCreated';
  else if (eventType === 'pullrequest:comment_created') kind = 'pullRequestCommented';
  else if (eventType.startsWith('pullrequest:') && !COMMENT_EVENT.test(eventType)) kind = 'pullRequestUpdated';
  else return { kind: 'unclassified', eventType, idempotencyKey };

  const pr = object(body, 'pullrequest', 'pullrequest');
  const repository = object(body, 'repository', 'repository');
  const source = object(pr, 'source', 'pullrequest.source');
  const destination = object(pr, 'destination', 'pullrequest.destination');
  const fullName = typeof repository.full_name === 'string' ? repository.full_name : undefined;
  const workspace = isObject(repository.workspace) ? repository.workspace.slug : undefined;
  const head = isObject(source.commit) ? source.commit.hash : undefined;
  return {
    kind,
    eventType,
    repositoryId: text(repository, 'uuid', 'repository.uuid'),
    repositoryName: fullName ? fullName.slice(fullName.lastIndexOf('/') + 1) : undefined,
    projectKey: typeof workspace === 'string' ? workspace : fullName?.split('/')[0],
    pullRequestId: integer(pr, 'id', 'pullrequest.id'),
    sourceBranch: branchOf(source, 'pullrequest.source.branch.name'),
    targetBranch: branchOf(destination, 'pullrequest.destination.branch.name'),
    status: statusOf(eventType, text(pr, 'state', 'pullrequest.state')),
    // Bitbucket payloads carry 12-character hashes; only a full SHA is worth passing on.
    headSha: typeof head === 'string' && /^[0-9a-f]{40}$/i.test(head) ? head : undefined,
    idempotencyKey,
    comment: kind === 'pullRequestCommented' && isObject(body.comment) ? commentOf(body.comment) : undefined,
  };
}

/**
 * The new comment. A reply names its parent, a top-level comment is its own thread's root: the
 * adapter replies by posting a comment with that parent.
 */
function commentOf(comment: JsonObject): WebhookComment | undefined {
  if (typeof comment.id !== 'number') return undefined;
  const content = isObject(comment.content) ? comment.content : {};
  const parent = isObject(comment.parent) && typeof comment.parent.id === 'number' ? comment.parent.id : undefined;
  return {
    commentId: String(comment.id),
    threadId: String(parent ?? comment.id),
    body: typeof content.raw === 'string' ? content.raw : '',
    author: toUser(isObject(comment.user) ? (comment.user as BbUser) : undefined),
    createdAt: typeof comment.created_on === 'string' ? comment.created_on : '',
    isReviewComment: isObject(comment.inline),
  };
}

/**
 * `X-Request-UUID` names one delivery and stays the same on Bitbucket's retries. Without it, the
 * webhook's own `X-Hook-UUID` plus what the event is about keeps distinct events apart.
 */
function idempotencyKeyOf(headers: WebhookHeaders, eventType: string, body: JsonObject): string {
  const request = headers['x-request-uuid'];
  if (request) return `${eventType}:${request}`;
  const digest = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  return `${eventType}:${headers['x-hook-uuid'] ?? 'unknown-hook'}:${digest}`;
}

/** The event says more than the state in its payload (a `fulfilled` delivery is a merge). */
function statusOf(eventType: string, state: string): PullRequestStatus {
  if (eventType === 'pullrequest:fulfilled' || state === 'MERGED') return 'merged';
  if (eventType === 'pullrequest:rejected' || state === 'DECLINED' || state === 'SUPERSEDED') return 'closed';
  return 'open';
}

function branchOf(endpoint: JsonObject, path: string): string {
  const branch = endpoint.branch;
  if (!isObject(branch)) throw invalid(path, 'must be a non-empty string');
  return text(branch, 'name', path);
}
