import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MarginError, type WebhookHeaders } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { forgejoWebhook } from './forgejo-webhook.js';

const SECRET = 'whsec-forgejo-test-5e1f0c';
const raw = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));
const sign = (body: Uint8Array | string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');
const headers = (event: string, extra: Record<string, string> = {}): WebhookHeaders => ({
  'content-type': 'application/json',
  'x-forgejo-event': event,
  'x-forgejo-delivery': 'c0ffee00-1234-4abc-8def-0123456789ab',
  ...extra,
});
const parse = (event: string, name: string, extra: Record<string, string> = {}) =>
  forgejoWebhook.parse(headers(event, extra), JSON.parse(raw(name).toString('utf8')));

describe('Forgejo webhook authentication', () => {
  const body = raw('webhook-pull-request-opened.json');

  it('accepts X-Forgejo-Signature, the hex HMAC-SHA256 of the raw body', () => {
    expect(
      forgejoWebhook.authenticate(headers('pull_request', { 'x-forgejo-signature': sign(body) }), body, SECRET),
    ).toBe(true);
  });

  it('accepts X-Gitea-Signature alone, as Gitea sends it', () => {
    const gitea = { 'x-gitea-event': 'pull_request', 'x-gitea-signature': sign(body) };
    expect(forgejoWebhook.authenticate(gitea, body, SECRET)).toBe(true);
  });

  it('refuses a wrong secret, a changed body, a missing or malformed signature', () => {
    const signed = headers('pull_request', { 'x-forgejo-signature': sign(body) });
    expect(forgejoWebhook.authenticate(signed, body, 'another-secret')).toBe(false);
    expect(forgejoWebhook.authenticate(signed, Buffer.concat([body, Buffer.from(' ')]), SECRET)).toBe(false);
    expect(forgejoWebhook.authenticate(headers('pull_request'), body, SECRET)).toBe(false);
    const short = headers('pull_request', { 'x-forgejo-signature': sign(body).slice(0, 40) });
    expect(forgejoWebhook.authenticate(short, body, SECRET)).toBe(false);
    const prefixed = headers('pull_request', { 'x-forgejo-signature': `sha256=${sign(body)}` });
    expect(forgejoWebhook.authenticate(prefixed, body, SECRET)).toBe(false);
  });

  it('checks a form-encoded delivery against its JSON payload, which is what Forgejo signs', () => {
    const json = body.toString('utf8');
    const form = Buffer.from(new URLSearchParams({ payload: json }).toString());
    const formHeaders = headers('pull_request', {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forgejo-signature': sign(json),
    });
    expect(forgejoWebhook.authenticate(formHeaders, form, SECRET)).toBe(true);
    expect(forgejoWebhook.parse(formHeaders, { payload: json })).toMatchObject({
      kind: 'pullRequestCreated',
      pullRequestId: 42,
    });
  });
});

describe('Forgejo webhook parsing', () => {
  it('reads an opened pull request', () => {
    expect(parse('pull_request', 'webhook-pull-request-opened.json')).toEqual({
      kind: 'pullRequestCreated',
      eventType: 'pull_request.opened',
      repositoryId: '1001',
      repositoryName: 'uploader',
      projectKey: 'acme',
      pullRequestId: 42,
      sourceBranch: 'feature/retries',
      targetBranch: 'main',
      status: 'open',
      headSha: '1111111111111111111111111111111111111111',
      idempotencyKey: 'c0ffee00-1234-4abc-8def-0123456789ab',
    });
  });

  it('reads a push to the pull request (synchronized) as an update with the new head', () => {
    expect(parse('pull_request', 'webhook-pull-request-synchronized.json')).toMatchObject({
      kind: 'pullRequestUpdated',
      eventType: 'pull_request.synchronized',
      headSha: '6'.repeat(40),
    });
  });

  it('reads a merged pull request as merged and a closed one as closed', () => {
    const payload = JSON.parse(raw('webhook-pull-request-opened.json').toString('utf8'));
    const closed = { ...payload, action: 'closed', pull_request: { ...payload.pull_request, state: 'closed' } };
    expect(forgejoWebhook.parse(headers('pull_request'), closed)).toMatchObject({
      kind: 'pullRequestUpdated',
      status: 'closed',
    });
    const merged = {
      ...closed,
      pull_request: { ...closed.pull_request, merged: true, merged_at: '2026-05-06T10:00:00Z' },
    };
    expect(forgejoWebhook.parse(headers('pull_request'), merged)).toMatchObject({ status: 'merged' });
  });

  it('leaves assignments and labels unclassified', () => {
    const payload = JSON.parse(raw('webhook-pull-request-opened.json').toString('utf8'));
    expect(forgejoWebhook.parse(headers('pull_request'), { ...payload, action: 'label_updated' })).toEqual({
      kind: 'unclassified',
      eventType: 'pull_request.label_updated',
      idempotencyKey: 'c0ffee00-1234-4abc-8def-0123456789ab',
    });
  });

  it('reads a new comment on a pull request, and leaves plain issues and edits unclassified', () => {
    expect(parse('issue_comment', 'webhook-issue-comment.json')).toEqual({
      kind: 'pullRequestCommented',
      eventType: 'issue_comment.created',
      repositoryId: '1001',
      repositoryName: 'uploader',
      projectKey: 'acme',
      pullRequestId: 42,
      sourceBranch: '',
      targetBranch: '',
      status: 'open',
      idempotencyKey: 'c0ffee00-1234-4abc-8def-0123456789ab',
      comment: {
        commentId: '9002',
        body: '@margin-bot please take another look.',
        author: { externalUserId: '9', login: 'grace', displayName: 'Grace Hopper', isBot: false },
        createdAt: '2026-05-05T12:31:00Z',
        isReviewComment: false,
      },
    });
    const payload = JSON.parse(raw('webhook-issue-comment.json').toString('utf8'));
    expect(forgejoWebhook.parse(headers('issue_comment'), { ...payload, is_pull: false }).kind).toBe('unclassified');
    expect(forgejoWebhook.parse(headers('issue_comment'), { ...payload, action: 'edited' }).kind).toBe('unclassified');
  });

  it('takes the Gitea headers when the Forgejo ones are absent', () => {
    const body = JSON.parse(raw('webhook-pull-request-opened.json').toString('utf8'));
    const event = forgejoWebhook.parse({ 'x-gitea-event': 'pull_request', 'x-gitea-delivery': 'gitea-1' }, body);
    expect(event).toMatchObject({ kind: 'pullRequestCreated', idempotencyKey: 'gitea-1' });
  });

  it('refuses a delivery without its headers or with a body that is not a pull request', () => {
    const body = JSON.parse(raw('webhook-pull-request-opened.json').toString('utf8'));
    const refusal = (h: WebhookHeaders, b: unknown) => {
      try {
        forgejoWebhook.parse(h, b);
      } catch (error) {
        return MarginError.isInstance(error) ? error.code : 'not a MarginError';
      }
      return 'accepted';
    };
    expect(refusal({ 'x-forgejo-delivery': 'd' }, body)).toBe('validation_failed');
    expect(refusal({ 'x-forgejo-event': 'pull_request' }, body)).toBe('validation_failed');
    expect(refusal(headers('pull_request'), [body])).toBe('validation_failed');
    expect(refusal(headers('pull_request'), { ...body, pull_request: { number: 42 } })).toBe('validation_failed');
  });
});
