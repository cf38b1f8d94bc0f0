import { billingScenario } from '@margin/cli/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentDelivery, MARGIN_IDENTITY, mentionedClient } from '../testing/conversation-test-support.js';
import { eventually } from '../testing/index.js';
import { type ReviewHarness, startReviewHarness } from '../testing/review-test-support.js';
import { FACTS, type FamilyName, post } from '../testing/triggers-test-support.js';

// Recorded writes are free-form JSON.
type Json = Record<string, any>;

/** Where each family's adapter posts a reply into a comment's thread. */
const REPLY: Record<Exclude<FamilyName, 'github'>, RegExp> = {
  ado: /\/pullRequests\/\d+\/threads\/\d+\/comments$/,
  gitlab: /\/merge_requests\/\d+\/discussions\/[^/]+\/notes$/,
  bitbucket: /\/pullrequests\/\d+\/comments$/,
};

describe.each(['ado', 'gitlab', 'bitbucket'] as const)('a question to Margin on %s', (family) => {
  let h: ReviewHarness;

  beforeAll(async () => {
    h = await startReviewHarness({ env: { WORKER_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is answered once, in the comment’s thread, from the model', async () => {
    const number = 820 + ['ado', 'gitlab', 'bitbucket'].indexOf(family);
    await h.fakes[family].loadPullRequest(billingScenario(number));
    const client = await mentionedClient(h.admin, h.fakes, family, h.model);
    const url = `${h.host.url}${new URL(client.webhook.listenerUrl).pathname}`;
    h.model.respondWith({ content: 'It retries three times with backoff.' });
    const question = `${MARGIN_IDENTITY[family].mention} how often does this retry?`;
    const sent = commentDelivery(family, client.webhook.generatedSecret, {
      pullRequestId: number,
      commentId: 4101,
      body: question,
    });
    const before = h.fakes[family].writes.length;
    expect((await post(url, sent)).status).toBe(200);
    // The provider sends it again.
    expect((await post(url, sent)).status).toBe(200);

    const conversation = await eventually(async () => {
      const res = await h.admin.get(
        `/clients/${client.clientId}/reviewing/conversations?pullRequestId=${number}&repositoryId=${FACTS[family].repositoryId}`,
      );
      const items = res.body.items as Json[];
      return items.length === 1 && items[0]?.outcome !== null && items[0];
    }, 20_000);
    expect(conversation).toMatchObject({
      pullRequestId: number,
      command: null,
      question,
      outcome: 'answered',
      answer: 'It retries three times with backoff.',
      providerThreadId: expect.any(String),
    });
    const replies = (h.fakes[family].writes.slice(before) as Json[]).filter(
      (w) => w.method === 'POST' && REPLY[family].test(w.path.split('?')[0] ?? ''),
    );
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]?.body)).toContain('It retries three times with backoff.');
  });
});
