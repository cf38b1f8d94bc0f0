import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { NO_ENGINE } from '@margin/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledEngine, eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';

const FAST_WORKER = { WORKER_POLL_INTERVAL_MILLISECONDS: '20', WORKER_LEASE_SECONDS: '2' };

let prNumber = 100;
function submission(overrides: { number?: number; head?: string; revision?: boolean; repositoryId?: string } = {}) {
  const number = overrides.number ?? ++prNumber;
  const body: Record<string, unknown> = {
    provider: 'gitHostA',
    hostBaseUrl: 'https://github.com',
    repository: {
      externalRepositoryId: overrides.repositoryId ?? '4242',
      ownerOrNamespace: 'acme',
      projectPath: 'acme/app',
    },
    codeReview: { platform: 'pullRequest', externalReviewId: String(number), number },
  };
  if (overrides.revision !== false) {
    body.reviewRevision = { headSha: (overrides.head ?? 'a').repeat(40), baseSha: 'b'.repeat(40) };
  }
  return body;
}

async function setup(host: TestHost) {
  const admin = await host.admin();
  await admin.patch('/admin/licensing', { edition: 'Commercial' });
  const clientId = (
    await admin.post('/clients', { displayName: `Reviews ${Math.random()}`, tenantId: SYSTEM_TENANT_ID })
  ).body.id as string;
  const status = (jobId: string, api: TestApi = admin) => api.get(`/reviewing/jobs/${jobId}/status`);
  const waitFor = (jobId: string, wanted: string) =>
    eventually(async () => {
      const res = await status(jobId);
      return res.body.status === wanted ? res.body : undefined;
    });
  return { admin, clientId, status, waitFor };
}

describe('review jobs', () => {
  const engine = new ControlledEngine();
  let host: TestHost;
  let ctx: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    host = await startTestHost({ reviewEngine: engine, env: FAST_WORKER });
    ctx = await setup(host);
  });
  afterAll(async () => {
    await host.close();
  });
  const submit = (body: unknown) => ctx.admin.post(`/clients/${ctx.clientId}/reviewing/jobs`, body);

  it('validates the submission and names the fields', async () => {
    const res = await submit({
      provider: 'gitHostA',
      hostBaseUrl: 'not a url',
      repository: {},
      codeReview: { platform: 'pullRequest', externalReviewId: '1', number: 0 },
    });
    expect(res.status).toBe(400);
    const paths = res.body.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'hostBaseUrl',
        'repository.externalRepositoryId',
        'repository.ownerOrNamespace',
        'repository.projectPath',
        'codeReview.number',
      ]),
    );
    const noHead = await submit({ ...submission(), reviewRevision: { baseSha: 'b'.repeat(40) } });
    expect(noHead.status).toBe(400);
    expect(noHead.body.details).toEqual([{ path: 'reviewRevision.headSha', message: expect.any(String) }]);
    expect((await submit({ ...submission(), provider: 'svn' })).status).toBe(400);
  });

  it('queues with 202, runs it, and reports status, progress, result and usage', async () => {
    const accepted = await submit(submission());
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      jobId: expect.any(String),
      status: 'queued',
      attempt: 1,
      submittedAt: expect.any(String),
    });
    const jobId = accepted.body.jobId;
    await engine.started(jobId);
    const running = await ctx.waitFor(jobId, 'running');
    expect(running).toMatchObject({
      trigger: 'api',
      provider: 'gitHostA',
      attempt: 1,
      startedAt: expect.any(String),
      result: null,
    });
    // Progress travels with the lease heartbeat.
    await eventually(async () => (await ctx.status(jobId)).body.progress.filesDone === 1);
    engine.complete(jobId);
    const done = await ctx.waitFor(jobId, 'completed');
    expect(done).toMatchObject({
      jobId,
      clientId: ctx.clientId,
      repository: { externalRepositoryId: '4242' },
      reviewRevision: { headSha: 'a'.repeat(40), baseSha: 'b'.repeat(40) },
      completedAt: expect.any(String),
      result: {
        summary: 'One finding.',
        findings: [expect.objectContaining({ severity: 'warning', publication: 'published' })],
      },
      usage: { inputTokens: 100, cachedInputTokens: 20, outputTokens: 30, estimatedCostUsd: 0.0012, byModel: [] },
      error: null,
    });
  });

  it('refuses a second active job for the same revision with 409 naming the job', async () => {
    const body = submission();
    const first = await submit(body);
    const again = await submit(body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', jobId: first.body.jobId });
    await engine.started(first.body.jobId);
    engine.complete(first.body.jobId);
    await ctx.waitFor(first.body.jobId, 'completed');
    // An explicit request may review a revision that was already reviewed.
    const rereview = await submit(body);
    expect(rereview.status).toBe(202);
    await engine.started(rereview.body.jobId);
    engine.complete(rereview.body.jobId);
  });

  it('keeps clients apart: another client’s job for the same revision neither blocks nor is blocked', async () => {
    const other = (
      await ctx.admin.post('/clients', { displayName: `Other ${Math.random()}`, tenantId: SYSTEM_TENANT_ID })
    ).body.id as string;
    const body = submission();
    const mine = await submit(body);
    const theirs = await ctx.admin.post(`/clients/${other}/reviewing/jobs`, body);
    expect([mine.status, theirs.status]).toEqual([202, 202]);
    expect(theirs.body.jobId).not.toBe(mine.body.jobId);
    for (const job of [mine.body.jobId, theirs.body.jobId]) {
      await engine.started(job);
      engine.complete(job);
      await ctx.waitFor(job, 'completed');
    }
  });

  it('collapses submissions without a revision onto one: a second one waits for the first', async () => {
    const number = ++prNumber;
    const first = await submit(submission({ number, revision: false }));
    expect(first.status).toBe(202);
    const second = await submit(submission({ number, revision: false }));
    expect(second.status).toBe(409);
    expect(second.body.jobId).toBe(first.body.jobId);
    await engine.started(first.body.jobId);
    engine.complete(first.body.jobId);
  });

  it('never runs a submission without a revision beside an active review of the same pull request', async () => {
    const number = ++prNumber;
    const concrete = await submit(submission({ number, head: 'e' }));
    expect(concrete.status).toBe(202);
    await engine.started(concrete.body.jobId);
    // Without a revision the review would read the pull request's head: the one already under review.
    const whole = await submit(submission({ number, revision: false }));
    expect(whole.status).toBe(409);
    expect(whole.body).toMatchObject({ code: 'conflict', jobId: concrete.body.jobId });
    engine.complete(concrete.body.jobId);
    await ctx.waitFor(concrete.body.jobId, 'completed');

    // The other way round: a named revision retires the revision-less review rather than running beside it.
    const waiting = await submit(submission({ number, revision: false }));
    expect(waiting.status).toBe(202);
    await engine.started(waiting.body.jobId);
    const named = await submit(submission({ number, head: 'f' }));
    expect(named.status).toBe(202);
    await ctx.waitFor(waiting.body.jobId, 'superseded');
    await engine.started(named.body.jobId);
    engine.complete(named.body.jobId);
  });

  it('matches a duplicate on the whole revision, providerRevisionId included', async () => {
    const number = ++prNumber;
    const revision = (providerRevisionId: string) => ({
      ...submission({ number, head: '9' }),
      reviewRevision: { headSha: '9'.repeat(40), baseSha: 'b'.repeat(40), providerRevisionId },
    });
    const first = await submit(revision('iteration-1'));
    await engine.started(first.body.jobId);
    expect((await submit(revision('iteration-1'))).status).toBe(409);
    // Same commits, another provider revision (say, a new Azure DevOps iteration): another revision.
    const second = await submit(revision('iteration-2'));
    expect(second.status, JSON.stringify(second.body)).toBe(202);
    await ctx.waitFor(first.body.jobId, 'superseded');
    await engine.started(second.body.jobId);
    engine.complete(second.body.jobId);
  });

  it('retires an older active revision as superseded when a newer one is submitted, stopping its run', async () => {
    const number = ++prNumber;
    const older = await submit(submission({ number, head: 'c' }));
    await engine.started(older.body.jobId);
    const newer = await submit(submission({ number, head: 'd' }));
    expect(newer.status).toBe(202);
    const retired = await ctx.waitFor(older.body.jobId, 'superseded');
    expect(retired.completedAt).toEqual(expect.any(String));
    await eventually(async () => engine.aborted.includes(older.body.jobId));
    await engine.started(newer.body.jobId);
    engine.complete(newer.body.jobId);
    await ctx.waitFor(newer.body.jobId, 'completed');
    expect((await ctx.status(older.body.jobId)).body.status).toBe('superseded');
  });

  it('leaves a running review of the pull request’s head alone when a submission names that same head', async () => {
    const number = ++prNumber;
    engine.pullRequestHeads.set(number, 'e'.repeat(40));
    const headless = await submit(submission({ number, revision: false }));
    await engine.started(headless.body.jobId);
    // It read the pull request at e…: a submission naming e… would only review the same commits again.
    const same = await submit(submission({ number, head: 'E' }));
    expect(same.status).toBe(409);
    expect(same.body).toMatchObject({ code: 'conflict', jobId: headless.body.jobId });
    expect((await ctx.status(headless.body.jobId)).body.status).toBe('running');
    // A newer head still retires it.
    const newer = await submit(submission({ number, head: 'f' }));
    expect(newer.status).toBe(202);
    await ctx.waitFor(headless.body.jobId, 'superseded');
    await engine.started(newer.body.jobId);
    engine.complete(newer.body.jobId);
    await ctx.waitFor(newer.body.jobId, 'completed');
  });

  it('fails a job whose review throws, keeping the reason; restarts it as the next attempt; refuses other restarts', async () => {
    const job = (await submit(submission())).body.jobId;
    await engine.started(job);
    expect((await ctx.admin.post(`/reviewing/jobs/${job}/restart`)).status).toBe(409);
    engine.fail(job, 'The model answered nonsense twice.');
    const failed = await ctx.waitFor(job, 'failed');
    expect(failed.error).toBe('The model answered nonsense twice.');
    const restarted = await ctx.admin.post(`/reviewing/jobs/${job}/restart`);
    expect(restarted.status).toBe(202);
    expect(restarted.body).toEqual({ jobId: job, status: 'queued', attempt: 2 });
    await eventually(async () => engine.runs.filter((id) => id === job).length === 2);
    const second = await ctx.waitFor(job, 'running');
    expect(second).toMatchObject({ attempt: 2, trigger: 'restart', error: null });
    engine.complete(job);
    await ctx.waitFor(job, 'completed');
    const again = await ctx.admin.post(`/reviewing/jobs/${job}/restart`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(
      'A completed job cannot be restarted; only failed ones and those a spend cap held or stopped can.',
    );
  });

  it('stops a queued or running job for good and refuses to stop a finished one', async () => {
    const job = (await submit(submission())).body.jobId;
    await engine.started(job);
    const stopped = await ctx.admin.post(`/reviewing/jobs/${job}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toEqual({ jobId: job, status: 'stopped', attempt: 1 });
    await eventually(async () => engine.aborted.includes(job));
    expect((await ctx.status(job)).body.status).toBe('stopped');
    const twice = await ctx.admin.post(`/reviewing/jobs/${job}/stop`);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('A stopped job cannot be stopped; only queued or running ones can.');
    expect((await ctx.admin.post('/reviewing/jobs/00000000-0000-4000-8000-00000000beef/stop')).status).toBe(404);
  });

  it('blocks a pull request idempotently: no new jobs, running ones go on; unblocking lets them through', async () => {
    const body = submission({ repositoryId: '77' });
    const running = (await submit(body)).body.jobId;
    await engine.started(running);
    const coordinates = {
      providerScopePath: 'https://github.com/acme',
      providerProjectKey: 'acme',
      repositoryId: '77',
      pullRequestId: (body.codeReview as { number: number }).number,
    };
    const blocked = await ctx.admin.post(`/clients/${ctx.clientId}/reviewing/blocked-prs`, {
      ...coordinates,
      reason: 'Release freeze',
    });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toEqual({
      id: expect.any(String),
      ...coordinates,
      reason: 'Release freeze',
      blockedByUserId: expect.any(String),
      blockedAt: expect.any(String),
    });
    const repeat = await ctx.admin.post(`/clients/${ctx.clientId}/reviewing/blocked-prs`, {
      ...coordinates,
      reason: 'Other',
    });
    expect(repeat.body.id).toBe(blocked.body.id);
    expect((await ctx.admin.get(`/clients/${ctx.clientId}/reviewing/blocked-prs`)).body.items).toHaveLength(1);

    const refused = await submit({ ...body, reviewRevision: { headSha: 'e'.repeat(40), baseSha: 'b'.repeat(40) } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('This pull request is blocked: Release freeze');
    expect(engine.isRunning(running)).toBe(true);
    engine.complete(running);
    await ctx.waitFor(running, 'completed');

    const unblocked = await ctx.admin.post(`/clients/${ctx.clientId}/reviewing/blocked-prs/unblock`, coordinates);
    expect(unblocked.body).toEqual({ ...coordinates, unblocked: true });
    const allowed = await submit({ ...body, reviewRevision: { headSha: 'e'.repeat(40), baseSha: 'b'.repeat(40) } });
    expect(allowed.status).toBe(202);
    await engine.started(allowed.body.jobId);
    engine.complete(allowed.body.jobId);
  });

  it('remembers dismissed findings with 201, lists and forgets them', async () => {
    const base = `/clients/${ctx.clientId}/reviewing`;
    expect((await ctx.admin.post(`${base}/dismiss-finding`, { filePath: 'x' })).status).toBe(400);
    const created = await ctx.admin.post(`${base}/dismiss-finding`, {
      findingMessage: 'Prefer early returns.',
      filePath: 'src/a.ts',
      label: 'style',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      clientId: ctx.clientId,
      findingMessage: 'Prefer early returns.',
      filePath: 'src/a.ts',
      label: 'style',
      createdAt: expect.any(String),
      createdByUserId: expect.any(String),
    });
    expect((await ctx.admin.get(`${base}/dismissals`)).body.items.map((d: { id: string }) => d.id)).toContain(
      created.body.id,
    );
    expect((await ctx.admin.delete(`${base}/dismissals/${created.body.id}`)).status).toBe(204);
    expect((await ctx.admin.delete(`${base}/dismissals/${created.body.id}`)).status).toBe(404);
  });

  it('serves the protocol with events, without bodies on request, and filtered by category', async () => {
    const job = (await submit(submission())).body.jobId;
    await engine.started(job);
    engine.complete(job);
    await ctx.waitFor(job, 'completed');
    const full = await ctx.admin.get(`/jobs/${job}/protocol`);
    expect(full.status).toBe(200);
    expect(full.body[0]).toMatchObject({
      jobId: job,
      attempt: 1,
      stage: 'plan',
      outcome: 'succeeded',
      inputTokens: 100,
      cachedInputTokens: 20,
      outputTokens: 30,
    });
    expect(full.body[0].events).toEqual([
      expect.objectContaining({ name: 'files.selected', eventCategory: 'planning', body: { files: ['src/app.ts'] } }),
      expect.objectContaining({
        name: 'chat',
        eventCategory: 'ai-call',
        inputTokens: 100,
        outputTokens: 30,
        durationMs: 12,
        body: { prompt: 'Review this diff' },
      }),
    ]);
    const lean = await ctx.admin.get(`/jobs/${job}/protocol?includeEvents=false&eventCategory=ai-call`);
    expect(lean.body[0].events).toEqual([expect.objectContaining({ name: 'chat', body: null, inputTokens: 100 })]);
    expect((await ctx.admin.get(`/jobs/${job}/protocol?eventCategory=gossip`)).status).toBe(400);
    expect((await ctx.admin.get('/jobs/00000000-0000-4000-8000-00000000beef/protocol')).status).toBe(404);
  });

  it('lists the client’s jobs newest first, filtered and paged, without findings', async () => {
    const base = `/clients/${ctx.clientId}/reviewing/jobs`;
    const page = await ctx.admin.get(`${base}?limit=2`);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.nextCursor).toEqual(expect.any(String));
    expect(page.body.items[0].submittedAt >= page.body.items[1].submittedAt).toBe(true);
    const next = await ctx.admin.get(`${base}?limit=2&cursor=${page.body.nextCursor}`);
    expect(next.body.items[0].jobId).not.toBe(page.body.items[1].jobId);
    const completed = await ctx.admin.get(`${base}?status=completed&repositoryId=4242`);
    expect(completed.body.items.length).toBeGreaterThan(0);
    for (const item of completed.body.items) {
      expect(item.status).toBe('completed');
      expect(item.result).toEqual({ summary: 'One finding.', coverage: expect.anything(), findingCount: 1 });
    }
    expect((await ctx.admin.get(`${base}?status=exploded`)).status).toBe(400);
    expect((await ctx.admin.get(`${base}?pullRequestId=0`)).status).toBe(400);
  });
});

describe('roles on review jobs', () => {
  const engine = new ControlledEngine();
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ reviewEngine: engine, env: FAST_WORKER });
  });
  afterAll(async () => {
    await host.close();
  });

  it('lets a ClientUser read and restart but not submit or stop; other clients’ jobs are not found', async () => {
    const { admin, clientId } = await setup(host);
    const other = (await admin.post('/clients', { displayName: 'Other', tenantId: SYSTEM_TENANT_ID })).body.id;
    const user = await host.createUser('reviewer');
    const outsider = await host.createUser('outsider');
    await admin.put(`/clients/${clientId}/members/${user.id}`, { role: 'ClientUser' });
    await admin.put(`/clients/${other}/members/${outsider.id}`, { role: 'ClientAdministrator' });

    expect((await user.api.post(`/clients/${clientId}/reviewing/jobs`, submission())).status).toBe(403);
    const job = (await admin.post(`/clients/${clientId}/reviewing/jobs`, submission())).body.jobId;
    await engine.started(job);
    expect((await user.api.get(`/reviewing/jobs/${job}/status`)).status).toBe(200);
    expect((await user.api.get(`/jobs/${job}/protocol`)).status).toBe(200);
    expect((await user.api.post(`/reviewing/jobs/${job}/stop`)).status).toBe(403);
    expect((await outsider.api.get(`/reviewing/jobs/${job}/status`)).status).toBe(404);
    expect((await outsider.api.post(`/reviewing/jobs/${job}/restart`)).status).toBe(404);
    engine.fail(job);
    await eventually(async () => (await admin.get(`/reviewing/jobs/${job}/status`)).body.status === 'failed');
    expect((await user.api.post(`/reviewing/jobs/${job}/restart`)).status).toBe(202);
    await engine.started(job);
    engine.complete(job);
  });
});

describe('the one-review-at-a-time rule of Community', () => {
  const engine = new ControlledEngine();
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ reviewEngine: engine, env: FAST_WORKER });
  });
  afterAll(async () => {
    await host.close();
  });

  it('refuses a submission while another review is queued or running, with the license message', async () => {
    const admin = await host.admin();
    const clientId = (await admin.post('/clients', { displayName: 'Community', tenantId: SYSTEM_TENANT_ID })).body.id;
    const first = await admin.post(`/clients/${clientId}/reviewing/jobs`, submission());
    expect(first.status).toBe(202);
    const second = await admin.post(`/clients/${clientId}/reviewing/jobs`, submission());
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      error:
        'Another review is queued or running. Running more than one review at a time needs a Commercial license (parallel-review-execution).',
      code: 'license_required',
      capability: 'parallel-review-execution',
      requestId: expect.any(String),
    });
    await engine.started(first.body.jobId);
    engine.complete(first.body.jobId);
    await eventually(
      async () => (await admin.get(`/reviewing/jobs/${first.body.jobId}/status`)).body.status === 'completed',
    );
    const third = await admin.post(`/clients/${clientId}/reviewing/jobs`, submission());
    expect(third.status).toBe(202);
    await engine.started(third.body.jobId);
    engine.complete(third.body.jobId);
  });
});

describe('the stock host', () => {
  it('runs the built-in engine, which fails a job whose provider connection is missing, naming what to add', async () => {
    const host = await startTestHost({ env: FAST_WORKER });
    try {
      const { admin, clientId, waitFor } = await setup(host);
      const job = (await admin.post(`/clients/${clientId}/reviewing/jobs`, submission())).body.jobId;
      const failed = await waitFor(job, 'failed');
      const expected = `This client has no gitHostA provider connection for https://github.com; add one (POST /clients/${clientId}/provider-connections) and restart the review.`;
      expect(failed.error).toBe(expected);
      expect(failed.error).not.toBe(NO_ENGINE);
      const protocol = await admin.get(`/jobs/${job}/protocol?eventCategory=operational`);
      expect(protocol.body.at(-1)).toMatchObject({
        stage: 'operational',
        outcome: 'failed',
        events: [expect.objectContaining({ name: 'job.failed', body: { message: expected } })],
      });
    } finally {
      await host.close();
    }
  });
});

describe('a refused submission changes nothing', () => {
  it('keeps an older job it would have superseded when the one-at-a-time rule refuses the newer one', async () => {
    const host = await startTestHost({ env: { WORKER_ENABLED: 'false' } });
    try {
      const { admin, clientId, status } = await setup(host); // Commercial
      const number = ++prNumber;
      const older = await admin.post(`/clients/${clientId}/reviewing/jobs`, submission({ number, head: 'c' }));
      const other = await admin.post(`/clients/${clientId}/reviewing/jobs`, submission());
      expect([older.status, other.status]).toEqual([202, 202]);
      await admin.patch('/admin/licensing', { edition: 'Community' });
      const newer = await admin.post(`/clients/${clientId}/reviewing/jobs`, submission({ number, head: 'd' }));
      expect(newer.status).toBe(409);
      expect(newer.body.code).toBe('license_required');
      expect((await status(older.body.jobId)).body.status).toBe('queued');
    } finally {
      await host.close();
    }
  });
});

describe('job status reads across hosts', () => {
  it('show a change made on the same host at once, and one made on another host within a second', async () => {
    const env = { WORKER_ENABLED: 'false' };
    const a = await startTestHost({ env });
    const b = await startTestHost({ env, reuse: { dataDir: a.dataDir, databaseUrl: a.databaseUrl } });
    try {
      const { admin, clientId } = await setup(a);
      const jobId = (await admin.post(`/clients/${clientId}/reviewing/jobs`, submission())).body.jobId;
      const onB = await b.login('admin', 'admin-password-for-tests');
      expect((await onB.get(`/reviewing/jobs/${jobId}/status`)).body.status).toBe('queued');
      expect((await admin.post(`/reviewing/jobs/${jobId}/stop`)).status).toBe(200);
      expect((await admin.get(`/reviewing/jobs/${jobId}/status`)).body.status).toBe('stopped');
      await eventually(
        async () => (await onB.get(`/reviewing/jobs/${jobId}/status`)).body.status === 'stopped',
        1500,
        50,
      );
    } finally {
      await b.close();
      await a.close();
    }
  });
});
