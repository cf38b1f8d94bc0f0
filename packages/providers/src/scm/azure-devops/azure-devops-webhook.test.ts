import { MarginError } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { fixtureReader } from '../../testing/fixture-reader.js';
import { azureDevOpsFamily } from './azure-devops-family.js';

const fixture = fixtureReader(import.meta.url);

const webhook = azureDevOpsFamily().webhook;
const SECRET = '9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08';
const body = new TextEncoder().encode('{}');
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function validationError(fn: () => unknown): MarginError {
  try {
    fn();
  } catch (error) {
    if (MarginError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('Azure DevOps webhook authentication', () => {
  it('accepts Basic auth with any user name and the generated secret as password', () => {
    expect(webhook.authenticate({ authorization: basic('margin', SECRET) }, body, SECRET)).toBe(true);
    expect(webhook.authenticate({ authorization: basic('', SECRET) }, body, SECRET)).toBe(true);
    expect(webhook.authenticate({ authorization: basic('any:thing', SECRET) }, body, SECRET)).toBe(false);
  });

  it('rejects a wrong secret, a missing header, another scheme and an empty configured secret', () => {
    expect(webhook.authenticate({ authorization: basic('margin', `${SECRET}0`) }, body, SECRET)).toBe(false);
    expect(webhook.authenticate({ authorization: basic('margin', SECRET.toLowerCase()) }, body, SECRET)).toBe(false);
    expect(webhook.authenticate({}, body, SECRET)).toBe(false);
    expect(webhook.authenticate({ authorization: `Bearer ${SECRET}` }, body, SECRET)).toBe(false);
    expect(webhook.authenticate({ authorization: 'Basic not base64 at all!' }, body, SECRET)).toBe(false);
    expect(webhook.authenticate({ authorization: basic('margin', '') }, body, '')).toBe(false);
  });
});

describe('Azure DevOps webhook events', () => {
  it('maps git.pullrequest.created to pullRequestCreated with the pull request coordinates', () => {
    expect(webhook.parse({}, fixture('webhook-pull-request-created'))).toEqual({
      kind: 'pullRequestCreated',
      eventType: 'git.pullrequest.created',
      repositoryId: '5f1c8d2e-6a3b-4c7d-9e8f-0a1b2c3d4e5f',
      repositoryName: 'uploader',
      projectKey: 'Web Platform',
      pullRequestId: 42,
      sourceBranch: 'feature/retries',
      targetBranch: 'main',
      status: 'open',
      headSha: '5555555555555555555555555555555555555555',
      idempotencyKey: '2ab4e3d3-b7a6-425e-92b1-5a9982c1269e',
    });
  });

  it('maps git.pullrequest.updated to pullRequestUpdated, completed as merged and abandoned as closed', () => {
    expect(webhook.parse({}, fixture('webhook-pull-request-updated'))).toMatchObject({
      kind: 'pullRequestUpdated',
      status: 'open',
      headSha: '1111111111111111111111111111111111111111',
      idempotencyKey: 'af07be1b-f3ad-44c8-a7f1-c4835f2df06b',
    });
    expect(webhook.parse({}, fixture('webhook-pull-request-updated-completed'))).toMatchObject({
      kind: 'pullRequestUpdated',
      status: 'merged',
    });
    expect(webhook.parse({}, fixture('webhook-pull-request-updated-abandoned'))).toMatchObject({
      kind: 'pullRequestUpdated',
      status: 'closed',
    });
  });

  it('maps comment events, old and new names, to pullRequestCommented', () => {
    const comment = fixture<Record<string, unknown>>('webhook-pull-request-comment');
    const expected = {
      kind: 'pullRequestCommented',
      eventType: 'ms.vss-code.git-pullrequest-comment-event',
      repositoryId: '5f1c8d2e-6a3b-4c7d-9e8f-0a1b2c3d4e5f',
      pullRequestId: 42,
      sourceBranch: 'feature/retries',
      targetBranch: 'main',
      status: 'open',
      idempotencyKey: 'af07be1b-f3ad-44c8-a7f1-c4835f2dc0de',
      // The thread is named only in the comment's own address.
      comment: {
        commentId: '1',
        threadId: '103',
        body: '@Margin please take another look',
        author: {
          externalUserId: '0f9e8d7c-6b5a-4c3d-2e1f-0a9b8c7d6e5f',
          login: 'grace',
          displayName: 'Grace Hopper',
          isBot: false,
        },
        createdAt: '2026-05-05T15:00:00.000Z',
      },
    };
    expect(webhook.parse({}, comment)).toMatchObject(expected);
    expect(webhook.parse({}, { ...comment, eventType: 'git.pullrequest.commented' })).toMatchObject({
      ...expected,
      eventType: 'git.pullrequest.commented',
    });
  });

  it('leaves other events unclassified but keeps their idempotency key', () => {
    expect(webhook.parse({}, fixture('webhook-git-push'))).toEqual({
      kind: 'unclassified',
      eventType: 'git.push',
      idempotencyKey: '03c164c2-8912-4d5e-8009-3707d5f83734',
    });
  });

  it('falls back to subscription and notification id when the event id is missing', () => {
    const { id: _id, ...rest } = fixture<Record<string, unknown>>('webhook-git-push');
    expect(webhook.parse({}, rest)).toMatchObject({ idempotencyKey: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d:22' });
  });

  it('rejects malformed payloads as validation failures', () => {
    const created = fixture<Record<string, unknown> & { resource: Record<string, unknown> }>(
      'webhook-pull-request-created',
    );
    for (const bad of [
      'not an object',
      [],
      null,
      { ...created, eventType: undefined },
      { ...created, eventType: 42 },
      { ...created, resource: undefined },
      { ...created, resource: { ...created.resource, pullRequestId: '42' } },
      { ...created, resource: { ...created.resource, repository: {} } },
      { ...created, resource: { ...created.resource, sourceRefName: undefined } },
    ]) {
      expect(validationError(() => webhook.parse({}, bad)).code).toBe('validation_failed');
    }
  });

  it('keys a body without an id or notificationId (the spec’s minimal shape) by its content', () => {
    const created = fixture<Record<string, unknown>>('webhook-pull-request-created');
    const bare = { ...created, id: undefined, notificationId: undefined };
    const key = webhook.parse({}, bare).idempotencyKey;
    expect(key).toMatch(/^content:[0-9a-f]{64}$/);
    expect(webhook.parse({}, JSON.parse(JSON.stringify(bare))).idempotencyKey).toBe(key);
    expect(webhook.parse({}, { ...bare, createdDate: '2030-01-01T00:00:00Z' }).idempotencyKey).not.toBe(key);
  });
});
