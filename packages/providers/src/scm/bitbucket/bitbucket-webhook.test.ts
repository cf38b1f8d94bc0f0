import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MarginError, type WebhookHeaders } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { bitbucketFamily } from './index.js';

const SECRET = '9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f';
const REPO_UUID = '{5b7f0a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b}';
const webhook = bitbucketFamily().webhook;

function raw(name: string): Buffer {
  return readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url));
}

function sign(body: Uint8Array, secret = SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function delivery(name: string, eventKey: string, extra: WebhookHeaders = {}) {
  const body = raw(name);
  const headers: WebhookHeaders = {
    'content-type': 'application/json',
    'user-agent': 'Bitbucket-Webhooks/2.0',
    'x-event-key': eventKey,
    'x-hook-uuid': '2d5c7a1e-9f3b-4e8a-b6c4-1a2b3c4d5e6f',
    'x-request-uuid': '8f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
    'x-attempt-number': '1',
    'x-hub-signature': sign(body),
    ...extra,
  };
  return { headers, body, json: JSON.parse(body.toString('utf8')) as unknown };
}

function malformed(fn: () => unknown): MarginError {
  try {
    fn();
  } catch (error) {
    if (MarginError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('Bitbucket webhook authentication', () => {
  it('accepts X-Hub-Signature sha256= HMAC of the raw body', () => {
    const { headers, body } = delivery('hook-pullrequest-created', 'pullrequest:created');
    expect(webhook.authenticate(headers, body, SECRET)).toBe(true);
  });

  it('accepts an upper-case hex digest', () => {
    const { headers, body } = delivery('hook-pullrequest-created', 'pullrequest:created');
    const upper = `sha256=${String(headers['x-hub-signature']).slice(7).toUpperCase()}`;
    expect(webhook.authenticate({ ...headers, 'x-hub-signature': upper }, body, SECRET)).toBe(true);
  });

  it('refuses a signature made with another secret, a tampered body, and a missing header', () => {
    const { headers, body } = delivery('hook-pullrequest-created', 'pullrequest:created', {
      'x-hub-signature': sign(raw('hook-pullrequest-created'), 'another secret'),
    });
    expect(webhook.authenticate(headers, body, SECRET)).toBe(false);
    const good = delivery('hook-pullrequest-created', 'pullrequest:created');
    const tampered = Buffer.from(good.body.toString('utf8').replace('"id": 42', '"id": 43'));
    expect(webhook.authenticate(good.headers, tampered, SECRET)).toBe(false);
    const { 'x-hub-signature': _dropped, ...unsigned } = good.headers;
    expect(webhook.authenticate(unsigned, good.body, SECRET)).toBe(false);
    expect(webhook.authenticate({ ...good.headers, 'x-hub-signature': 'sha1=abc' }, good.body, SECRET)).toBe(false);
    expect(webhook.authenticate(good.headers, good.body, '')).toBe(false);
  });
});

describe('Bitbucket webhook parsing', () => {
  const base = {
    repositoryId: REPO_UUID,
    repositoryName: 'uploader',
    projectKey: 'acme',
    pullRequestId: 42,
    sourceBranch: 'feature/retries',
    targetBranch: 'main',
    headSha: undefined,
  };

  it.each([
    ['hook-pullrequest-created', 'pullrequest:created', 'pullRequestCreated', 'open'],
    ['hook-pullrequest-updated', 'pullrequest:updated', 'pullRequestUpdated', 'open'],
    ['hook-pullrequest-fulfilled', 'pullrequest:fulfilled', 'pullRequestUpdated', 'merged'],
    ['hook-pullrequest-rejected', 'pullrequest:rejected', 'pullRequestUpdated', 'closed'],
    ['hook-pullrequest-updated', 'pullrequest:approved', 'pullRequestUpdated', 'open'],
  ] as const)('turns %s sent as %s into %s (%s)', (name, eventKey, kind, status) => {
    const { headers, json } = delivery(name, eventKey);
    expect(webhook.parse(headers, json)).toEqual({
      ...base,
      kind,
      status,
      eventType: eventKey,
      idempotencyKey: `${eventKey}:8f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0`,
    });
  });

  it('turns a new comment into pullRequestCommented carrying the comment', () => {
    const { headers, json } = delivery('hook-pullrequest-comment-created', 'pullrequest:comment_created');
    expect(webhook.parse(headers, json)).toEqual({
      ...base,
      kind: 'pullRequestCommented',
      status: 'open',
      eventType: 'pullrequest:comment_created',
      idempotencyKey: 'pullrequest:comment_created:8f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
      comment: {
        commentId: '504',
        threadId: '504',
        body: 'Why 250?',
        author: {
          externalUserId: '{9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a}',
          login: 'grace',
          displayName: 'Grace Hopper',
          isBot: false,
        },
        createdAt: '2026-10-02T17:00:00.000000+00:00',
        isReviewComment: true,
      },
    });
    const reply = json as { comment: Record<string, unknown> };
    expect(
      webhook.parse(headers, {
        ...reply,
        comment: { ...reply.comment, id: 505, parent: { id: 504 }, inline: undefined },
      }),
    ).toMatchObject({ comment: { commentId: '505', threadId: '504', isReviewComment: false } });
  });

  it('leaves other comment events, pushes and unknown events unclassified', () => {
    for (const [name, eventKey] of [
      ['hook-pullrequest-comment-resolved', 'pullrequest:comment_resolved'],
      ['hook-repo-push', 'repo:push'],
      ['hook-repo-push', 'issue:created'],
    ] as const) {
      const { headers, json } = delivery(name, eventKey);
      expect(webhook.parse(headers, json)).toEqual({
        kind: 'unclassified',
        eventType: eventKey,
        idempotencyKey: `${eventKey}:8f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0`,
      });
    }
  });

  it('passes a full head SHA on and keys deliveries without X-Request-UUID by hook and content', () => {
    const { headers, json } = delivery('hook-pullrequest-updated', 'pullrequest:updated');
    const full = structuredClone(json) as { pullrequest: { source: { commit: { hash: string } } } };
    full.pullrequest.source.commit.hash = '1'.repeat(40);
    const { 'x-request-uuid': _dropped, ...noRequestId } = headers;
    const event = webhook.parse(noRequestId, full);
    expect(event).toMatchObject({ headSha: '1'.repeat(40) });
    expect(event.idempotencyKey).toMatch(/^pullrequest:updated:2d5c7a1e-9f3b-4e8a-b6c4-1a2b3c4d5e6f:[0-9a-f]{64}$/);
    expect(webhook.parse(noRequestId, json).idempotencyKey).not.toBe(event.idempotencyKey);
  });

  it('rejects malformed payloads and a missing event key as validation failures', () => {
    const { headers, json } = delivery('hook-pullrequest-created', 'pullrequest:created');
    expect(malformed(() => webhook.parse({}, json)).message).toContain('X-Event-Key');
    expect(malformed(() => webhook.parse(headers, [1, 2])).code).toBe('validation_failed');
    const noRepository = { ...(json as object), repository: { name: 'x' } };
    const error = malformed(() => webhook.parse(headers, noRepository));
    expect(error.details).toEqual({ details: [{ path: 'repository.uuid', message: 'must be a non-empty string' }] });
    const noBranch = structuredClone(json) as { pullrequest: { destination: { branch: unknown } } };
    noBranch.pullrequest.destination.branch = null;
    expect(malformed(() => webhook.parse(headers, noBranch)).message).toContain('pullrequest.destination.branch.name');
  });
});
