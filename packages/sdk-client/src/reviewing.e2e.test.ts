import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  CountingEngine,
  startTestHost,
  type TestHost,
} from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarginClient, WaitTimeoutError } from './client.js';
import { ConflictError, LicenseRequiredError } from './errors.js';

const submission = (number: number) => ({
  provider: 'gitHostA' as const,
  hostBaseUrl: 'https://github.com',
  repository: { externalRepositoryId: '42', ownerOrNamespace: 'acme', projectPath: 'acme/app' },
  codeReview: { platform: 'pullRequest' as const, externalReviewId: String(number), number },
});

describe('the SDK’s reviewing group against a real host', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({
      reviewEngine: new CountingEngine(),
      env: { WORKER_POLL_INTERVAL_MILLISECONDS: '20' },
    });
  });
  afterAll(async () => {
    await host.close();
  });
  const client = () =>
    createMarginClient({
      baseUrl: `${host.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });

  it('submits a review, waits for it, and reads its protocol and listing', async () => {
    const margin = client();
    const { id: clientId } = await margin.tenancy.createClient({
      displayName: 'SDK reviews',
      tenantId: SYSTEM_TENANT_ID,
    });
    const accepted = await margin.reviewing.submitReviewJob(clientId, submission(1));
    expect(accepted.status).toBe('queued');
    const done = await margin.reviewing.waitForJob(accepted.jobId, { intervalMs: 20, timeoutMs: 10_000 });
    expect(done).toMatchObject({ jobId: accepted.jobId, status: 'completed', result: { summary: 'One finding.' } });
    const protocol = await margin.reviewing.getReviewJobProtocol(accepted.jobId, { includeEvents: 'false' });
    expect(protocol).toEqual([
      expect.objectContaining({
        stage: 'review',
        outcome: 'succeeded',
        events: [expect.objectContaining({ name: 'counted', body: null })],
      }),
    ]);
    const list = await margin.reviewing.listReviewJobs(clientId, { status: 'completed' });
    expect(list.items.map((j) => j.jobId)).toContain(accepted.jobId);
    await expect(margin.reviewing.restartReviewJob(accepted.jobId)).rejects.toBeInstanceOf(ConflictError);
    // This engine remembers no findings: both views answer, empty, for the pull request.
    const pr = { repositoryId: '42', pullRequestId: 1 };
    expect(await margin.reviewing.listReviewFindings(clientId, { ...pr, state: 'open' })).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(await margin.reviewing.getPullRequestFindings(clientId, pr)).toMatchObject({ open: [] });
  });

  it('maps the one-at-a-time refusal to LicenseRequiredError and blocks to ConflictError', async () => {
    const margin = client();
    const { id: clientId } = await margin.tenancy.createClient({
      displayName: 'SDK blocks',
      tenantId: SYSTEM_TENANT_ID,
    });
    const block = {
      providerScopePath: 'https://github.com/acme',
      providerProjectKey: 'acme',
      repositoryId: '42',
      pullRequestId: 9,
    };
    await margin.reviewing.blockPullRequest(clientId, { ...block, reason: 'Freeze' });
    await expect(margin.reviewing.submitReviewJob(clientId, submission(9))).rejects.toBeInstanceOf(ConflictError);
    expect((await margin.reviewing.unblockPullRequest(clientId, block)).unblocked).toBe(true);
    await host.worker.stop(); // keep the next job queued
    const queued = await margin.reviewing.submitReviewJob(clientId, submission(10));
    await expect(margin.reviewing.submitReviewJob(clientId, submission(11))).rejects.toBeInstanceOf(
      LicenseRequiredError,
    );
    await expect(margin.reviewing.waitForJob(queued.jobId, { intervalMs: 10, timeoutMs: 50 })).rejects.toBeInstanceOf(
      WaitTimeoutError,
    );
    expect((await margin.reviewing.stopReviewJob(queued.jobId)).status).toBe('stopped');
  });
});
