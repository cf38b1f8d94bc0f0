import { COMMIT_STATUS_EVENT, COMMIT_STATUS_NAME } from '@margin/core/spec';
import type { RecordedWrite } from '@margin/core/testing';
import type { FakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TestApi } from '../testing/index.js';
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
import { FAMILIES, type FamilyName } from '../testing/triggers-test-support.js';

/**
 * The review's status on the provider and committable suggestions, through the stock host and the
 * four provider fakes: the head carries a pending `Margin review` status while the job runs and the
 * final one when it ends, linking the console's job page; a token without the right to set statuses
 * leaves the job completed with a protocol warning; GitHub and GitLab get suggestions they can commit.
 */
const PUBLIC_BASE = 'https://reviews.example.com';
const REPLACEMENT = '  const total = price * qty * (1 - discount);\n  step(43);';

let fakes: ScmFakes;
let model: FakeChatModel;
let admin: TestApi;
let harness: ReviewHarness | undefined;

beforeAll(async () => {
  harness = await startReviewHarness({ env: { MARGIN_PUBLIC_BASE_URL: PUBLIC_BASE } });
  ({ fakes, model, admin } = harness);
});

afterAll(async () => {
  await harness?.close();
});

/** The provider's words for the pending and the successful status, and where it records them. */
const WIRE: Record<FamilyName, { pending: string; success: string; target(headSha: string, number: number): string }> =
  {
    github: { pending: 'pending', success: 'success', target: (sha) => sha },
    gitlab: { pending: 'running', success: 'success', target: (sha) => sha },
    bitbucket: { pending: 'INPROGRESS', success: 'SUCCESSFUL', target: (sha) => sha },
    ado: { pending: 'pending', success: 'succeeded', target: (_sha, number) => `pr:${number}` },
  };

/** The inline comment each family's fake received (GitHub posts it inside a review). */
const INLINE: Record<FamilyName, (w: RecordedWrite) => boolean> = {
  github: (w) => w.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(w.path),
  gitlab: (w) => w.method === 'POST' && /\/merge_requests\/\d+\/discussions$/.test(w.path),
  bitbucket: (w) => w.method === 'POST' && /\/comments$/.test(w.path) && 'inline' in ((w.body ?? {}) as object),
  ado: (w) => w.method === 'POST' && /\/threads$/.test(w.path) && 'threadContext' in ((w.body ?? {}) as object),
};

/** One defect on lines 42–43 (quoted, numbered right), with a replacement for exactly those lines, or for `lines`. */
function answerWithSuggestion(lines: [number, number] = [42, 43]) {
  model.respondWith((request) => {
    if (isVerifying(request)) return confirmAll(request);
    if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
    return findingsAnswer({
      path: 'src/billing.ts',
      quote: 'const total = price * qty;',
      startLine: lines[0],
      endLine: lines[1],
      category: 'bug',
      title: 'Total ignores the discount',
      severity: 'error',
      message: 'The total is computed from `price` and `qty` only, so a discounted order is charged in full.',
      suggestion: REPLACEMENT,
    });
  });
}

/** Queues a review of the fake's pull request `number` and waits until the job has ended. */
async function reviewOf(family: FamilyName, number: number, name: string) {
  await fakes[family].loadPullRequest(billingScenario(number));
  const client = await reviewingClient(admin, fakes, family, model, name);
  const submitted = await admin.post(
    `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
    client.coordinates(number),
  );
  expect(submitted.status).toBe(202);
  const job = await eventually(async () => {
    const res = await admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
    return ['queued', 'running'].includes(res.body.status) ? undefined : res.body;
  }, 20_000);
  return { client, job };
}

const inlineBodyOf = (family: FamilyName, writes: readonly RecordedWrite[]) =>
  JSON.stringify(
    writes
      .map((w) => ({ ...w, path: w.path.split('?')[0] ?? '' }))
      .filter(INLINE[family])
      .map((w) => w.body),
  );

describe.each(FAMILIES)('the review status on %s', (family) => {
  it('goes pending while the job runs and success with the counts at its end, linking the job page', async () => {
    const number = 910 + FAMILIES.indexOf(family);
    const scenario = billingScenario(number);
    answerWithSuggestion();
    const writesBefore = fakes[family].writes.length;
    const statusesBefore = fakes[family].statuses.length;

    const { client, job } = await reviewOf(family, number, `Statuses on ${family}`);

    expect(job).toMatchObject({ status: 'completed', error: null });
    const target = WIRE[family].target(scenario.headSha, number);
    const statuses = fakes[family].statuses.slice(statusesBefore);
    expect(statuses.every((s) => s.commit === target)).toBe(true);
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      [COMMIT_STATUS_NAME, WIRE[family].pending],
      [COMMIT_STATUS_NAME, WIRE[family].success],
    ]);
    expect(statuses.at(-1)).toMatchObject({
      description: '1 finding: 1 error',
      targetUrl: `${PUBLIC_BASE}/clients/${client.clientId}/reviews/${job.jobId}`,
    });
    if (family === 'ado') {
      // Pinned to the iteration the review was about.
      expect(statuses[0]?.body).toMatchObject({ context: { genre: 'margin' }, iterationId: expect.any(Number) });
    }

    // Committable where the family takes suggestions; Azure DevOps and Bitbucket keep the plain block.
    const posted = inlineBodyOf(family, fakes[family].writes.slice(writesBefore));
    const fence = { github: '```suggestion\\n', gitlab: '```suggestion:-1+0\\n' } as Record<string, string>;
    if (fence[family]) {
      expect(posted).toContain(`${fence[family]}${JSON.stringify(REPLACEMENT).slice(1, -1)}\\n\`\`\``);
      expect(posted).not.toContain('Suggested change:');
    } else {
      expect(posted).toContain('Suggested change:');
      expect(posted).not.toContain('```suggestion');
    }
  });

  it('refused for a token without the right, leaves the job completed with a protocol warning', async () => {
    const number = 920 + FAMILIES.indexOf(family);
    answerWithSuggestion();
    const recorded = fakes[family].statuses.length;
    fakes[family].refuseStatuses(true);
    try {
      const { job } = await reviewOf(family, number, `Refused statuses on ${family}`);

      expect(job).toMatchObject({ status: 'completed', error: null });
      expect(job.result.findings).toHaveLength(1);
      expect(fakes[family].statuses).toHaveLength(recorded);
      const protocol = await admin.get(`/jobs/${job.jobId}/protocol?eventCategory=publication`);
      const warnings = protocol.body
        .flatMap((p: { events: Array<{ kind: string; name: string; body: unknown }> }) => p.events)
        .filter((e: { name: string }) => e.name === COMMIT_STATUS_EVENT.refused);
      expect(warnings).toEqual([
        expect.objectContaining({
          kind: 'warning',
          body: expect.objectContaining({ state: 'pending', providerStatus: 403 }),
        }),
      ]);
    } finally {
      fakes[family].refuseStatuses(false);
    }
  });
});

describe('a review that fails', () => {
  it('ends its status as a failure saying why', async () => {
    const number = 950;
    // Prose with no JSON in it, on every call including the repair: no part can be reviewed.
    model.respondWith(() => ({ content: 'I looked at the change and it seems fine to me overall.' }));
    const before = fakes.github.statuses.length;

    const { job } = await reviewOf('github', number, 'Failing reviews');

    expect(job.status).toBe('failed');
    const statuses = fakes.github.statuses.slice(before);
    expect(statuses.map((s) => s.state)).toEqual(['pending', 'failure']);
    expect(statuses[1]?.description).toMatch(/^No part of the pull request could be reviewed/);
    expect(statuses[1]?.description?.length).toBeLessThanOrEqual(140);
  });
});

describe.each(['github', 'gitlab'] as const)(
  'a suggestion on %s that does not replace its anchored lines',
  (family) => {
    it('is posted as the plain block, not as a committable one', async () => {
      const number = 930 + FAMILIES.indexOf(family);
      // Lines 42–48 run past the hunk, which ends at 45: the anchor is cut to 42–45.
      answerWithSuggestion([42, 48]);
      const writesBefore = fakes[family].writes.length;

      const { job } = await reviewOf(family, number, `Mismatched suggestion on ${family}`);

      expect(job.status).toBe('completed');
      expect(job.result.findings[0]).toMatchObject({ startLine: 42, endLine: 45, suggestion: REPLACEMENT });
      const posted = inlineBodyOf(family, fakes[family].writes.slice(writesBefore));
      expect(posted).toContain('Suggested change:');
      expect(posted).not.toContain('```suggestion');
    });
  },
);

describe('MARGIN_PROVIDER_STATUS=false', () => {
  let quiet: ReviewHarness | undefined;
  beforeAll(async () => {
    quiet = await startReviewHarness({ env: { MARGIN_PROVIDER_STATUS: 'false' } });
  });
  afterAll(async () => {
    await quiet?.close();
  });

  it('sets no status, and the review runs as before', async () => {
    if (!quiet) throw new Error('no host');
    const h = quiet;
    const number = 940;
    await h.fakes.github.loadPullRequest(billingScenario(number));
    const client = await reviewingClient(h.admin, h.fakes, 'github', h.model, 'No statuses');
    h.model.respondWith((request) => (isVerifying(request) ? confirmAll(request) : findingsAnswer()));
    const submitted = await h.admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(number),
    );
    const job = await eventually(async () => {
      const res = await h.admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
      return ['queued', 'running'].includes(res.body.status) ? undefined : res.body;
    }, 20_000);

    expect(job.status).toBe('completed');
    expect(h.fakes.github.statuses).toEqual([]);
  });
});

describe('on PostgreSQL', () => {
  let pg: ReviewHarness | undefined;
  beforeAll(async () => {
    pg = await startReviewHarness({ dialect: 'postgres', env: { MARGIN_PUBLIC_BASE_URL: PUBLIC_BASE } });
  });
  afterAll(async () => {
    await pg?.close();
  });

  it('records a refused status as the protocol warning, and the job completes', async () => {
    if (!pg) throw new Error('no host');
    const h = pg;
    const number = 960;
    await h.fakes.github.loadPullRequest(billingScenario(number));
    const client = await reviewingClient(h.admin, h.fakes, 'github', h.model, 'Refused on PostgreSQL');
    h.model.respondWith((request) => (isVerifying(request) ? confirmAll(request) : findingsAnswer()));
    h.fakes.github.refuseStatuses(true);
    const submitted = await h.admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(number),
    );
    const job = await eventually(async () => {
      const res = await h.admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
      return ['queued', 'running'].includes(res.body.status) ? undefined : res.body;
    }, 20_000);

    expect(job).toMatchObject({ status: 'completed', error: null });
    const protocol = await h.admin.get(`/jobs/${job.jobId}/protocol?eventCategory=publication`);
    const names = protocol.body.flatMap((p: { events: Array<{ name: string }> }) => p.events.map((e) => e.name));
    expect(names.filter((n: string) => n === COMMIT_STATUS_EVENT.refused)).toHaveLength(1);
    expect(h.fakes.github.statuses).toEqual([]);
  });
});
