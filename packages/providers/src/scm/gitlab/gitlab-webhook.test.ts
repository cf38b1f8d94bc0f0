import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MarginError, type WebhookHeaders } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { gitLabFamily } from './index.js';

const SECRET = 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const NOW = Date.parse('2026-10-02T16:00:00Z');
const webhook = gitLabFamily({ now: () => NOW }).webhook;

function raw(name: string): Buffer {
  return readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url));
}

function delivery(name: string, event: string, extra: WebhookHeaders = {}) {
  const body = raw(name);
  const headers: WebhookHeaders = {
    'content-type': 'application/json',
    'user-agent': 'GitLab/19.1.0',
    'x-gitlab-event': event,
    'x-gitlab-instance': 'https://gitlab.example.com',
    'x-gitlab-webhook-uuid': '5d2f0f6e-0a43-4c55-9b7f-2a2b1f5e9c10',
    'x-gitlab-event-uuid': 'b1f8e3a2-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
    'idempotency-key': '0e3c8c0e-7f5d-4a6b-9c1d-2e3f4a5b6c7d',
    'x-gitlab-token': SECRET,
    ...extra,
  };
  return { headers, body, json: JSON.parse(body.toString('utf8')) as unknown };
}

/** What GitLab sends with a signing token: Standard Webhooks over `id.timestamp.body`. */
function signed(body: Buffer, key: Buffer, id = 'msg_2mXqQ7', timestamp = String(NOW / 1000)): WebhookHeaders {
  const signature = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]))
    .digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
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

describe('GitLab webhook authentication', () => {
  it('accepts X-Gitlab-Token equal to the secret', () => {
    const { headers, body } = delivery('hook-merge-request-open', 'Merge Request Hook');
    expect(webhook.authenticate(headers, body, SECRET)).toBe(true);
  });

  it('refuses a wrong token and a missing token', () => {
    const { headers, body } = delivery('hook-merge-request-open', 'Merge Request Hook', {
      'x-gitlab-token': `${SECRET}x`,
    });
    expect(webhook.authenticate(headers, body, SECRET)).toBe(false);
    const { 'x-gitlab-token': _dropped, ...withoutToken } = headers;
    expect(webhook.authenticate(withoutToken, body, SECRET)).toBe(false);
    expect(webhook.authenticate(headers, body, '')).toBe(false);
  });

  it('accepts a signing-token delivery signed with the secret’s 32 bytes (whsec_ + base64 of them)', () => {
    const body = raw('hook-merge-request-update');
    const headers = { 'x-gitlab-event': 'Merge Request Hook', ...signed(body, Buffer.from(SECRET, 'hex')) };
    expect(webhook.authenticate(headers, body, SECRET)).toBe(true);
    const whsec = `whsec_${Buffer.from(SECRET, 'hex').toString('base64')}`;
    expect(webhook.authenticate(headers, body, whsec)).toBe(true);
  });

  it('accepts any of several space-separated signatures', () => {
    const body = raw('hook-merge-request-update');
    const good = signed(body, Buffer.from(SECRET, 'hex'));
    const headers = { ...good, 'webhook-signature': `v1,b2xkLXNpZ25hdHVyZQ== ${good['webhook-signature']}` };
    expect(webhook.authenticate(headers, body, SECRET)).toBe(true);
  });

  it('refuses a signing-token delivery with a wrong signature, even when X-Gitlab-Token matches', () => {
    const { headers, body } = delivery('hook-merge-request-update', 'Merge Request Hook', {
      ...signed(raw('hook-merge-request-update'), Buffer.from('another key of the same length..')),
    });
    expect(webhook.authenticate(headers, body, SECRET)).toBe(false);
  });

  it('refuses a signed delivery whose body was tampered with', () => {
    const body = raw('hook-merge-request-update');
    const headers = signed(body, Buffer.from(SECRET, 'hex'));
    const tampered = Buffer.from(body.toString('utf8').replace('"iid": 42', '"iid": 43'));
    expect(webhook.authenticate(headers, tampered, SECRET)).toBe(false);
  });

  it('refuses a signed delivery outside the replay window or without its id and timestamp', () => {
    const body = raw('hook-merge-request-update');
    const key = Buffer.from(SECRET, 'hex');
    expect(webhook.authenticate(signed(body, key, 'msg_1', String(NOW / 1000 - 301)), body, SECRET)).toBe(false);
    const { 'webhook-id': _id, ...noId } = signed(body, key);
    expect(webhook.authenticate(noId, body, SECRET)).toBe(false);
    const { 'webhook-timestamp': _ts, ...noTimestamp } = signed(body, key);
    expect(webhook.authenticate(noTimestamp, body, SECRET)).toBe(false);
  });
});

describe('GitLab webhook parsing', () => {
  const base = {
    eventType: 'Merge Request Hook',
    repositoryId: '1001',
    repositoryName: 'uploader',
    projectKey: 'acme/platform',
    pullRequestId: 42,
    sourceBranch: 'feature/retries',
    targetBranch: 'main',
    headSha: '1111111111111111111111111111111111111111',
    idempotencyKey: 'b1f8e3a2-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  };

  it('turns an opened merge request into pullRequestCreated', () => {
    const { headers, json } = delivery('hook-merge-request-open', 'Merge Request Hook');
    expect(webhook.parse(headers, json)).toEqual({ ...base, kind: 'pullRequestCreated', status: 'open' });
  });

  it.each([
    ['hook-merge-request-update', 'open'],
    ['hook-merge-request-reopen', 'open'],
    ['hook-merge-request-approved', 'open'],
    ['hook-merge-request-close', 'closed'],
    ['hook-merge-request-merge', 'merged'],
  ] as const)('turns %s into pullRequestUpdated with status %s', (name, status) => {
    const { headers, json } = delivery(name, 'Merge Request Hook');
    expect(webhook.parse(headers, json)).toEqual({ ...base, kind: 'pullRequestUpdated', status });
  });

  it('turns a note on a merge request into pullRequestCommented', () => {
    const { headers, json } = delivery('hook-note-merge-request', 'Note Hook');
    expect(webhook.parse(headers, json)).toEqual({
      ...base,
      eventType: 'Note Hook',
      kind: 'pullRequestCommented',
      status: 'open',
      comment: {
        commentId: '1126',
        threadId: '6a9c1750b37d513a43987b574953fceb50b03ce7',
        body: 'Should this be configurable?',
        author: { externalUserId: '7', login: 'ada', displayName: 'Ada Lovelace', isBot: false },
        createdAt: '2026-10-02T16:00:00.000Z',
        isReviewComment: true,
      },
    });
  });

  it('carries no comment for a system note', () => {
    const { headers, json } = delivery('hook-note-merge-request', 'Note Hook');
    const note = json as { object_attributes: Record<string, unknown> };
    const system = { ...note, object_attributes: { ...note.object_attributes, system: true, note: 'added 2 commits' } };
    expect(webhook.parse(headers, system)).toMatchObject({ kind: 'pullRequestCommented', comment: undefined });
  });

  it('leaves notes on commits, pushes and unknown events unclassified', () => {
    for (const [name, event] of [
      ['hook-note-commit', 'Note Hook'],
      ['hook-push', 'Push Hook'],
    ] as const) {
      const { headers, json } = delivery(name, event);
      expect(webhook.parse(headers, json)).toEqual({
        kind: 'unclassified',
        eventType: event,
        idempotencyKey: base.idempotencyKey,
      });
    }
    expect(webhook.parse({ 'x-gitlab-event': 'Emoji Hook' }, { object_kind: 'emoji' })).toMatchObject({
      kind: 'unclassified',
      eventType: 'Emoji Hook',
    });
  });

  it('takes the idempotency key from webhook-id when the event UUID is absent', () => {
    const { json } = delivery('hook-merge-request-open', 'Merge Request Hook');
    expect(webhook.parse({ 'webhook-id': 'msg_2mXqQ7' }, json)).toMatchObject({ idempotencyKey: 'msg_2mXqQ7' });
  });

  it('rejects malformed payloads as validation failures naming the field', () => {
    expect(malformed(() => webhook.parse({}, 'not an object')).code).toBe('validation_failed');
    const { json } = delivery('hook-merge-request-open', 'Merge Request Hook');
    const noIid = structuredClone(json) as { object_attributes: Record<string, unknown> };
    delete noIid.object_attributes.iid;
    const error = malformed(() => webhook.parse({ 'x-gitlab-event': 'Merge Request Hook' }, noIid));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({ details: [{ path: 'object_attributes.iid', message: 'must be an integer' }] });
    const noProject = { ...(json as object), project: null };
    expect(malformed(() => webhook.parse({}, noProject)).message).toContain('project');
  });
});
