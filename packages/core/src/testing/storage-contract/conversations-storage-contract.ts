import { describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../../conversations/index.js';
import type { WebhookConfigurationRecord, WebhookDeliveryRecord } from '../../triggers/index.js';
import { client, NOW, type StorageGetter, uuid } from './fixtures.js';

const T = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();

function conversation(clientId: string, overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  const commentId = overrides.commentId ?? String(Math.floor(Math.random() * 1e9));
  return {
    id: uuid(),
    clientId,
    providerCommentKey: `987654321#42#${commentId}`,
    configurationId: uuid(),
    originKind: 'webhook',
    organizationScopeId: uuid(),
    providerScopePath: 'https://github.com/acme',
    providerProjectKey: 'acme',
    repositoryId: '987654321',
    pullRequestId: 42,
    providerThreadId: 'review-comment:77',
    commentId,
    author: { externalUserId: '5830002', login: 'grace', displayName: 'Grace Hopper', isBot: false },
    isReviewComment: true,
    commentedAt: NOW,
    command: null,
    question: '@margin why 250?',
    answer: null,
    outcome: null,
    jobId: null,
    usage: null,
    status: 'queued',
    leaseOwner: null,
    leaseExpiresAt: null,
    attempts: 0,
    createdAt: NOW,
    handledAt: null,
    ...overrides,
  };
}

function webhook(clientId: string): WebhookConfigurationRecord {
  const id = uuid();
  return {
    id,
    clientId,
    provider: 'gitHostA',
    organizationScopeId: uuid(),
    providerScopePath: 'https://github.com/acme',
    providerProjectKey: 'acme',
    reviewTemperature: null,
    repoFilters: [],
    knowledgeSourceScopeMode: 'none',
    knowledgeSourceIds: [],
    isActive: true,
    createdAt: NOW,
    updatedAt: NOW,
    pathKey: id.replace(/-/g, '').slice(0, 32),
    sealedSecret: 'v1:c2VhbGVk',
    enabledEvents: ['pullRequestCommented'],
  };
}

function commentDelivery(
  config: WebhookConfigurationRecord,
  conversationRecord: ConversationRecord,
): WebhookDeliveryRecord {
  return {
    id: uuid(),
    configurationId: config.id,
    clientId: config.clientId,
    receivedAt: NOW,
    eventType: 'pull_request_review_comment.created',
    eventKind: 'pullRequestCommented',
    idempotencyKey: uuid(),
    outcome: 'accepted',
    httpStatus: 200,
    repositoryId: '987654321',
    pullRequestId: 42,
    sourceBranch: null,
    targetBranch: null,
    headSha: null,
    actions: [`conversationQueued ${conversationRecord.id}`],
    failureReason: null,
    processingState: 'done',
    processAfter: null,
    leaseOwner: null,
    attempts: 0,
    conversation: conversationRecord,
  };
}

export function conversationsStorageContract(storage: StorageGetter): void {
  const newClient = async () => {
    const c = client();
    await storage().clients.insert(c);
    return c.id;
  };

  describe('conversations', () => {
    it('keeps one conversation per client and provider comment, whoever inserts second', async () => {
      const clientId = await newClient();
      const first = conversation(clientId, { commentId: '1600000001' });
      expect(await storage().conversations.insertIfAbsent(first)).toBe('inserted');
      const again = conversation(clientId, { commentId: '1600000001' });
      const racing = await Promise.all([
        storage().conversations.insertIfAbsent(again),
        storage().conversations.insertIfAbsent(conversation(clientId, { commentId: '1600000001' })),
      ]);
      expect(racing).toEqual(['duplicate', 'duplicate']);
      expect(await storage().conversations.findById(again.id)).toBeUndefined();
      expect(await storage().conversations.findById(first.id)).toEqual(first);
      // Another client may have the same comment (two clients claiming one repository).
      expect(
        await storage().conversations.insertIfAbsent(conversation(await newClient(), { commentId: '1600000001' })),
      ).toBe('inserted');
    });

    it('writes a delivery’s conversation with it, once however often the comment is delivered', async () => {
      const clientId = await newClient();
      const config = webhook(clientId);
      await storage().webhookConfigurations.insert(config);
      const c = conversation(clientId, { commentId: '2800000001' });
      const other = conversation(clientId, { commentId: '2800000001' });
      expect(
        await storage().webhookDeliveries.recordMany([commentDelivery(config, c), commentDelivery(config, other)]),
      ).toEqual(['recorded', 'recorded']);
      const page = await storage().conversations.list(clientId, {}, { limit: 10 });
      expect(page.items.map((x) => x.id)).toEqual([c.id]);
    });

    it('writes nothing of a delivery that could not be recorded', async () => {
      const clientId = await newClient();
      const config = webhook(clientId);
      const c = conversation(clientId);
      await expect(storage().webhookDeliveries.record(commentDelivery(config, c))).rejects.toBeDefined();
      expect(await storage().conversations.findById(c.id)).toBeUndefined();
    });

    it('hands each queued conversation to one claimer and takes back a lost lease', async () => {
      const clientId = await newClient();
      const records = Array.from({ length: 5 }, (_, i) => conversation(clientId, { createdAt: T(i) }));
      for (const r of records) await storage().conversations.insertIfAbsent(r);
      const rounds = await Promise.all(
        ['a', 'b', 'c'].map((owner) =>
          storage().conversations.claimQueued({ owner, now: T(10), leaseMs: 30_000, limit: 2 }),
        ),
      );
      const claimed = rounds.flat();
      expect(claimed.map((r) => r.id).sort()).toEqual(records.map((r) => r.id).sort());
      expect(claimed.every((r) => r.status === 'handling' && r.attempts === 1)).toBe(true);
      expect(await storage().conversations.claimQueued({ owner: 'd', now: T(20), leaseMs: 30_000, limit: 10 })).toEqual(
        [],
      );

      const [held] = rounds[0] ?? [];
      if (!held) throw new Error('nothing claimed');
      const finish = {
        answer: 'Because the API pages by 250.',
        outcome: 'answered' as const,
        jobId: null,
        handledAt: T(30),
      };
      const usage = {
        inputTokens: 10,
        cachedInputTokens: 0,
        outputTokens: 5,
        reasoningTokens: 0,
        estimatedCostUsd: 0.0001,
      };
      expect(await storage().conversations.finish(held.id, 'someone-else', { ...finish, usage })).toBe(false);
      expect(await storage().conversations.finish(held.id, 'a', { ...finish, usage })).toBe(true);
      expect(await storage().conversations.findById(held.id)).toMatchObject({
        status: 'done',
        outcome: 'answered',
        answer: finish.answer,
        usage,
        handledAt: T(30),
        leaseOwner: null,
      });

      // The others' leases ran out: another worker takes them, counting the attempt.
      const retaken = await storage().conversations.claimQueued({ owner: 'e', now: T(60), leaseMs: 30_000, limit: 10 });
      expect(retaken).toHaveLength(4);
      expect(retaken.every((r) => r.attempts === 2 && r.leaseOwner === 'e')).toBe(true);
    });

    it('lists a client’s conversations newest first, by repository and pull request, a page at a time', async () => {
      const clientId = await newClient();
      const a = conversation(clientId, { createdAt: T(1) });
      const b = conversation(clientId, { createdAt: T(2), pullRequestId: 43 });
      const c = conversation(clientId, { createdAt: T(3), repositoryId: 'OTHER' });
      for (const r of [a, b, c]) await storage().conversations.insertIfAbsent(r);
      await storage().conversations.insertIfAbsent(conversation(await newClient()));

      const first = await storage().conversations.list(clientId, {}, { limit: 2 });
      expect(first.items.map((r) => r.id)).toEqual([c.id, b.id]);
      const second = await storage().conversations.list(clientId, {}, { limit: 2, cursor: first.nextCursor });
      expect(second).toEqual({ items: [a], nextCursor: null });
      const ofPr = await storage().conversations.list(
        clientId,
        { repositoryId: '987654321', pullRequestId: 42 },
        { limit: 10 },
      );
      expect(ofPr.items.map((r) => r.id)).toEqual([a.id]);
      const ofRepo = await storage().conversations.list(clientId, { repositoryId: 'other' }, { limit: 10 });
      expect(ofRepo.items.map((r) => r.id)).toEqual([c.id]);
    });
  });
}
