import { type FakeChatModel, GH_REPOSITORY_ID } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TestApi, type TestHost } from '../testing/index.js';
import {
  billingScenario,
  findingsAnswer,
  type ReviewHarness,
  reviewingClient,
  startReviewHarness,
} from '../testing/review-test-support.js';
import type { ScmFakes } from '../testing/scm-test-support.js';
import { fixtureText } from '../testing/triggers-test-support.js';

/**
 * A provider that sends its headers and then trickles the body, one byte at a time, must not hold a
 * job in `running`: every outbound call has a deadline that covers the whole body. Here it is one
 * second per attempt (three retries, so a call gives up within four), far below the trickle's pace.
 */
let fakes: ScmFakes;
let model: FakeChatModel;
let host: TestHost;
let admin: TestApi;
let harness: ReviewHarness | undefined;

beforeAll(async () => {
  harness = await startReviewHarness({ env: { MARGIN_AI_TIMEOUT_SECONDS: '1', MARGIN_SCM_TIMEOUT_SECONDS: '1' } });
  ({ fakes, model, host, admin } = harness);
});

afterAll(async () => {
  await harness?.close();
});

/** One byte every 200 ms: a few hundred bytes take a minute. */
const TRICKLE_MS = 200;
/** Generous: a call gives up within 4 s; the rest is the host's own work on a busy machine. */
const ENDS_WITHIN_MS = 45_000;
const TEST_MS = 60_000;

/** Waits for the job to end, checking on the way that the host answers its health check. */
async function endOf(jobId: string) {
  const started = Date.now();
  const job = await eventually(async () => {
    const health = await fetch(`${host.url}/api/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const res = await admin.get(`/reviewing/jobs/${jobId}/status`);
    return ['queued', 'running'].includes(res.body.status) ? undefined : res.body;
  }, ENDS_WITHIN_MS);
  return { job, ms: Date.now() - started };
}

/**
 * A client reviewing GitHub pull request `number` with a model that answers at once (until the test
 * says otherwise), and a job for the pull request's head, named by its SHAs so that queueing it reads
 * nothing from GitHub: the first read is the worker's.
 */
async function submit(number: number, name: string) {
  const scenario = billingScenario(number);
  await fakes.github.loadPullRequest(scenario);
  model.respondWith(findingsAnswer());
  const client = await reviewingClient(admin, fakes, 'github', model, name);
  return async () => {
    const submitted = await admin.post(`/clients/${client.clientId}/reviewing/jobs`, {
      provider: 'gitHostA',
      hostBaseUrl: fakes.github.hostUrl,
      repository: { externalRepositoryId: GH_REPOSITORY_ID, ownerOrNamespace: 'acme', projectPath: 'acme/uploader' },
      codeReview: { platform: 'pullRequest', externalReviewId: String(number), number },
      reviewRevision: { headSha: scenario.headSha, baseSha: scenario.baseSha },
    });
    expect(submitted.status).toBe(202);
    return endOf(submitted.body.jobId);
  };
}

describe('a provider that trickles its answer', () => {
  it(
    'fails the job with a timeout when the model trickles, and the host stays healthy',
    async () => {
      const run = await submit(901, 'Trickling model');
      model.respondWith({ ...findingsAnswer(), trickleMs: TRICKLE_MS });

      const { job, ms } = await run();

      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/The OpenAI-compatible server did not answer within \d+ s/);
      expect(ms).toBeLessThan(ENDS_WITHIN_MS);
    },
    TEST_MS,
  );

  it(
    'fails the job with a timeout when source control trickles, and the host stays healthy',
    async () => {
      const number = 902;
      const run = await submit(number, 'Trickling source control');
      fakes.github.server.on('GET', `/api/v3/repositories/${GH_REPOSITORY_ID}/pulls/${number}`, () => ({
        text: fixtureText('github', 'pull-request.json'),
        headers: { 'content-type': 'application/json; charset=utf-8' },
        trickleMs: TRICKLE_MS,
      }));

      const { job, ms } = await run();

      expect(job).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/^GitHub did not answer within \d+ s/),
      });
      expect(ms).toBeLessThan(ENDS_WITHIN_MS);
    },
    TEST_MS,
  );
});
