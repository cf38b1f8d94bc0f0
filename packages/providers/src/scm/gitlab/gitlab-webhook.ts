import { createHash, createHmac } from 'node:crypto';
import {
  MarginError,
  type NormalizedWebhookEvent,
  type PullRequestStatus,
  type ScmWebhookV1,
  type WebhookComment,
  type WebhookHeaders,
} from '@margin/core/spec';
import { constantTimeEqual, isObject, type JsonObject, requiredFields } from '../../utils/index.js';

export interface GitLabWebhookOptions {
  /** Epoch milliseconds; injected so the signing-token replay window is testable. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** How far `webhook-timestamp` may be from now. Default 300 s, as Standard Webhooks suggests. */
  toleranceSeconds?: number | undefined;
}

/**
 * GitLab deliveries. Two ways to prove a delivery came from GitLab: the legacy `X-Gitlab-Token`
 * header carrying the secret itself, and (GitLab 19+) a signing token in Standard-Webhooks form
 * (`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`). When a signature is present
 * it decides alone: a wrong signature is refused even if the token header matches, because only the
 * signature covers the body.
 */
export function createGitLabWebhook(options: GitLabWebhookOptions = {}): ScmWebhookV1 {
  const now = options.now ?? Date.now;
  const tolerance = options.toleranceSeconds ?? 300;
  return {
    authenticate(headers, rawBody, secret) {
      if (!secret) return false;
      const signature = headers['webhook-signature'];
      if (signature !== undefined) return verifySignature(headers, signature, rawBody, secret, now(), tolerance);
      const token = headers['x-gitlab-token'];
      return token !== undefined && constantTimeEqual(token, secret);
    },
    parse: parseGitLabDelivery,
  };
}

function verifySignature(
  headers: WebhookHeaders,
  signature: string,
  rawBody: Uint8Array,
  secret: string,
  nowMs: number,
  toleranceSeconds: number,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (!id || !timestamp || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), rawBody]);
  const offered = signature
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => part.slice(3));
  return signingKeys(secret).some((key) => {
    const expected = createHmac('sha256', key).update(signed).digest('base64');
    return offered.some((candidate) => constantTimeEqual(candidate, expected));
  });
}

/**
 * The HMAC key(s) a secret stands for. GitLab takes signing tokens as `whsec_<base64 key>`; Margin's
 * generated secret is 64 hex characters, i.e. 32 key bytes, so the token to enter in GitLab is
 * `whsec_` + base64 of those bytes (see docs/providers/gitlab.md). A secret stored in `whsec_` form,
 * or used as raw text, works too.
 */
function signingKeys(secret: string): Buffer[] {
  if (secret.startsWith('whsec_')) return [Buffer.from(secret.slice('whsec_'.length), 'base64')];
  const keys = [Buffer.from(secret, 'utf8')];
  if (/^[0-9a-f]{64}$/i.test(secret)) keys.unshift(Buffer.from(secret, 'hex'));
  return keys;
}

const { object, integer, text } = requiredFields('GitLab delivery');

export function parseGitLabDelivery(headers: WebhookHeaders, body: unknown): NormalizedWebhookEvent {
  if (!isObject(body)) throw MarginError.validation('The GitLab delivery is not a JSON object.');
  const objectKind = typeof body.object_kind === 'string' ? body.object_kind : undefined;
  const eventType = headers['x-gitlab-event'] ?? objectKind ?? 'unknown';
  const idempotencyKey =
    headers['x-gitlab-event-uuid'] ??
    headers['webhook-id'] ??
    headers['idempotency-key'] ??
    headers['x-gitlab-webhook-uuid'] ??
    `gitlab:${createHash('sha256').update(JSON.stringify(body)).digest('hex')}`;

  if (objectKind === 'merge_request') {
    const attributes = object(body, 'object_attributes');
    const action = typeof attributes.action === 'string' ? attributes.action : undefined;
    return {
      kind: action === 'open' ? 'pullRequestCreated' : 'pullRequestUpdated',
      eventType,
      ...project(body),
      pullRequestId: integer(attributes, 'iid', 'object_attributes.iid'),
      sourceBranch: text(attributes, 'source_branch', 'object_attributes.source_branch'),
      targetBranch: text(attributes, 'target_branch', 'object_attributes.target_branch'),
      status: status(text(attributes, 'state', 'object_attributes.state')),
      headSha: lastCommit(attributes),
      idempotencyKey,
    };
  }
  if (objectKind === 'note') {
    const attributes = object(body, 'object_attributes');
    if (attributes.noteable_type !== 'MergeRequest') return { kind: 'unclassified', eventType, idempotencyKey };
    const mr = object(body, 'merge_request');
    return {
      kind: 'pullRequestCommented',
      eventType,
      ...project(body),
      pullRequestId: integer(mr, 'iid', 'merge_request.iid'),
      sourceBranch: text(mr, 'source_branch', 'merge_request.source_branch'),
      targetBranch: text(mr, 'target_branch', 'merge_request.target_branch'),
      status: status(text(mr, 'state', 'merge_request.state')),
      headSha: lastCommit(mr),
      idempotencyKey,
      comment: noteComment(body, attributes),
    };
  }
  return { kind: 'unclassified', eventType, idempotencyKey };
}

/**
 * The note as a comment: its discussion is the thread the adapter replies in. System notes ("added
 * 2 commits") are GitLab's, not anyone's words, and carry no comment.
 */
function noteComment(body: JsonObject, attributes: JsonObject): WebhookComment | undefined {
  if (attributes.system === true || typeof attributes.id !== 'number') return undefined;
  const user = isObject(body.user) ? body.user : {};
  const login = typeof user.username === 'string' ? user.username : 'unknown';
  return {
    commentId: String(attributes.id),
    threadId: typeof attributes.discussion_id === 'string' ? attributes.discussion_id : undefined,
    body: typeof attributes.note === 'string' ? attributes.note : '',
    author: {
      externalUserId: typeof user.id === 'number' ? String(user.id) : '',
      login,
      displayName: typeof user.name === 'string' && user.name ? user.name : login,
      isBot: user.bot === true,
    },
    createdAt: isoTime(attributes.created_at),
    isReviewComment: attributes.type === 'DiffNote',
  };
}

/** Hooks write `2026-10-02 16:00:00 UTC`; the API writes ISO 8601. */
function isoTime(value: unknown): string {
  if (typeof value !== 'string') return '';
  const hook = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC$/.exec(value);
  const parsed = Date.parse(hook ? `${hook[1]}T${hook[2]}Z` : value);
  return Number.isNaN(parsed) ? '' : new Date(parsed).toISOString();
}

/** The project the merge request lives in: id, path (as in its URL) and the group full path. */
function project(body: JsonObject): { repositoryId: string; repositoryName?: string; projectKey?: string } {
  const value = object(body, 'project');
  const repositoryId = String(integer(value, 'id', 'project.id'));
  const full = typeof value.path_with_namespace === 'string' ? value.path_with_namespace : undefined;
  if (!full) return { repositoryId };
  const slash = full.lastIndexOf('/');
  return {
    repositoryId,
    repositoryName: full.slice(slash + 1),
    projectKey: slash > 0 ? full.slice(0, slash) : undefined,
  };
}

function status(state: string): PullRequestStatus {
  if (state === 'opened') return 'open';
  if (state === 'merged') return 'merged';
  return 'closed';
}

function lastCommit(value: JsonObject): string | undefined {
  const commit = value.last_commit;
  return isObject(commit) && typeof commit.id === 'string' ? commit.id : undefined;
}
