import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { type FakeChatModel, type GitHubFake, startFakeChatModel, startGitHubFake } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/fake-engines.js';
import { type HostProcess, startHostProcess } from '../testing/host-process.js';
import { billingScenario, confirmAll, findingsAnswer, isVerifying, userOf } from '../testing/review-test-support.js';
import { TestApi } from '../testing/test-api.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../testing/test-host.js';

const PAT = 'ghp_crashTestToken0123456789abcdefABCD';
const NUMBER = 901;

describe('a host killed in the middle of publishing', () => {
  let github: GitHubFake;
  let model: FakeChatModel;
  let dataDir: string;
  let env: Record<string, string>;
  const hosts: HostProcess[] = [];

  beforeAll(async () => {
    github = await startGitHubFake({ pat: PAT });
    model = await startFakeChatModel();
    dataDir = await mkdtemp(join(tmpdir(), 'margin-crash-'));
    env = {
      MARGIN_DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'margin.db')}`,
      MARGIN_BOOTSTRAP_ADMIN_USER: ADMIN_USERNAME,
      MARGIN_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      WORKER_POLL_INTERVAL_MILLISECONDS: '50',
      // A short lease, so the restarted host takes the dead host's job back quickly.
      WORKER_LEASE_SECONDS: '1',
    };
  });

  afterAll(async () => {
    for (const h of hosts) h.child.kill('SIGKILL');
    await github?.close();
    await model?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('posts nothing twice after a SIGKILL between the provider storing the comments and the host recording them', async () => {
    const scenario = billingScenario(NUMBER);
    await github.loadPullRequest(scenario);
    model.respondWith((request) => {
      if (isVerifying(request)) return confirmAll(request);
      if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
      return findingsAnswer(
        {
          path: 'src/billing.ts',
          quote: 'const total = price * qty;',
          startLine: 42,
          endLine: 42,
          category: 'bug',
          title: 'Total ignores the discount',
          severity: 'error',
          message: 'The total is computed from `price` and `qty` only, so a discounted order is charged in full.',
        },
        {
          path: 'src/billing.ts',
          quote: 'return total / count;',
          startLine: 50,
          endLine: 50,
          category: 'bug',
          title: 'Division by zero for an empty order',
          severity: 'error',
          message: 'An order without lines has `count` 0, so `total / count` is NaN and the invoice shows NaN.',
        },
      );
    });

    const first = await startHostProcess(env);
    hosts.push(first);
    const anonymous = new TestApi(`${first.url}/api`);
    const login = await anonymous.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    const admin = anonymous.with({ bearer: login.body.accessToken });
    const client = await admin.post('/clients', { displayName: 'Crash drill', tenantId: SYSTEM_TENANT_ID });
    const clientId = client.body.id as string;
    const connection = await admin.post(`/clients/${clientId}/provider-connections`, {
      providerFamily: 'gitHostA',
      authenticationKind: 'personalAccessToken',
      hostBaseUrl: github.hostUrl,
      displayName: 'GitHub',
      secret: PAT,
    });
    expect(connection.status).toBe(201);
    const ai = await admin.post(`/clients/${clientId}/ai-connections`, model.profile());
    await admin.post(`/clients/${clientId}/ai-connections/${ai.body.id}/verify`);
    expect((await admin.post(`/clients/${clientId}/ai-connections/${ai.body.id}/activate`)).status).toBe(200);

    // The provider stores the review, then never answers: the host dies waiting.
    const stalled = github.server.stallReply((r) => r.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(r.path));
    const submitted = await admin.post(`/clients/${clientId}/reviewing/jobs`, {
      provider: 'gitHostA',
      hostBaseUrl: github.hostUrl,
      repository: { externalRepositoryId: '987654321', ownerOrNamespace: 'acme', projectPath: 'acme/uploader' },
      codeReview: { platform: 'pullRequest', externalReviewId: String(NUMBER), number: NUMBER },
      reviewRevision: { headSha: scenario.headSha, baseSha: scenario.baseSha },
    });
    expect(submitted.status).toBe(202);
    await stalled.reached;
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    stalled.release();
    const reviewsPosted = () =>
      github.writes.filter((w) => w.method === 'POST' && /\/pulls\/\d+\/reviews$/.test(w.path));
    expect(reviewsPosted()).toHaveLength(1);

    // The same database, a new process: it takes the job back when the dead host's lease runs out.
    const second = await startHostProcess(env);
    hosts.push(second);
    const again = new TestApi(`${second.url}/api`).with({
      bearer: (
        await new TestApi(`${second.url}/api`).post('/auth/login', {
          username: ADMIN_USERNAME,
          password: ADMIN_PASSWORD,
        })
      ).body.accessToken,
    });
    const job = await eventually(async () => {
      const res = await again.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
      return ['completed', 'failed'].includes(res.body.status) ? res.body : undefined;
    }, 30_000);
    expect(job.error).toBeNull();
    expect(job.status).toBe('completed');
    expect(reviewsPosted()).toHaveLength(1);
    const inlineComments = github.writes.filter((w) => w.method === 'POST' && /\/pulls\/\d+\/comments$/.test(w.path));
    expect(inlineComments).toHaveLength(0);
    const summaries = github.writes.filter((w) => w.method === 'POST' && /\/issues\/\d+\/comments$/.test(w.path));
    expect(summaries).toHaveLength(1);
    expect(
      job.result.findings.map((f: { publication: string; providerThreadId?: string }) => [
        f.publication,
        Boolean(f.providerThreadId),
      ]),
    ).toEqual([
      ['published', true],
      ['published', true],
    ]);
    const publish = await again.get(`/jobs/${job.jobId}/protocol?eventCategory=publication`);
    const names = publish.body.flatMap((p: { events: Array<{ name: string }> }) => p.events.map((e) => e.name));
    expect(names.filter((n: string) => n === 'thread.reconciled')).toHaveLength(2);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 90_000);
});
