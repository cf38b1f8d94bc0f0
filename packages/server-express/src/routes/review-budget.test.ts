import type { PullRequestScenario, RecordedWrite } from '@margin/core/testing';
import type { FakeChatModel } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi, TestHost } from '../testing/index.js';
import {
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  runQueuedJob as runQueuedJobOn,
  startReviewHarness,
  userOf,
} from '../testing/review-test-support.js';
import type { ScmFakes } from '../testing/scm-test-support.js';

/**
 * The hard spend cap per review (`MARGIN_REVIEW_HARD_CAP_USD`) through the stock host: with the
 * `budgeting` capability (Commercial) a review whose spend reaches it stops, publishes what it found
 * and ends `budgetExceeded`; in Community the same review runs uncapped. Every review call of the
 * fake model costs US$0.10 (100,000 input tokens at US$1 per million), so the cap of US$0.15 is
 * reached after the second of four chunks (one model call at a time).
 */
let fakes: ScmFakes;
let model: FakeChatModel;
let host: TestHost;
let admin: TestApi;

/** What the host announced as `job.completed`, for hooks and integrations listening on the bus. */
const announced: Array<{ jobId: string; status: string }> = [];

let harness: ReviewHarness;

beforeAll(async () => {
  harness = await startReviewHarness({
    env: { WORKER_ENABLED: 'false', MARGIN_REVIEW_HARD_CAP_USD: '0.15', MARGIN_REVIEW_MAX_CONCURRENT_MODEL_CALLS: '1' },
  });
  ({ fakes, model, host, admin } = harness);
  host.core.events.on('job.completed', (payload) => announced.push(payload));
});

afterAll(async () => {
  await harness?.close();
});

const runQueuedJob = (jobId: string) => runQueuedJobOn(host, admin, jobId);

const FILES = ['src/f1.ts', 'src/f2.ts', 'src/f3.ts', 'src/f4.ts'];
/** Unrelated defects, so the review does not merge them into one point across files. */
const DEFECTS = [
  ['Rounding drops the cents', 'Amounts are truncated to whole units before tax, so every invoice is short.'],
  ['Timezone offset ignored', 'Dates are read as UTC although the import file is in local time.'],
  ['Negative quantity accepted', 'A negative quantity passes validation and produces a credit note.'],
  ['Currency code swapped', 'The source and target currencies are passed in the wrong order.'],
];

/** Four added files, each too big to share a chunk with another (about 3,500 diff tokens each). */
function fourChunkScenario(number: number): PullRequestScenario {
  return {
    number,
    title: 'Add four modules',
    description: 'Four independent modules.',
    sourceBranch: `feature/modules-${number}`,
    targetBranch: 'main',
    headSha: 'f'.repeat(40),
    baseSha: 'd'.repeat(40),
    files: FILES.map((path, k) => ({
      path,
      changeType: 'added' as const,
      newText: `${Array.from(
        { length: 140 },
        (_, i) => `export const value${k}_${i + 1} = compute(${i + 1}, 'a fairly long argument to fill the line');`,
      ).join('\n')}\n`,
    })),
    branchFiles: { main: {} },
  };
}

/** Each review call finds one error on the first line of its file and costs US$0.10; the verifier confirms. */
function costlyReviews() {
  model.respondWith((request) => {
    if (isVerifying(request)) return confirmAll(request);
    const path = FILES.find((p) => userOf(request).includes(`## File: ${p}`)) ?? '';
    const k = FILES.indexOf(path);
    const [title, message] = DEFECTS[k] ?? ['', ''];
    return {
      ...findingsAnswer({
        path,
        quote: `export const value${k}_1 = compute(1, 'a fairly long argument to fill the line');`,
        startLine: 1,
        endLine: 1,
        category: 'bug',
        title,
        severity: 'error',
        message,
      }),
      usage: { prompt_tokens: 100_000, completion_tokens: 0 },
    };
  });
}

const coverageOf = (job: {
  result: { coverage: { files: Array<{ path: string; state: string; reason?: string }> } };
}) => Object.fromEntries(job.result.coverage.files.map((f) => [f.path, `${f.state}${f.reason ? `:${f.reason}` : ''}`]));

const line = (w: RecordedWrite) => `${w.method} ${w.path.split('?')[0]}`;
const isInline = (w: RecordedWrite) => /^POST \/api\/v3\/repositories\/\d+\/pulls\/\d+\/reviews$/.test(line(w));
const isSummary = (w: RecordedWrite) => /^POST \/api\/v3\/repositories\/\d+\/issues\/\d+\/comments$/.test(line(w));

async function submit(number: number, name: string) {
  await fakes.github.loadPullRequest(fourChunkScenario(number));
  const client = await reviewingClient(admin, fakes, 'github', model, name);
  costlyReviews();
  const submitted = await admin.post(
    `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
    client.coordinates(number),
  );
  expect(submitted.status).toBe(202);
  return submitted.body.jobId as string;
}

describe('the hard spend cap per review', () => {
  it('with budgeting (Commercial), stops at MARGIN_REVIEW_HARD_CAP_USD: budgetExceeded, with coverage, usage and the threads so far; restartable', async () => {
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    const before = fakes.github.writes.length;
    const jobId = await submit(901, 'Capped reviews');
    const chats = model.chats.length;

    const job = await runQueuedJob(jobId);

    expect(job.status).toBe('budgetExceeded');
    expect(announced).toContainEqual(expect.objectContaining({ jobId, status: 'budgetExceeded' }));
    expect(job.error).toMatch(
      /^Stopped at the hard spend cap of US\$0\.15 per review \(US\$0\.2\d* spent\): 2 files were not fully reviewed/,
    );
    expect(coverageOf(job)).toEqual({
      'src/f1.ts': 'reviewed',
      'src/f2.ts': 'reviewed',
      'src/f3.ts': 'skipped:budget',
      'src/f4.ts': 'skipped:budget',
    });
    expect(job.result.partial).toBe(true);
    expect(job.result.coverage).toMatchObject({
      complete: false,
      budget: { hardUsd: 0.15, degraded: [], stopped: { chunksNotStarted: 2, files: 2 } },
    });
    // Two review calls (and their verification) were made; none for the files past the cap.
    const reviewing = model.chats.slice(chats).filter((c) => !isVerifying(c));
    expect(reviewing.map((c) => FILES.find((p) => userOf(c).includes(`## File: ${p}`)))).toEqual([
      'src/f1.ts',
      'src/f2.ts',
    ]);
    expect(job.usage.estimatedCostUsd).toBeGreaterThanOrEqual(0.2);
    expect(job.usage.byModel.map((m: { purpose: string }) => m.purpose).sort()).toEqual([
      'reviewMediumEffort',
      'reviewVerification',
    ]);
    // The findings made before the stop are posted; the summary says where the review stopped.
    expect(
      job.result.findings.map((f: { filePath: string; publication: string }) => [f.filePath, f.publication]),
    ).toEqual([
      ['src/f1.ts', 'published'],
      ['src/f2.ts', 'published'],
    ]);
    const writes = fakes.github.writes.slice(before);
    const inline = writes.filter(isInline);
    expect(inline).toHaveLength(1);
    expect(inline[0]?.body).toMatchObject({
      comments: [
        { path: 'src/f1.ts', line: 1 },
        { path: 'src/f2.ts', line: 1 },
      ],
    });
    const summary = JSON.stringify(writes.filter(isSummary)[0]?.body);
    expect(summary).toContain('The review stopped at the hard spend cap of US$0.15 per review');
    expect(summary).toContain('`src/f3.ts`, `src/f4.ts`');
    const protocol = await admin.get(`/jobs/${jobId}/protocol?eventCategory=operational`);
    const stop = protocol.body.flatMap((p: { events: Array<{ name: string; body: unknown }> }) =>
      p.events.filter((e) => e.name === 'budget.exceeded'),
    );
    expect(stop).toEqual([
      expect.objectContaining({ body: expect.objectContaining({ hardUsd: 0.15, paths: ['src/f3.ts', 'src/f4.ts'] }) }),
    ]);

    // A budget state restarts as a failed job does: the same job, queued again, next attempt.
    const restarted = await admin.post(`/reviewing/jobs/${jobId}/restart`);
    expect(restarted.status).toBe(202);
    expect(restarted.body).toEqual({ jobId, status: 'queued', attempt: 2 });
    const again = await runQueuedJob(jobId);
    expect(again).toMatchObject({ status: 'budgetExceeded', attempt: 2 });
    // Nothing already posted is posted twice.
    expect(fakes.github.writes.slice(before).filter(isInline)).toHaveLength(1);
  });

  it('in Community (no budgeting), the same review runs uncapped and completes', async () => {
    expect((await admin.patch('/admin/licensing', { edition: 'Community' })).status).toBe(200);
    const before = fakes.github.writes.length;
    const jobId = await submit(902, 'Uncapped reviews');

    const job = await runQueuedJob(jobId);

    expect(job.status).toBe('completed');
    expect(job.error).toBeNull();
    expect(coverageOf(job)).toEqual(Object.fromEntries(FILES.map((p) => [p, 'reviewed'])));
    expect(job.result.coverage.budget).toBeUndefined();
    expect(job.usage.estimatedCostUsd).toBeGreaterThan(0.4);
    const inline = fakes.github.writes.slice(before).filter(isInline);
    expect(inline).toHaveLength(1);
    expect(inline[0]?.body).toMatchObject({ comments: FILES.map((path) => ({ path, line: 1 })) });
  });
});
