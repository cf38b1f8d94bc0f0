import { createServer } from 'node:net';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { GH_REPOSITORY_ID } from '@margin/providers/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, SECRETS, startScmFakes } from '../testing/scm-test-support.js';
import { delivery, FACTS, post, repoFilter, scopedClient } from '../testing/triggers-test-support.js';

/** A loopback port nobody listens on: the provider cannot be reached there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * `POST /clients/{id}/reviewing/jobs/by-coordinates`, row by row through its outcome table, against
 * the GitHub fake (open pull requests 42 and 43, closed 44, and the extra states added below).
 */
describe('by-coordinates submissions', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;
  let user: TestApi;
  let clientId: string;
  let scopeId: string;
  let scopePath: string;
  let configId: string;
  let sourceId: string;

  const url = () => `/clients/${clientId}/reviewing/jobs/by-coordinates`;
  const coordinates = (overrides: Record<string, unknown> = {}) => ({
    providerScopePath: scopePath,
    providerProjectKey: 'acme',
    repositoryId: GH_REPOSITORY_ID,
    pullRequestId: 42,
    ...overrides,
  });

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({ providers: fakes.providers, env: { WORKER_ENABLED: 'false', LOG_LEVEL: 'trace' } });
    admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    const scoped = await scopedClient(admin, fakes, 'github', 'Coordinates client');
    ({ clientId, scopeId, scopePath } = scoped);
    const member = await host.createUser('coordinates-user');
    await admin.put(`/clients/${clientId}/members/${member.id}`, { role: 'ClientUser' });
    user = member.api;

    const source = await admin.post(`/admin/clients/${clientId}/knowledge/sources`, {
      displayName: 'Uploader',
      sourceKind: 'repository',
      organizationScopeId: scopeId,
      providerProjectKey: 'acme',
      canonicalSourceRef: { provider: 'gitHostA', value: GH_REPOSITORY_ID },
      defaultBranch: 'main',
    });
    sourceId = source.body.id;
    const config = await admin.post('/admin/webhook-configurations', {
      clientId,
      provider: 'gitHostA',
      organizationScopeId: scopeId,
      providerProjectKey: 'acme',
      reviewTemperature: 0.7,
      repoFilters: [repoFilter('github', ['release/*'])],
      knowledgeSourceScopeMode: 'selectedSources',
      knowledgeSourceIds: [sourceId],
    });
    expect(config.status, JSON.stringify(config.body)).toBe(201);
    configId = config.body.id;

    // Extra pull requests: 45 merged, 46 without commits.
    const auth = { authorization: `Bearer ${SECRETS.github}`, 'user-agent': 'test' };
    const base: any = await (
      await fetch(`${fakes.github.hostUrl}/api/v3/repositories/${GH_REPOSITORY_ID}/pulls/42`, { headers: auth })
    ).json();
    const R = `/api/v3/repositories/${GH_REPOSITORY_ID}/pulls`;
    fakes.github.server.on('GET', `${R}/45`, () => ({
      json: { ...base, number: 45, state: 'closed', merged: true, merged_at: '2026-01-02T00:00:00Z' },
    }));
    fakes.github.server.on('GET', `${R}/46`, () => ({
      json: { ...base, number: 46, head: { ...base.head, sha: '' } },
    }));
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });
  beforeEach(async () => {
    await host.storage.knex('review_jobs').whereIn('status', ['queued', 'running']).update({ status: 'stopped' });
  });

  it('submitted (202): queues a job under the configuration’s knowledge scope and temperature, for a ClientUser', async () => {
    const res = await user.post(url(), coordinates());
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ outcome: 'submitted', jobId: expect.any(String) });
    const job = await host.storage.reviewJobs.findById(res.body.jobId);
    expect(job).toMatchObject({
      clientId,
      trigger: 'byCoordinates',
      status: 'queued',
      provider: 'gitHostA',
      hostBaseUrl: fakes.github.hostUrl,
      repository: { externalRepositoryId: GH_REPOSITORY_ID, ownerOrNamespace: 'acme' },
      codeReview: { platform: 'pullRequest', number: 42 },
      reviewRevision: { headSha: '1'.repeat(40), baseSha: '2'.repeat(40) },
      options: {
        reviewTemperature: 0.7,
        knowledgeSourceScopeMode: 'selectedSources',
        knowledgeSourceIds: [sourceId],
        configurationId: configId,
        providerScopePath: scopePath,
        providerProjectKey: 'acme',
      },
    });
    expect(job?.submittedByUserId).toEqual(expect.any(String));
  });

  it('duplicateActiveJob (409): the same revision while its review is queued, with that job', async () => {
    const first = await user.post(url(), coordinates());
    expect(first.status).toBe(202);
    const again = await user.post(url(), coordinates());
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      outcome: 'duplicateActiveJob',
      jobId: first.body.jobId,
      error: expect.any(String),
    });
  });

  it('re-reviews: the revision is read at each request, so a completed revision can be submitted again', async () => {
    const first = await user.post(url(), coordinates());
    await host.storage.reviewJobs.transition(first.body.jobId, ['queued'], 'completed', {
      completedAt: new Date().toISOString(),
    });
    const again = await user.post(url(), coordinates());
    expect(again.status).toBe(202);
    expect(again.body.jobId).not.toBe(first.body.jobId);
  });

  it.each([
    ['closed', 44, 'closed'],
    ['merged', 45, 'merged'],
  ])('notSubmittable (409): a %s pull request', async (_name, pullRequestId, reason) => {
    const res = await user.post(url(), coordinates({ pullRequestId }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ outcome: 'notSubmittable', reason, error: expect.any(String) });
  });

  it('notSubmittable (409): a blocked pull request, until it is unblocked', async () => {
    const block = {
      providerScopePath: scopePath,
      providerProjectKey: 'acme',
      repositoryId: GH_REPOSITORY_ID,
      pullRequestId: 43,
    };
    expect(
      (await admin.post(`/clients/${clientId}/reviewing/blocked-prs`, { ...block, reason: 'frozen' })).status,
    ).toBe(200);
    const res = await user.post(url(), coordinates({ pullRequestId: 43 }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      outcome: 'notSubmittable',
      reason: 'blocked',
      error: expect.stringContaining('frozen'),
    });
    await admin.post(`/clients/${clientId}/reviewing/blocked-prs/unblock`, block);
    expect((await user.post(url(), coordinates({ pullRequestId: 43 }))).status).toBe(202);
  });

  it('notSubmittable (409): the configured scope no longer resolves', async () => {
    const scoped = await scopedClient(admin, fakes, 'github', 'Scope-gone client');
    const config = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: 'gitHostA',
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
    });
    expect(config.status).toBe(201);
    await admin.delete(
      `/clients/${scoped.clientId}/provider-connections/${scoped.connectionId}/scopes/${scoped.scopeId}`,
    );
    const res = await admin.post(`/clients/${scoped.clientId}/reviewing/jobs/by-coordinates`, coordinates());
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ outcome: 'notSubmittable', reason: 'scopeUnresolvable' });
  });

  it.each([
    ['another scope path', { providerScopePath: 'https://github.com/other' }],
    ['the scope path in another case', { providerScopePath: 'HTTP://EXAMPLE' }],
    ['another project key', { providerProjectKey: 'ACME' }],
    ['a repository outside the listed ones', { repositoryId: '123' }],
  ])('notAuthorized (403): %s', async (_name, overrides) => {
    const res = await user.post(url(), coordinates(overrides));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ outcome: 'notAuthorized', error: expect.any(String) });
  });

  it('notAuthorized (403): a configuration of another client does not count', async () => {
    const other = await admin.post('/clients', { displayName: 'Bystander', tenantId: SYSTEM_TENANT_ID });
    const res = await admin.post(`/clients/${other.body.id}/reviewing/jobs/by-coordinates`, coordinates());
    expect(res.status).toBe(403);
    expect(res.body.outcome).toBe('notAuthorized');
  });

  it('is not visible to a user without a role on the client (404, no outcome) nor anonymously (401)', async () => {
    const stranger = await host.createUser('coordinates-stranger');
    const res = await stranger.api.post(url(), coordinates());
    expect(res.status).toBe(404);
    expect(res.body.outcome).toBeUndefined();
    expect((await host.api.post(url(), coordinates())).status).toBe(401);
  });

  it('pullRequestNotFound (404): the provider knows no such pull request', async () => {
    const res = await user.post(url(), coordinates({ pullRequestId: 404_404 }));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ outcome: 'pullRequestNotFound', error: expect.any(String) });
  });

  it('revisionUnresolvable (502): the provider answers without commits', async () => {
    const res = await user.post(url(), coordinates({ pullRequestId: 46 }));
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      outcome: 'revisionUnresolvable',
      error: expect.stringMatching(/without commits/),
    });
  });

  it('revisionUnresolvable (502): the provider cannot be reached', async () => {
    const other = await admin.post('/clients', { displayName: 'Unreachable client', tenantId: SYSTEM_TENANT_ID });
    const id = other.body.id as string;
    const hostBaseUrl = `http://127.0.0.1:${await closedPort()}`;
    const connection = await admin.post(`/clients/${id}/provider-connections`, fakes.bodies.github({ hostBaseUrl }));
    expect(connection.status).toBe(201);
    const scope = await admin.post(`/clients/${id}/provider-connections/${connection.body.id}/scopes`, {
      scopeType: 'organization',
      scopePath: `${hostBaseUrl}/acme`,
    });
    await admin.post('/admin/webhook-configurations', {
      clientId: id,
      provider: 'gitHostA',
      organizationScopeId: scope.body.id,
      providerProjectKey: 'acme',
    });
    const res = await admin.post(`/clients/${id}/reviewing/jobs/by-coordinates`, {
      ...coordinates(),
      providerScopePath: `${hostBaseUrl}/acme`,
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ outcome: 'revisionUnresolvable' });
    expect(JSON.stringify(res.body)).not.toContain(SECRETS.github);
  }, 30_000);

  it('submissionFailed (500): queueing fails inside the service', async () => {
    const storage = host.storage;
    const original = storage.transaction;
    storage.transaction = async () => {
      throw new Error('disk on fire');
    };
    try {
      const res = await user.post(url(), coordinates());
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        outcome: 'submissionFailed',
        error: 'Queueing the review failed internally.',
        code: 'internal',
      });
    } finally {
      storage.transaction = original;
    }
    expect(host.logs().some((l) => l.msg === 'by-coordinates submission failed')).toBe(true);
  });

  it('a deactivated configuration still allows explicit requests', async () => {
    expect((await admin.patch(`/admin/webhook-configurations/${configId}`, { isActive: false })).status).toBe(200);
    try {
      const res = await user.post(url(), coordinates());
      expect(res.status).toBe(202);
      expect(res.body.outcome).toBe('submitted');
    } finally {
      await admin.patch(`/admin/webhook-configurations/${configId}`, { isActive: true });
    }
  });

  it('shares one job per revision with the webhook trigger: the revision a delivery queued is a duplicate here', async () => {
    const scoped = await scopedClient(admin, fakes, 'github', 'Cross-trigger client');
    const config = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: 'gitHostA',
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
    });
    // Automatic triggers skip a revision reviewed before, by any client (the earlier tests completed one).
    await host.storage.knex('review_jobs').del();
    const listener = config.body.listenerUrl.replace(/^https?:\/\/[^/]+/, host.url);
    expect((await post(listener, delivery('github', FACTS.github.opened, config.body.generatedSecret))).body).toEqual({
      status: 'accepted',
    });
    const queued = await eventually(async () => {
      const jobs = (await admin.get(`/clients/${scoped.clientId}/reviewing/jobs`)).body.items;
      return jobs.length === 1 && jobs[0];
    });
    const res = await admin.post(`/clients/${scoped.clientId}/reviewing/jobs/by-coordinates`, coordinates());
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ outcome: 'duplicateActiveJob', jobId: queued.jobId });
  });

  it('a crawl configuration with the coordinates counts too', async () => {
    const scoped = await scopedClient(admin, fakes, 'github', 'Crawl coordinates client');
    const crawl = await admin.post('/admin/crawl-configurations', {
      clientId: scoped.clientId,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 3600,
      isActive: false,
      reviewTemperature: 0.1,
    });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(201);
    const res = await admin.post(`/clients/${scoped.clientId}/reviewing/jobs/by-coordinates`, coordinates());
    expect(res.status).toBe(202);
    expect((await host.storage.reviewJobs.findById(res.body.jobId))?.options).toMatchObject({
      configurationId: crawl.body.id,
      reviewTemperature: 0.1,
    });
  });

  it.each([
    ['providerScopePath', { providerScopePath: undefined }],
    ['providerProjectKey', { providerProjectKey: undefined }],
    ['repositoryId', { repositoryId: undefined }],
    ['pullRequestId', { pullRequestId: undefined }],
    ['pullRequestId', { pullRequestId: '42' }],
    ['pullRequestId', { pullRequestId: 0 }],
  ])('400 with no outcome when %s is missing or invalid', async (field, overrides) => {
    const res = await user.post(url(), coordinates(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.any(String), code: 'validation_failed' });
    expect(res.body.outcome).toBeUndefined();
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
  });
});
