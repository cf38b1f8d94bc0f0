import { createHash } from 'node:crypto';
import {
  MarginError,
  type NormalizedWebhookEvent,
  type ScmWebhookV1,
  type WebhookComment,
  type WebhookEventKind,
  type WebhookHeaders,
} from '@margin/core/spec';
import { constantTimeEqual, isObject, type JsonObject, readNumber, readObject, readString } from '../../utils/index.js';
import { branchName } from '../shared/index.js';
import { pullRequestStatus, toUser } from './azure-devops-wire.js';

const KINDS: Readonly<Record<string, WebhookEventKind>> = {
  'git.pullrequest.created': 'pullRequestCreated',
  'git.pullrequest.updated': 'pullRequestUpdated',
  'ms.vss-code.git-pullrequest-comment-event': 'pullRequestCommented',
  'git.pullrequest.commented': 'pullRequestCommented',
};

/**
 * Azure DevOps service hooks ("Web Hooks" consumer) sign nothing: the subscription sends
 * `Authorization: Basic base64(user:password)`. Any user name is accepted; the password must be the
 * webhook configuration's generated secret.
 */
export const azureDevOpsWebhook: ScmWebhookV1 = {
  authenticate(headers: WebhookHeaders, _rawBody: Uint8Array, secret: string): boolean {
    const header = headers.authorization;
    if (!header || !secret) return false;
    const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
    if (!match?.[1]) return false;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return false;
    return constantTimeEqual(decoded.slice(colon + 1), secret);
  },

  parse(_headers: WebhookHeaders, body: unknown): NormalizedWebhookEvent {
    if (!isObject(body)) throw MarginError.validation('An Azure DevOps service hook body must be a JSON object.');
    const eventType = readString(body, 'eventType');
    if (!eventType) throw MarginError.validation('The Azure DevOps service hook has no eventType.');
    const idempotencyKey = idempotencyKeyOf(body);
    const kind = KINDS[eventType];
    if (!kind) return { kind: 'unclassified', eventType, idempotencyKey };

    // Comment events wrap the pull request; the others are the pull request.
    const pr =
      kind === 'pullRequestCommented' ? readObject(body, 'resource', 'pullRequest') : readObject(body, 'resource');
    const pullRequestId = readNumber(pr, 'pullRequestId');
    const repositoryId = readString(pr, 'repository', 'id');
    const sourceRef = readString(pr, 'sourceRefName');
    const targetRef = readString(pr, 'targetRefName');
    const status = readString(pr, 'status');
    if (pullRequestId === undefined || !repositoryId || !sourceRef || !targetRef || !status) {
      throw MarginError.validation(
        `The Azure DevOps ${eventType} event lacks the pull request (id, repository, branches, status); ` +
          'set "Resource details to send" to All.',
      );
    }
    return {
      kind,
      eventType,
      repositoryId,
      repositoryName: readString(pr, 'repository', 'name'),
      projectKey: readString(pr, 'repository', 'project', 'name'),
      pullRequestId,
      sourceBranch: branchName(sourceRef),
      targetBranch: branchName(targetRef),
      status: pullRequestStatus(status),
      headSha: readString(pr, 'lastMergeSourceCommit', 'commitId'),
      idempotencyKey,
      comment: kind === 'pullRequestCommented' ? commentOf(readObject(body, 'resource', 'comment')) : undefined,
    };
  },
};

/**
 * The comment of a comment event. Its thread is named only in its own address
 * (`…/pullRequests/42/threads/103/comments/1`); comment ids count from 1 in every thread.
 */
function commentOf(comment: JsonObject | undefined): WebhookComment | undefined {
  const id = readNumber(comment, 'id');
  if (!comment || id === undefined) return undefined;
  const threadId = /\/threads\/(\d+)\/comments\/\d+$/.exec(readString(comment, '_links', 'self', 'href') ?? '')?.[1];
  const author = readObject(comment, 'author');
  return {
    commentId: String(id),
    threadId,
    body: readString(comment, 'content') ?? '',
    author: toUser({
      id: readString(author, 'id') ?? '',
      displayName: readString(author, 'displayName'),
      uniqueName: readString(author, 'uniqueName'),
      descriptor: readString(author, 'descriptor'),
    }),
    createdAt: readString(comment, 'publishedDate') ?? '',
  };
}

/**
 * Retries of one notification keep the event `id` (a GUID); old payloads without it have
 * `notificationId`. A body with neither (the spec's minimal `eventType` + `resource`) is keyed by its
 * content, so the same body sent twice is one delivery and a changed one is another.
 */
function idempotencyKeyOf(body: JsonObject): string {
  const id = readString(body, 'id');
  if (id) return id;
  const notificationId = readNumber(body, 'notificationId');
  const subscriptionId = readString(body, 'subscriptionId');
  if (notificationId !== undefined) return `${subscriptionId ?? 'subscription'}:${notificationId}`;
  return `content:${createHash('sha256').update(canonicalJson(body)).digest('hex')}`;
}

/** JSON with object keys sorted, so the same content hashes the same however it was written. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
