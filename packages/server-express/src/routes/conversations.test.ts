import { billingScenario } from '@margin/cli/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentDelivery, MARGIN_IDENTITY, mentionedClient } from '../testing/conversation-test-support.js';
import { eventually, type TestApi } from '../testing/index.js';
import { type ReviewHarness, startReviewHarness } from '../testing/review-test-support.js';
import { SECRETS } from '../testing/scm-test-support.js';
import { delivery, FACTS, post } from '../testing/triggers-test-support.js';

// Payloads are free-form JSON; the writes recorded by the fakes too.
type Json = Record<string, any>;

describe('mentions of Margin through the stock host (GitHub)', () => {
  let h: ReviewHarness;
  let admin: TestApi;
  let client: Awaited<ReturnType<typeof mentionedClient>>;
  let url: string;
  let secret: string;
  let nextComment = 3_100_000_000;

  beforeAll(async () => {
    // Jobs stay queued: the tests look at what was queued, not at reviews.
    h = await startReviewHarness({ env: { WORKER_ENABLED: 'false', CRAWL_SCHEDULER_INTERVAL_MILLISECONDS: '50' } });
    admin = h.admin;
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    client = await mentionedClient(admin, h.fakes, 'github', h.model);
    url = `${h.host.url}${new URL(client.webhook.listenerUrl).pathname}`;
    secret = client.webhook.generatedSecret;
  });
  afterAll(async () => {
    await h?.close();
  });

  const pullRequest = async (number: number) => {
    await h.fakes.github.loadPullRequest(billingScenario(number));
    return number;
  };
  const mention = (pullRequestId: number, body: string, extra: { createdAt?: string; deliveryId?: string } = {}) => {
    const commentId = nextComment++;
    return { commentId, delivery: commentDelivery('github', secret, { pullRequestId, commentId, body, ...extra }) };
  };
  const conversations = async (pullRequestId: number) => {
    const res = await admin.get(
      `/clients/${client.clientId}/reviewing/conversations?repositoryId=${FACTS.github.repositoryId}&pullRequestId=${pullRequestId}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items as Json[];
  };
  const settled = (pullRequestId: number, count = 1) =>
    eventually(async () => {
      const items = await conversations(pullRequestId);
      return items.length === count && items.every((c) => c.outcome !== null) && items;
    }, 20_000);
  const commentsPosted = (pullRequestId: number) =>
    h.fakes.github.writes.filter(
      (w) => w.method === 'POST' && w.path.split('?')[0]?.endsWith(`/issues/${pullRequestId}/comments`),
    ) as Json[];
  const jobsOf = async (pullRequestId: number) => {
    const res = await admin.get(`/clients/${client.clientId}/reviewing/jobs`);
    return (res.body.items as Json[]).filter((j) => j.codeReview.number === pullRequestId);
  };

  it('answers a question once, however often the comment is delivered, from the model with the pull request as context', async () => {
    const pr = await pullRequest(801);
    h.model.respondWith({ content: 'The provider pages by 250, so one call reads a page.' });
    const chatsBefore = h.model.chats.length;
    const asked = mention(pr, `${MARGIN_IDENTITY.github.mention} why is the page size 250 here?`);
    expect((await post(url, asked.delivery)).status).toBe(200);
    // The same delivery again, and the same comment in another delivery (a redelivery, a second hook).
    await post(url, asked.delivery);
    const again = commentDelivery('github', secret, {
      pullRequestId: pr,
      commentId: asked.commentId,
      body: `${MARGIN_IDENTITY.github.mention} why is the page size 250 here?`,
    });
    expect((await post(url, again)).status).toBe(200);

    const [conversation] = await settled(pr);
    expect(conversation).toEqual({
      id: expect.any(String),
      repositoryId: FACTS.github.repositoryId,
      pullRequestId: pr,
      providerThreadId: null,
      commentId: String(asked.commentId),
      author: { externalUserId: '5830002', login: 'grace', displayName: 'grace', isBot: false },
      command: null,
      question: `${MARGIN_IDENTITY.github.mention} why is the page size 250 here?`,
      answer: 'The provider pages by 250, so one call reads a page.',
      outcome: 'answered',
      jobId: null,
      usage: {
        inputTokens: expect.any(Number),
        cachedInputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
        reasoningTokens: expect.any(Number),
        estimatedCostUsd: expect.any(Number),
      },
      createdAt: expect.any(String),
    });
    expect(h.model.chats.length).toBe(chatsBefore + 1);
    const prompt = JSON.stringify(h.model.chats.at(-1));
    expect(prompt).toContain('<<<UNTRUSTED question nonce=');
    expect(prompt).toContain('<<<UNTRUSTED pull-request nonce=');

    // A conversation comment has no thread: the answer is a new comment quoting the question.
    const posted = commentsPosted(pr);
    expect(posted).toHaveLength(1);
    const body = String(posted[0]?.body.body);
    expect(body.startsWith('> @margin-review why is the page size 250 here?')).toBe(true);
    expect(body).toContain('The provider pages by 250, so one call reads a page.');

    // The call is in the usage ledger under `mention`.
    const usage = await admin.get(`/admin/clients/${client.clientId}/token-usage?groupBy=source`);
    expect(usage.body.rows.map((r: Json) => r.key)).toContain('mention');
  });

  it('does not answer a quoted mention, a mention in code, Margin’s own comment or a comment older than the configuration', async () => {
    const pr = await pullRequest(802);
    const chatsBefore = h.model.chats.length;
    const ignored = [
      mention(pr, '> @margin-review review\n\nI agree with this.'),
      mention(pr, 'Run `@margin-review review` to ask again.'),
      mention(pr, '```\n@margin-review help\n```'),
      mention(pr, '@margin-review help', { createdAt: '2020-01-01T00:00:00Z' }),
    ];
    for (const m of ignored) expect((await post(url, m.delivery)).status).toBe(200);
    const own = commentDelivery('github', secret, {
      pullRequestId: pr,
      commentId: nextComment++,
      body: '@margin-review help',
    });
    const byMargin = JSON.parse(own.body);
    byMargin.comment.user = { ...byMargin.comment.user, login: 'margin-review', id: 90000001, type: 'Bot' };
    expect(
      (
        await post(
          url,
          delivery('github', 'webhook-issue-comment-pull-request.json', secret, {
            edit: (p) => Object.assign(p, byMargin),
          }),
        )
      ).status,
    ).toBe(200);
    // A mention sent last is answered: everything before it was looked at and left alone.
    expect((await post(url, mention(pr, '@margin-review help').delivery)).status).toBe(200);

    const [only] = await settled(pr);
    expect(only).toMatchObject({ command: 'help', outcome: 'answered' });
    expect(h.model.chats.length).toBe(chatsBefore);
    expect(commentsPosted(pr)).toHaveLength(1);
  });

  it('over a hard spend cap, says the budget is used up and calls no model', async () => {
    const capped = await mentionedClient(admin, h.fakes, 'github', h.model);
    const cappedUrl = `${h.host.url}${new URL(capped.webhook.listenerUrl).pathname}`;
    expect((await admin.put(`/admin/clients/${capped.clientId}/budget`, { monthlyHardCapUsd: 0 })).status).toBe(200);
    const pr = await pullRequest(807);
    const chatsBefore = h.model.chats.length;
    const sent = commentDelivery('github', capped.webhook.generatedSecret, {
      pullRequestId: pr,
      commentId: nextComment++,
      body: '@margin-review is this thread-safe?',
    });
    expect((await post(cappedUrl, sent)).status).toBe(200);
    const [refused] = await eventually(async () => {
      const res = await admin.get(`/clients/${capped.clientId}/reviewing/conversations?pullRequestId=${pr}`);
      const items = res.body.items as Json[];
      return items.length === 1 && items[0]?.outcome !== null && items;
    }, 20_000);
    expect(refused).toMatchObject({ outcome: 'refused', usage: null });
    expect(refused?.answer).toContain('budget');
    expect(h.model.chats.length).toBe(chatsBefore);
    expect(String(commentsPosted(pr)[0]?.body.body)).toContain('budget for this period is used up');
  });

  it('queues a review with `review`, and refuses it while the pull request is blocked', async () => {
    const pr = await pullRequest(803);
    expect((await post(url, mention(pr, '@margin-review review').delivery)).status).toBe(200);
    const [queued] = await settled(pr);
    const jobs = await jobsOf(pr);
    expect(jobs).toHaveLength(1);
    expect(queued).toMatchObject({ command: 'review', outcome: 'queuedReview', jobId: jobs[0]?.jobId });
    expect(String(commentsPosted(pr)[0]?.body.body)).toContain(String(jobs[0]?.jobId));

    const blocked = await pullRequest(804);
    const block = await admin.post(`/clients/${client.clientId}/reviewing/blocked-prs`, {
      ...client.coordinates(blocked),
      reason: 'release freeze',
    });
    expect(block.status, JSON.stringify(block.body)).toBe(200);
    expect((await post(url, mention(blocked, '@margin-review review').delivery)).status).toBe(200);
    const [refused] = await settled(blocked);
    expect(refused).toMatchObject({ command: 'review', outcome: 'refused', jobId: null });
    expect(refused?.answer).toContain('release freeze');
    expect(await jobsOf(blocked)).toEqual([]);

    // An administrator's block is not lifted from a comment.
    expect((await post(url, mention(blocked, '@margin-review resume').delivery)).status).toBe(200);
    const [resume] = await settled(blocked, 2);
    expect(resume).toMatchObject({ command: 'resume', outcome: 'refused' });
    const blocks = await admin.get(`/clients/${client.clientId}/reviewing/blocked-prs`);
    expect(blocks.body.items).toContainEqual(
      expect.objectContaining({ pullRequestId: blocked, reason: 'release freeze' }),
    );
  });

  it('`pause` stops the next automatic review and `resume` restores it', async () => {
    const pr = await pullRequest(805);
    const push = () =>
      delivery('github', FACTS.github.updated, secret, {
        edit: (p) => {
          p.pull_request.number = pr;
        },
      });
    expect((await post(url, mention(pr, '@margin-review pause').delivery)).status).toBe(200);
    const [paused] = await settled(pr);
    expect(paused).toMatchObject({ command: 'pause', outcome: 'paused' });
    const blocks = await admin.get(`/clients/${client.clientId}/reviewing/blocked-prs`);
    expect(blocks.body.items).toContainEqual(expect.objectContaining({ pullRequestId: pr, reason: 'paused by grace' }));

    expect((await post(url, push())).status).toBe(200);
    const skipped = await eventually(async () => {
      const res = await admin.get(`/admin/webhook-configurations/${client.webhook.id}/deliveries`);
      return (res.body.items as Json[]).find(
        (d) => d.pullRequestId === pr && d.eventType === 'pull_request.synchronize' && d.actions.length > 0,
      );
    }, 20_000);
    expect(skipped.actions).toEqual(['skipped: blocked (paused by grace)']);
    expect(await jobsOf(pr)).toEqual([]);

    expect((await post(url, mention(pr, '@margin-review resume').delivery)).status).toBe(200);
    const done = await settled(pr, 2);
    expect(done[0]).toMatchObject({ command: 'resume', outcome: 'resumed' });
    expect((await post(url, push())).status).toBe(200);
    const jobs = await eventually(async () => {
      const found = await jobsOf(pr);
      return found.length === 1 && found;
    }, 20_000);
    expect(jobs[0]).toMatchObject({ trigger: 'webhook', status: 'queued' });
  });

  // Last: the crawl configuration crawls every open pull request of the fake.
  it('the crawler finds mentions in open pull requests’ threads, once with the webhook’s', async () => {
    const pr = await pullRequest(806);
    const crawl = await admin.post('/admin/crawl-configurations', {
      clientId: client.clientId,
      organizationScopeId: client.scopeId,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 3600,
      isActive: false,
    });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(201);
    // Two people's comments on the provider, after the configuration: one also delivered by the webhook.
    const comment = async (body: string) => {
      const res = await fetch(
        `${h.fakes.github.hostUrl}/api/v3/repositories/${FACTS.github.repositoryId}/issues/${pr}/comments`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${SECRETS.github}`, 'content-type': 'application/json' },
          body: JSON.stringify({ body }),
        },
      );
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    const delivered = await comment('@margin-review help');
    await comment('@margin-review what does this change do?');
    expect(
      (
        await post(
          url,
          commentDelivery('github', secret, { pullRequestId: pr, commentId: delivered, body: '@margin-review help' }),
        )
      ).status,
    ).toBe(200);
    await settled(pr);
    h.model.respondWith({ content: 'It adds retries to the uploader.' });

    expect((await admin.patch(`/admin/crawl-configurations/${crawl.body.id}`, { isActive: true })).status).toBe(200);
    const items = await settled(pr, 2);
    expect(items.map((c) => `${c.command ?? 'question'}: ${c.outcome}`).sort()).toEqual([
      'help: answered',
      'question: answered',
    ]);
    expect(items.find((c) => c.command === null)?.answer).toBe('It adds retries to the uploader.');
    const answers = commentsPosted(pr).filter((w) => String(w.body.body).startsWith('> '));
    expect(answers).toHaveLength(2);
  });

  it('lists conversations to client users only, and refuses a bad query', async () => {
    expect((await admin.get(`/clients/${client.clientId}/reviewing/conversations?limit=0`)).status).toBe(400);
    const res = await admin.get(`/clients/${client.clientId}/reviewing/conversations?pullRequestId=abc`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    const anonymous = await fetch(`${h.host.url}/api/clients/${client.clientId}/reviewing/conversations`);
    expect(anonymous.status).toBe(401);
  });
});
