import { createHmac } from 'node:crypto';
import { MarginError, type WebhookHeaders } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { gitHubFamily } from './github-family.js';

const fixture = fixtureReader(import.meta.url);

const webhook = gitHubFamily().webhook;
const SECRET = '3A7BD3E2360A3D29EEA436FCFB7E44C735D117C42D1C1835420B6B9942DD4F1B';
const DELIVERY = '72d3162e-cc78-11e3-81ab-4c9367dc0958';

const raw = (name: string) => new TextEncoder().encode(JSON.stringify(fixture(name)));
const sign = (body: Uint8Array, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const headers = (event: string, extra: WebhookHeaders = {}): WebhookHeaders => ({
  'x-github-event': event,
  'x-github-delivery': DELIVERY,
  'x-github-hook-id': '500000001',
  'user-agent': 'GitHub-Hookshot/7f3c9e1',
  ...extra,
});

function thrown(fn: () => unknown): MarginError {
  try {
    fn();
  } catch (error) {
    if (MarginError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('GitHub webhook signatures', () => {
  const body = raw('webhook-pull-request-opened');

  it('accepts the HMAC-SHA256 of the raw body under the configured secret', () => {
    expect(webhook.authenticate(headers('pull_request', { 'x-hub-signature-256': sign(body) }), body, SECRET)).toBe(
      true,
    );
  });

  it('rejects a wrong secret, a tampered body, a missing or legacy-only header', () => {
    expect(
      webhook.authenticate(headers('pull_request', { 'x-hub-signature-256': sign(body, 'other') }), body, SECRET),
    ).toBe(false);
    const tampered = new TextEncoder().encode(new TextDecoder().decode(body).replace('"number":42', '"number":43'));
    expect(webhook.authenticate(headers('pull_request', { 'x-hub-signature-256': sign(body) }), tampered, SECRET)).toBe(
      false,
    );
    expect(webhook.authenticate(headers('pull_request'), body, SECRET)).toBe(false);
    const sha1 = `sha1=${createHmac('sha1', SECRET).update(body).digest('hex')}`;
    expect(webhook.authenticate(headers('pull_request', { 'x-hub-signature': sha1 }), body, SECRET)).toBe(false);
    expect(webhook.authenticate(headers('pull_request', { 'x-hub-signature-256': 'sha256=zz' }), body, SECRET)).toBe(
      false,
    );
  });
});

describe('GitHub webhook events', () => {
  it('maps pull_request opened to pullRequestCreated', () => {
    expect(webhook.parse(headers('pull_request'), fixture('webhook-pull-request-opened'))).toEqual({
      kind: 'pullRequestCreated',
      eventType: 'pull_request.opened',
      repositoryId: '987654321',
      repositoryName: 'uploader',
      projectKey: 'acme',
      pullRequestId: 42,
      sourceBranch: 'feature/retries',
      targetBranch: 'main',
      status: 'open',
      headSha: '5555555555555555555555555555555555555555',
      idempotencyKey: DELIVERY,
    });
  });

  it('maps other pull_request actions to pullRequestUpdated, closed with merged as merged', () => {
    expect(webhook.parse(headers('pull_request'), fixture('webhook-pull-request-synchronize'))).toMatchObject({
      kind: 'pullRequestUpdated',
      eventType: 'pull_request.synchronize',
      status: 'open',
      headSha: '1111111111111111111111111111111111111111',
    });
    expect(webhook.parse(headers('pull_request'), fixture('webhook-pull-request-closed-merged'))).toMatchObject({
      kind: 'pullRequestUpdated',
      status: 'merged',
    });
    expect(webhook.parse(headers('pull_request'), fixture('webhook-pull-request-closed'))).toMatchObject({
      kind: 'pullRequestUpdated',
      status: 'closed',
    });
  });

  it('maps review comments and conversation comments on pull requests to pullRequestCommented', () => {
    expect(
      webhook.parse(headers('pull_request_review_comment'), fixture('webhook-pull-request-review-comment')),
    ).toMatchObject({
      kind: 'pullRequestCommented',
      eventType: 'pull_request_review_comment.created',
      repositoryId: '987654321',
      pullRequestId: 42,
      sourceBranch: 'feature/retries',
      targetBranch: 'main',
      headSha: '1111111111111111111111111111111111111111',
    });
    expect(webhook.parse(headers('issue_comment'), fixture('webhook-issue-comment-pull-request'))).toEqual({
      kind: 'pullRequestCommented',
      eventType: 'issue_comment.created',
      repositoryId: '987654321',
      repositoryName: 'uploader',
      projectKey: 'acme',
      pullRequestId: 42,
      sourceBranch: '',
      targetBranch: '',
      status: 'open',
      idempotencyKey: DELIVERY,
      comment: {
        commentId: '2800000001',
        body: '@margin-review please take another look',
        author: { externalUserId: '5830002', login: 'grace', displayName: 'grace', isBot: false },
        createdAt: '2026-05-04T09:30:00Z',
        isReviewComment: false,
      },
    });
  });

  it('names a review comment’s thread by its root comment, as the adapter’s threads are named', () => {
    const root = webhook.parse(headers('pull_request_review_comment'), fixture('webhook-pull-request-review-comment'));
    expect(root).toMatchObject({
      comment: { commentId: '1600000001', threadId: 'review-comment:1600000001', isReviewComment: true },
    });
    const reply = webhook.parse(
      headers('pull_request_review_comment'),
      fixture('webhook-pull-request-review-comment-reply'),
    );
    expect(reply).toMatchObject({
      kind: 'pullRequestCommented',
      comment: {
        commentId: '1600000002',
        threadId: 'review-comment:1600000001',
        body: '@margin-review is 3 retries enough when the upstream rate-limits?',
        author: { login: 'grace', externalUserId: '5830002' },
        createdAt: '2026-05-04T11:45:00Z',
      },
    });
  });

  it('leaves comments on plain issues, edited comments, pings and pushes unclassified', () => {
    expect(webhook.parse(headers('issue_comment'), fixture('webhook-issue-comment-issue'))).toEqual({
      kind: 'unclassified',
      eventType: 'issue_comment.created',
      idempotencyKey: DELIVERY,
    });
    const edited = {
      ...fixture<Record<string, unknown>>('webhook-pull-request-review-comment'),
      action: 'edited',
    };
    expect(webhook.parse(headers('pull_request_review_comment'), edited)).toMatchObject({ kind: 'unclassified' });
    expect(webhook.parse(headers('ping'), fixture('webhook-ping'))).toEqual({
      kind: 'unclassified',
      eventType: 'ping',
      idempotencyKey: DELIVERY,
    });
    expect(webhook.parse(headers('push'), fixture('webhook-push'))).toMatchObject({ kind: 'unclassified' });
  });

  it('rejects deliveries without the event or delivery header, and malformed bodies', () => {
    const opened = fixture<Record<string, unknown> & { pull_request: Record<string, unknown> }>(
      'webhook-pull-request-opened',
    );
    const { 'x-github-event': _event, ...noEvent } = headers('pull_request');
    const { 'x-github-delivery': _delivery, ...noDelivery } = headers('pull_request');
    expect(thrown(() => webhook.parse(noEvent, opened)).code).toBe('validation_failed');
    expect(thrown(() => webhook.parse(noDelivery, opened)).code).toBe('validation_failed');
    for (const bad of [
      'nope',
      null,
      [],
      { ...opened, pull_request: undefined },
      { ...opened, pull_request: { ...opened.pull_request, number: '42' } },
      { ...opened, pull_request: { ...opened.pull_request, head: {} } },
      { ...opened, repository: { name: 'uploader' } },
    ]) {
      expect(thrown(() => webhook.parse(headers('pull_request'), bad)).code).toBe('validation_failed');
    }
    expect(thrown(() => webhook.parse(headers('issue_comment'), { action: 'created' })).code).toBe('validation_failed');
  });
});
