import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

// Many API submissions at once used to collide inside PostgreSQL's serializable transactions and,
// once the retries ran out, answer 500. PostgreSQL is where hosts submit side by side.
const POSTGRES = testDialects().includes('postgres');
const SUBMISSIONS = 50;

const submission = (pullRequest: number, headSha = 'a'.repeat(40)) => ({
  provider: 'gitHostB',
  hostBaseUrl: 'https://gitlab.example.com',
  repository: { externalRepositoryId: '42', ownerOrNamespace: 'group', projectPath: 'group/app' },
  codeReview: { platform: 'mergeRequest', externalReviewId: String(pullRequest), number: pullRequest },
  reviewRevision: { headSha, baseSha: 'b'.repeat(40) },
});

describe.runIf(POSTGRES)('concurrent submissions on PostgreSQL', () => {
  let host: TestHost;
  let admin: TestApi;
  let clientId: string;
  const submit = (body: unknown) => admin.post(`/clients/${clientId}/reviewing/jobs`, body);

  beforeAll(async () => {
    // No worker: the jobs stay queued, so every submission meets the others' active jobs.
    host = await startTestHost({ dialect: 'postgres', env: { WORKER_ENABLED: 'false' } });
    admin = await host.admin();
    await admin.patch('/admin/licensing', { edition: 'Commercial' });
    const client = await admin.post('/clients', { displayName: 'Concurrency', tenantId: SYSTEM_TENANT_ID });
    clientId = client.body.id as string;
  }, 30_000);
  afterAll(() => host?.close());

  it(`queues ${SUBMISSIONS} submissions for different pull requests sent at once, every one 202`, async () => {
    const answers = await Promise.all(Array.from({ length: SUBMISSIONS }, (_, i) => submit(submission(i + 1))));
    expect(answers.map((a) => a.status)).toEqual(Array(SUBMISSIONS).fill(202));
    const ids = new Set(answers.map((a) => a.body.jobId as string));
    expect(ids.size).toBe(SUBMISSIONS);
    const queued = await host.storage.reviewJobs.list(clientId, { status: 'queued' }, { limit: 100 });
    expect(queued.items.filter((j) => ids.has(j.id))).toHaveLength(SUBMISSIONS);
  }, 60_000);

  it('queues one job for the same revision sent many times at once; the others are told which (409)', async () => {
    const pullRequest = 1000;
    const answers = await Promise.all(Array.from({ length: 20 }, () => submit(submission(pullRequest))));
    const queued = answers.filter((a) => a.status === 202);
    expect(queued).toHaveLength(1);
    const jobId = queued[0]?.body.jobId as string;
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused.map((a) => a.status)).toEqual(Array(19).fill(409));
    for (const a of refused) expect(a.body).toMatchObject({ code: 'conflict', jobId });
  }, 60_000);

  it('leaves exactly one active job when newer revisions of one pull request arrive at once', async () => {
    const pullRequest = 2000;
    const heads = Array.from({ length: 10 }, (_, i) => String(i).repeat(40));
    const answers = await Promise.all(heads.map((head) => submit(submission(pullRequest, head))));
    expect(answers.every((a) => a.status === 202 || a.status === 409)).toBe(true);
    const jobs = await host.storage.reviewJobs.list(
      clientId,
      { repositoryId: '42', pullRequestId: pullRequest },
      { limit: 100 },
    );
    const active = jobs.items.filter((j) => j.status === 'queued' || j.status === 'running');
    expect(active).toHaveLength(1);
    expect(answers.filter((a) => a.status === 202).length).toBe(
      jobs.items.filter((j) => j.status === 'superseded').length + 1,
    );
  }, 60_000);

  it('answers 503 with Retry-After, never 500, while the jobs stay locked past the lock timeout', async () => {
    // Another session holds the jobs table, e.g. a long migration or a stuck transaction.
    const holder = await host.storage.knex.transaction();
    try {
      await holder.raw('lock table review_jobs in access exclusive mode');
      const answer = await submit(submission(3000));
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body).toMatchObject({ code: 'service_unavailable', retryAfterSeconds: 1 });
    } finally {
      await holder.rollback();
    }
    expect((await submit(submission(3000))).status).toBe(202);
  }, 60_000);
});
