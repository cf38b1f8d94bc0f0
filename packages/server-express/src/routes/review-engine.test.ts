import type { RecordedWrite } from '@margin/core/testing';
import type { FakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TestApi, type TestHost } from '../testing/index.js';
import {
  billingScenario,
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  startReviewHarness,
  userOf,
} from '../testing/review-test-support.js';
import type { ScmFakes } from '../testing/scm-test-support.js';
import { delivery, FACTS, FAMILIES, type FamilyName, post } from '../testing/triggers-test-support.js';

let fakes: ScmFakes;
let model: FakeChatModel;
let host: TestHost;
let admin: TestApi;
let harness: ReviewHarness | undefined;

beforeAll(async () => {
  harness = await startReviewHarness();
  ({ fakes, model, host, admin } = harness);
});

afterAll(async () => {
  await harness?.close();
});

/** The model finds one real defect, quoting line 42 but numbering it 40, and the verifier confirms it. */
function answerWithOneDefect() {
  model.respondWith((request) => {
    if (isVerifying(request)) return confirmAll(request);
    if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
    return findingsAnswer({
      path: 'src/billing.ts',
      quote: 'const total = price * qty;',
      startLine: 40,
      endLine: 40,
      category: 'bug',
      title: 'Total ignores the discount',
      severity: 'error',
      message: 'The total is computed from `price` and `qty` only, so a discounted order is charged in full.',
    });
  });
}

const body = (w: RecordedWrite) => (w.body ?? {}) as Record<string, unknown>;

/** How each family's native requests look: the inline thread, the summary, and the summary's edit. */
const NATIVE: Record<
  FamilyName,
  {
    isInline(w: RecordedWrite): boolean;
    check(w: RecordedWrite, headSha: string): void;
    isSummary(w: RecordedWrite): boolean;
    isEdit(w: RecordedWrite): boolean;
  }
> = {
  github: {
    isInline: (w) => /^POST \/api\/v3\/repositories\/\d+\/pulls\/\d+\/reviews$/.test(line(w)),
    check(w, headSha) {
      expect(w.body).toMatchObject({
        commit_id: headSha,
        event: 'COMMENT',
        body: `1 comment on ${headSha.slice(0, 7)}.`,
        comments: [{ path: 'src/billing.ts', line: 42, side: 'RIGHT' }],
      });
    },
    isSummary: (w) => /^POST \/api\/v3\/repositories\/\d+\/issues\/\d+\/comments$/.test(line(w)),
    isEdit: (w) => /^PATCH \/api\/v3\/repositories\/\d+\/issues\/comments\/\d+$/.test(line(w)),
  },
  ado: {
    isInline: (w) => /\/pullRequests\/\d+\/threads$/.test(line(w)) && w.method === 'POST' && 'threadContext' in body(w),
    check(w) {
      expect(w.body).toMatchObject({
        status: 'active',
        threadContext: {
          filePath: '/src/billing.ts',
          rightFileStart: { line: 42, offset: 1 },
          rightFileEnd: { line: 42 },
        },
        pullRequestThreadContext: {
          changeTrackingId: expect.any(Number),
          iterationContext: { firstComparingIteration: 1, secondComparingIteration: expect.any(Number) },
        },
      });
    },
    isSummary: (w) =>
      /\/pullRequests\/\d+\/threads$/.test(line(w)) && w.method === 'POST' && !('threadContext' in body(w)),
    isEdit: (w) => w.method === 'PATCH' && /\/pullRequests\/\d+\/threads\/\d+\/comments\/\d+$/.test(line(w)),
  },
  gitlab: {
    isInline: (w) => /^POST \/api\/v4\/projects\/\d+\/merge_requests\/\d+\/discussions$/.test(line(w)),
    check(w, headSha) {
      expect(w.body).toMatchObject({
        position: {
          position_type: 'text',
          base_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
          start_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
          head_sha: headSha,
          old_path: 'src/billing.ts',
          new_path: 'src/billing.ts',
          new_line: 42,
        },
      });
    },
    isSummary: (w) => /^POST \/api\/v4\/projects\/\d+\/merge_requests\/\d+\/notes$/.test(line(w)),
    isEdit: (w) => /^PUT \/api\/v4\/projects\/\d+\/merge_requests\/\d+\/notes\/\d+$/.test(line(w)),
  },
  bitbucket: {
    isInline: (w) => /\/pullrequests\/\d+\/comments$/.test(line(w)) && w.method === 'POST' && 'inline' in body(w),
    check(w) {
      expect(w.body).toMatchObject({ inline: { path: 'src/billing.ts', to: 42 } });
    },
    isSummary: (w) => /\/pullrequests\/\d+\/comments$/.test(line(w)) && w.method === 'POST' && !('inline' in body(w)),
    isEdit: (w) => w.method === 'PUT' && /\/pullrequests\/\d+\/comments\/\d+$/.test(line(w)),
  },
};

const line = (w: RecordedWrite) => `${w.method} ${w.path.split('?')[0]}`;

describe.each(FAMILIES)('a review through the stock host on %s', (family) => {
  it('posts the finding at the right line in the native shape, summarises once, and reports coverage, usage and protocol', async () => {
    const number = 700 + FAMILIES.indexOf(family);
    const scenario = billingScenario(number);
    await fakes[family].loadPullRequest(scenario);
    const client = await reviewingClient(admin, fakes, family, model);
    answerWithOneDefect();
    const writes = fakes[family].writes;
    const before = writes.length;

    const submitted = await admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(number),
    );
    expect(submitted.status).toBe(202);
    const job = await eventually(async () => {
      const res = await admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
      return ['completed', 'failed'].includes(res.body.status) ? res.body : undefined;
    }, 20_000);
    expect(job.error).toBeNull();
    expect(job.status).toBe('completed');

    const [finding] = job.result.findings;
    expect(job.result.findings).toHaveLength(1);
    expect(finding).toMatchObject({
      filePath: 'src/billing.ts',
      startLine: 42,
      endLine: 42,
      severity: 'error',
      publication: 'published',
      anchorMethod: 'quote',
      providerThreadId: expect.any(String),
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const coverage = Object.fromEntries(
      job.result.coverage.files.map((f: { path: string; state: string; reason?: string }) => [
        f.path,
        `${f.state}${f.reason ? `:${f.reason}` : ''}`,
      ]),
    );
    expect(coverage).toEqual({
      'assets/logo.png': 'skipped:binary',
      'pnpm-lock.yaml': 'skipped:lockFile',
      'src/billing.ts': 'reviewed',
      'src/legacy.ts': 'skipped:deleteOnly',
      'src/tax.ts': 'reviewed',
    });
    expect(job.result.summary).toContain('Total ignores the discount');
    expect(job.usage.byModel.map((m: { purpose: string }) => m.purpose).sort()).toEqual([
      'reviewLowEffort',
      'reviewVerification',
    ]);
    expect(job.usage.estimatedCostUsd).toBeGreaterThan(0);
    expect(job.progress).toEqual({ filesTotal: 5, filesDone: 5 });
    expect(job.configuration).toMatchObject({ configurationId: client.webhook.id });

    const mine = writes.slice(before);
    const inline = mine.filter((w) => NATIVE[family].isInline(w));
    expect(inline).toHaveLength(1);
    NATIVE[family].check(inline[0] as RecordedWrite, scenario.headSha);
    expect(JSON.stringify(inline[0]?.body)).toContain('Total ignores the discount');
    const summaries = mine.filter((w) => NATIVE[family].isSummary(w));
    expect(summaries).toHaveLength(1);
    expect(JSON.stringify(summaries[0]?.body)).toContain('Margin review');
    expect(JSON.stringify(mine)).not.toContain(model.profile().auth.apiKey);

    const protocol = await admin.get(`/jobs/${job.jobId}/protocol`);
    expect(protocol.body.map((p: { stage: string }) => p.stage)).toEqual(
      expect.arrayContaining(['resolve', 'collect', 'plan', 'review', 'verify', 'filter', 'summarize', 'publish']),
    );
    const aiCalls = await admin.get(`/jobs/${job.jobId}/protocol?eventCategory=ai-call`);
    expect(aiCalls.body.flatMap((p: { events: unknown[] }) => p.events).length).toBeGreaterThan(0);

    // The same revision again: every file is carried forward (no model call), nothing new is posted,
    // the earlier finding is still open, and the summary is edited in place.
    const modelCalls = model.chats.length;
    const again = await admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(number),
    );
    expect(again.status).toBe(202);
    const second = await eventually(async () => {
      const res = await admin.get(`/reviewing/jobs/${again.body.jobId}/status`);
      return ['completed', 'failed'].includes(res.body.status) ? res.body : undefined;
    }, 20_000);
    expect(second.status).toBe('completed');
    expect(second.result.findings).toEqual([]);
    expect(model.chats.length).toBe(modelCalls);
    expect(second.result.coverage.counts).toMatchObject({ reviewed: 0, carriedForward: 2, skipped: 3 });
    expect(second.result.lifecycle).toMatchObject({ stillOpen: 1, resolved: 0, reopened: 0 });
    expect(second.result.summary).toContain('1 still open from earlier reviews');
    const secondWrites = writes.slice(before + mine.length);
    expect(secondWrites.filter((w) => NATIVE[family].isInline(w))).toHaveLength(0);
    expect(secondWrites.filter((w) => NATIVE[family].isEdit(w))).toHaveLength(1);
    expect(secondWrites.filter((w) => w.method === 'POST')).toHaveLength(0);
  });
});

describe('a review started by a webhook', () => {
  it('goes from the delivery to threads on the pull request, under the configuration that received it', async () => {
    const number = 720;
    const scenario = billingScenario(number, 'f');
    await fakes.github.loadPullRequest(scenario);
    const client = await reviewingClient(admin, fakes, 'github', model, 'Webhook reviews');
    answerWithOneDefect();
    const before = fakes.github.writes.length;
    const hook = delivery('github', FACTS.github.opened, client.webhook.generatedSecret, {
      edit: (payload) => {
        payload.number = number;
        payload.pull_request.number = number;
        payload.pull_request.head.sha = scenario.headSha;
        payload.pull_request.base.sha = scenario.baseSha;
      },
    });
    const answered = await post(`${host.url}${new URL(client.webhook.listenerUrl).pathname}`, hook);
    expect(answered).toMatchObject({ status: 200, body: { status: 'accepted' } });
    const job = await eventually(async () => {
      const list = await admin.get(`/clients/${client.clientId}/reviewing/jobs?pullRequestId=${number}`);
      const found = list.body.items?.[0];
      return found && ['completed', 'failed'].includes(found.status) ? found : undefined;
    }, 20_000);
    expect(job).toMatchObject({ status: 'completed', trigger: 'webhook', error: null });
    expect(job.configuration).toMatchObject({ configurationId: client.webhook.id });
    expect(job.result).toMatchObject({ findingCount: 1, coverage: { counts: { reviewed: 2, skipped: 3 } } });
    const inline = fakes.github.writes.slice(before).filter((w) => NATIVE.github.isInline(w));
    expect(inline).toHaveLength(1);
    NATIVE.github.check(inline[0] as RecordedWrite, scenario.headSha);
  });
});

describe('a review whose every chunk fails', () => {
  it('fails the job saying so, posts nothing, and still reports the coverage and what the attempts cost', async () => {
    const number = 730;
    await fakes.github.loadPullRequest(billingScenario(number, 'e'));
    const client = await reviewingClient(admin, fakes, 'github', model, 'Unreadable answers');
    // Prose with no JSON in it, on every call including the repair.
    model.respondWith(() => ({ content: 'I looked at the change and it seems fine to me overall.' }));
    const before = fakes.github.writes.length;
    const submitted = await admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(number),
    );
    const job = await eventually(async () => {
      const res = await admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
      return ['completed', 'failed'].includes(res.body.status) ? res.body : undefined;
    }, 20_000);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^No part of the pull request could be reviewed \(.+\); nothing was posted\./);
    expect(job.result.findings).toEqual([]);
    expect(job.result.coverage.counts).toMatchObject({ reviewFailed: 2, skipped: 3 });
    expect(job.usage.inputTokens).toBeGreaterThan(0);
    expect(job.usage.estimatedCostUsd).toBeGreaterThan(0);
    expect(fakes.github.writes.slice(before).filter((w) => w.method !== 'GET')).toEqual([]);
  });
});
