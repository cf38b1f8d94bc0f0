import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { type FamilyName, repoFilter, scopedClient } from '../testing/triggers-test-support.js';

const FAST = {
  WORKER_ENABLED: 'false',
  CRAWL_SCHEDULER_INTERVAL_MILLISECONDS: '50',
};

describe('crawl configurations and the crawler', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;
  let clients = 0;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({ providers: fakes.providers, env: FAST });
    admin = await host.admin();
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });
  beforeEach(async () => {
    await setEdition('Commercial');
    // Clients here share the fakes' pull requests; a revision is active once per installation.
    await host.storage.knex('review_jobs').whereIn('status', ['queued', 'running']).update({ status: 'stopped' });
  });

  const setEdition = async (edition: 'Community' | 'Commercial') => {
    expect((await admin.patch('/admin/licensing', { edition })).status).toBe(200);
  };
  const create = async (family: FamilyName, overrides: Record<string, unknown> = {}) => {
    const scoped = await scopedClient(admin, fakes, family, `Crawl client ${++clients}`);
    const res = await admin.post('/admin/crawl-configurations', {
      clientId: scoped.clientId,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 3600,
      ...overrides,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { ...scoped, configId: res.body.id as string, config: res.body };
  };
  const crawled = (configId: string) =>
    eventually(async () => {
      const res = await admin.get(`/admin/crawl-configurations/${configId}`);
      return res.body.lastCrawledAt !== null && res.body;
    });
  const jobsOf = async (clientId: string) =>
    (await admin.get(`/clients/${clientId}/reviewing/jobs`)).body.items as Array<Record<string, any>>;

  it('needs crawl-configs for every endpoint, reads included (409 license_required)', async () => {
    const { clientId, scopeId, configId } = await create('github');
    await setEdition('Community');
    const calls = [
      admin.post('/admin/crawl-configurations', { clientId, organizationScopeId: scopeId, providerProjectKey: 'acme' }),
      admin.get('/admin/crawl-configurations'),
      admin.get(`/admin/crawl-configurations?clientId=${clientId}`),
      admin.get(`/admin/crawl-configurations/${configId}`),
      admin.patch(`/admin/crawl-configurations/${configId}`, { isActive: false }),
      admin.delete(`/admin/crawl-configurations/${configId}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'license_required', capability: 'crawl-configs' });
    }
    // Stored all the same.
    expect(await host.storage.crawlConfigurations.findById(configId)).toBeDefined();
  });

  it('creates with defaults, reads, lists, patches and deletes', async () => {
    const scoped = await scopedClient(admin, fakes, 'github', `Crawl client ${++clients}`);
    const res = await admin.post('/admin/crawl-configurations', {
      clientId: scoped.clientId,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      isActive: false,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      clientId: scoped.clientId,
      provider: 'gitHostA',
      organizationScopeId: scoped.scopeId,
      providerScopePath: scoped.scopePath,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 60,
      reviewTemperature: null,
      repoFilters: [],
      knowledgeSourceScopeMode: 'allClientSources',
      knowledgeSourceIds: [],
      isActive: false,
      nextCrawlAt: expect.any(String),
      lastCrawledAt: null,
      lastCrawlOutcome: null,
      lastCrawlError: null,
      lastCrawlCounts: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await admin.get(`/admin/crawl-configurations/${res.body.id}`)).body).toEqual(res.body);
    expect((await admin.get(`/admin/crawl-configurations?clientId=${scoped.clientId}`)).body).toEqual({
      items: [res.body],
      nextCursor: null,
    });
    const patched = await admin.patch(`/admin/crawl-configurations/${res.body.id}`, {
      crawlIntervalSeconds: 10,
      reviewTemperature: 2,
      repoFilters: [repoFilter('github', ['main'])],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ crawlIntervalSeconds: 10, reviewTemperature: 2, isActive: false });
    expect(
      (await admin.patch(`/admin/crawl-configurations/${res.body.id}`, { repoFilters: [] })).body.repoFilters,
    ).toEqual([]);
    expect((await admin.delete(`/admin/crawl-configurations/${res.body.id}`)).status).toBe(204);
    expect((await admin.get(`/admin/crawl-configurations/${res.body.id}`)).status).toBe(404);
  });

  it.each([
    ['an interval under 10 seconds', { crawlIntervalSeconds: 9 }, 'crawlIntervalSeconds'],
    ['a fractional interval', { crawlIntervalSeconds: 10.5 }, 'crawlIntervalSeconds'],
    ['a negative temperature', { reviewTemperature: -0.1 }, 'reviewTemperature'],
    ['an unknown knowledge mode', { knowledgeSourceScopeMode: 'some' }, 'knowledgeSourceScopeMode'],
    ['no scope', { organizationScopeId: undefined }, 'organizationScopeId'],
    ['no client', { clientId: undefined }, 'clientId'],
  ])('refuses %s with 400', async (_name, overrides, path) => {
    const scoped = await scopedClient(admin, fakes, 'github', `Crawl client ${++clients}`);
    const res = await admin.post('/admin/crawl-configurations', {
      clientId: scoped.clientId,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      ...overrides,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('queues exactly the open, in-scope, unreviewed revisions of the faked provider, with the snapshot', async () => {
    const c = await create('github', { repoFilters: [repoFilter('github', ['main'])], reviewTemperature: 0.9 });
    const after = await crawled(c.configId);
    expect(after).toMatchObject({
      lastCrawlOutcome: 'succeeded',
      lastCrawlError: null,
      lastCrawlCounts: { pullRequestsSeen: 2, inScope: 2, queued: 2, skipped: 0 },
    });
    expect(Date.parse(after.nextCrawlAt) - Date.parse(after.lastCrawledAt)).toBe(3600_000);
    const jobs = await jobsOf(c.clientId);
    expect(jobs.map((j) => j.codeReview.number).sort()).toEqual([42, 43]);
    expect(jobs.every((j) => j.trigger === 'crawl' && j.status === 'queued')).toBe(true);
    const stored = await host.storage.reviewJobs.findById(jobs[0]?.jobId);
    expect(stored?.options).toMatchObject({ reviewTemperature: 0.9, configurationId: c.configId });

    // 42 is reviewed, 43 is still queued: the next crawl queues nothing.
    const done = jobs.find((j) => j.codeReview.number === 42);
    await host.storage.reviewJobs.transition(done?.jobId, ['queued'], 'completed', {
      completedAt: new Date().toISOString(),
    });
    await host.storage.crawlConfigurations.update(c.configId, { nextCrawlAt: new Date(0).toISOString() });
    const second = await eventually(async () => {
      const res = await admin.get(`/admin/crawl-configurations/${c.configId}`);
      return res.body.lastCrawledAt !== after.lastCrawledAt && res.body;
    });
    expect(second.lastCrawlCounts).toEqual({ pullRequestsSeen: 2, inScope: 2, queued: 0, skipped: 2 });
    expect(await jobsOf(c.clientId)).toHaveLength(2);
  });

  it('applies branch patterns and repository filters', async () => {
    const branch = await create('github', { repoFilters: [repoFilter('github', ['release/*'])] });
    expect((await crawled(branch.configId)).lastCrawlCounts).toEqual({
      pullRequestsSeen: 2,
      inScope: 0,
      queued: 0,
      skipped: 0,
    });
    expect(await jobsOf(branch.clientId)).toEqual([]);
  });

  it('lists the whole scope when there are no filters (GitLab group)', async () => {
    const c = await create('gitlab');
    const after = await crawled(c.configId);
    expect(after.lastCrawlOutcome, after.lastCrawlError).toBe('succeeded');
    expect(after.lastCrawlCounts.queued).toBeGreaterThan(0);
    const jobs = await jobsOf(c.clientId);
    expect(jobs).toHaveLength(after.lastCrawlCounts.queued);
    expect(jobs.every((j) => j.codeReview.platform === 'mergeRequest')).toBe(true);
  });

  it('records a failed crawl when the scope no longer resolves, and schedules the next', async () => {
    // Inactive until the scope is disabled, so the crawler cannot get in first with a good crawl.
    const c = await create('github', { isActive: false });
    await admin.patch(`/clients/${c.clientId}/provider-connections/${c.connectionId}/scopes/${c.scopeId}`, {
      isEnabled: false,
    });
    await admin.patch(`/admin/crawl-configurations/${c.configId}`, { isActive: true });
    const after = await crawled(c.configId);
    expect(after).toMatchObject({ lastCrawlOutcome: 'failed', lastCrawlError: expect.stringMatching(/disabled/) });
  });

  it('stays idle while crawl-configs is unavailable, and resumes when it returns', async () => {
    const c = await create('github', { repoFilters: [repoFilter('github')] });
    const first = await crawled(c.configId);
    await setEdition('Community');
    await host.storage.crawlConfigurations.update(c.configId, { nextCrawlAt: new Date(0).toISOString() });
    await new Promise((r) => setTimeout(r, 400));
    const idle = await host.storage.crawlConfigurations.findById(c.configId);
    expect(idle?.lastCrawledAt).toBe(first.lastCrawledAt);
    await setEdition('Commercial');
    await eventually(async () => {
      const now = await host.storage.crawlConfigurations.findById(c.configId);
      return now?.lastCrawledAt !== first.lastCrawledAt;
    });
  });

  it('never crawls an inactive configuration', async () => {
    const c = await create('github', { isActive: false });
    await new Promise((r) => setTimeout(r, 300));
    expect((await host.storage.crawlConfigurations.findById(c.configId))?.lastCrawledAt).toBeNull();
  });
});

describe('crawling from two hosts on one PostgreSQL database', () => {
  let fakes: ScmFakes;
  let first: TestHost;
  let second: TestHost;

  beforeAll(async () => {
    fakes = await startScmFakes();
    first = await startTestHost({ providers: fakes.providers, env: FAST, dialect: 'postgres' });
    second = await startTestHost({
      providers: fakes.providers,
      env: FAST,
      reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
    });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.close();
    await fakes?.close();
  });

  it('queues each revision once: the second host crawling at the same time queues nothing more', async () => {
    const admin = await first.admin();
    await admin.patch('/admin/licensing', { edition: 'Commercial' });
    const scoped = await scopedClient(admin, fakes, 'github', 'Two hosts');
    // Both hosts poll every 50 ms; the configuration becomes due for both at once, again and again.
    const res = await admin.post('/admin/crawl-configurations', {
      clientId: scoped.clientId,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 10,
      repoFilters: [repoFilter('github')],
    });
    expect(res.status).toBe(201);
    for (let round = 0; round < 5; round++) {
      await first.storage.crawlConfigurations.update(res.body.id, { nextCrawlAt: new Date(0).toISOString() });
      await eventually(async () => {
        const c = await first.storage.crawlConfigurations.findById(res.body.id);
        return c !== undefined && Date.parse(c.nextCrawlAt) > Date.now();
      });
    }
    const jobs = await first.storage.knex('review_jobs').where({ client_id: scoped.clientId });
    expect(jobs).toHaveLength(2);
    expect(new Set(jobs.map((j: { revision_key: string }) => j.revision_key)).size).toBe(2);
  });
});
