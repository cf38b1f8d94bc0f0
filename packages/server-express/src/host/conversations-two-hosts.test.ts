import { billingScenario } from '@margin/cli/testing';
import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentDelivery, mentionedClient } from '../testing/conversation-test-support.js';
import { eventually, startTestHost, type TestHost } from '../testing/index.js';
import { type ReviewHarness, startReviewHarness } from '../testing/review-test-support.js';
import { post } from '../testing/triggers-test-support.js';

// Hosts share a database only on PostgreSQL.
const POSTGRES = testDialects().includes('postgres');
const COMMENTS = 6;

describe.runIf(POSTGRES)('mentions delivered to two hosts on one PostgreSQL database', () => {
  let h: ReviewHarness;
  let second: TestHost;

  beforeAll(async () => {
    h = await startReviewHarness({ dialect: 'postgres', env: { WORKER_ENABLED: 'false' } });
    second = await startTestHost({
      registryBase: h.fakes.registryBase,
      reuse: { dataDir: h.host.dataDir, databaseUrl: h.host.databaseUrl },
      env: {
        WORKER_ENABLED: 'false',
        WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS: '50',
        MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
    await h?.close();
  });

  it('answers each comment exactly once, whichever host receives it and however often', async () => {
    const number = 830;
    await h.fakes.github.loadPullRequest(billingScenario(number));
    const client = await mentionedClient(h.admin, h.fakes, 'github', h.model);
    const path = new URL(client.webhook.listenerUrl).pathname;
    h.model.respondWith({ content: 'Answered.' });
    const before = h.fakes.github.writes.length;

    // Each comment reaches both hosts at once, in two deliveries (two hooks, or a redelivery).
    const sends = Array.from({ length: COMMENTS }, (_, i) => {
      const edit = { pullRequestId: number, commentId: 5_200_000_000 + i, body: `@margin-review question ${i}?` };
      return [
        post(`${h.host.url}${path}`, commentDelivery('github', client.webhook.generatedSecret, edit)),
        post(`${second.url}${path}`, commentDelivery('github', client.webhook.generatedSecret, edit)),
      ];
    }).flat();
    const answers = await Promise.all(sends);
    expect(answers.map((a) => a.status)).toEqual(Array(COMMENTS * 2).fill(200));

    const items = await eventually(async () => {
      const res = await h.admin.get(`/clients/${client.clientId}/reviewing/conversations?pullRequestId=${number}`);
      const list = res.body.items as Array<{ outcome: string | null; commentId: string }>;
      return list.length === COMMENTS && list.every((c) => c.outcome !== null) && list;
    }, 30_000);
    expect(items.every((c) => c.outcome === 'answered')).toBe(true);
    expect(new Set(items.map((c) => c.commentId)).size).toBe(COMMENTS);
    const replies = h.fakes.github.writes
      .slice(before)
      .filter((w) => w.method === 'POST' && w.path.split('?')[0]?.endsWith(`/issues/${number}/comments`));
    expect(replies).toHaveLength(COMMENTS);
  }, 60_000);
});
