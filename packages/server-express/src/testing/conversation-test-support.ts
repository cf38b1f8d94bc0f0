/**
 * Test support for mentions of Margin: a reviewing client whose webhook configuration takes comment
 * events and whose connection has a reviewer identity, and comment deliveries from each family's
 * recorded payload with the body, date, pull request and comment id a test needs.
 */
import { randomUUID } from 'node:crypto';
import type { FakeChatModel } from '@margin/providers/testing';
import type { TestApi } from './index.js';
import { reviewingClient } from './review-test-support.js';
import type { ScmFakes } from './scm-test-support.js';
import { type Delivery, delivery, type FamilyName } from './triggers-test-support.js';

/** Who Margin is on each fake: the login (GitHub, GitLab, Bitbucket) or the identity id (Azure DevOps) people mention. */
export const MARGIN_IDENTITY: Record<FamilyName, { externalUserId: string; login: string; mention: string }> = {
  github: { externalUserId: '90000001', login: 'margin-review', mention: '@margin-review' },
  gitlab: { externalUserId: '90000001', login: 'margin-review', mention: '@margin-review' },
  bitbucket: {
    externalUserId: '{6f2a1c3e-0b4d-4e5f-9a8b-7c6d5e4f3a2b}',
    login: 'margin-review',
    mention: '@margin-review',
  },
  ado: {
    externalUserId: '6f2a1c3e-0b4d-4e5f-9a8b-7c6d5e4f3a2b',
    login: 'margin@acme.example',
    mention: '@<6F2A1C3E-0B4D-4E5F-9A8B-7C6D5E4F3A2B>',
  },
};

/** A reviewing client (model on `reviewDefault`) listening for comments, with Margin's identity set. */
export async function mentionedClient(admin: TestApi, fakes: ScmFakes, family: FamilyName, model: FakeChatModel) {
  const client = await reviewingClient(
    admin,
    fakes,
    family,
    model,
    `Mentions on ${family} ${randomUUID().slice(0, 8)}`,
  );
  const patched = await admin.patch(`/admin/webhook-configurations/${client.webhook.id}`, {
    enabledEvents: ['pullRequestCreated', 'pullRequestUpdated', 'pullRequestCommented'],
  });
  if (patched.status !== 200) throw new Error(`webhook: ${patched.status} ${JSON.stringify(patched.body)}`);
  const { mention: _mention, ...identity } = MARGIN_IDENTITY[family];
  const put = await admin.put(
    `/clients/${client.clientId}/provider-connections/${client.connectionId}/reviewer-identity`,
    identity,
  );
  if (put.status !== 200) throw new Error(`reviewer identity: ${put.status} ${JSON.stringify(put.body)}`);
  return client;
}

export interface CommentEdit {
  body: string;
  pullRequestId: number;
  commentId: number;
  /** Default: a second from now, so the comment is newer than the configuration even in whole seconds (GitLab). */
  createdAt?: string;
  deliveryId?: string;
}

const COMMENT_FIXTURES: Record<FamilyName, string> = {
  github: 'webhook-issue-comment-pull-request.json',
  gitlab: 'hook-note-merge-request.json',
  bitbucket: 'hook-pullrequest-comment-created.json',
  ado: 'webhook-pull-request-comment.json',
};

// Payloads are the providers' free-form JSON; tests edit them by path.
type Payload = Record<string, any>;

/** A comment delivery of the family's recorded payload, edited to say what the test needs. */
export function commentDelivery(family: FamilyName, secret: string, edit: CommentEdit): Delivery {
  const at = edit.createdAt ?? new Date(Date.now() + 1000).toISOString();
  return delivery(family, COMMENT_FIXTURES[family], secret, {
    deliveryId: edit.deliveryId,
    edit: (p: Payload) => {
      switch (family) {
        case 'github':
          p.issue.number = edit.pullRequestId;
          Object.assign(p.comment, { id: edit.commentId, body: edit.body, created_at: at });
          return;
        case 'gitlab':
          p.merge_request.iid = edit.pullRequestId;
          Object.assign(p.object_attributes, {
            id: edit.commentId,
            note: edit.body,
            created_at: at
              .replace('T', ' ')
              .replace(/\.\d+Z$/, ' UTC')
              .replace(/Z$/, ' UTC'),
          });
          return;
        case 'bitbucket':
          p.pullrequest.id = edit.pullRequestId;
          Object.assign(p.comment, {
            id: edit.commentId,
            created_on: at,
            content: { ...p.comment.content, raw: edit.body },
          });
          return;
        case 'ado': {
          p.resource.pullRequest.pullRequestId = edit.pullRequestId;
          const href = `${p.resource.comment._links.self.href}`.replace(
            /\/pullRequests\/\d+\/threads\/\d+\/comments\/\d+$/,
            '',
          );
          Object.assign(p.resource.comment, {
            id: 1,
            content: edit.body,
            publishedDate: at,
            _links: {
              self: { href: `${href}/pullRequests/${edit.pullRequestId}/threads/${edit.commentId}/comments/1` },
            },
          });
          return;
        }
      }
    },
  });
}
