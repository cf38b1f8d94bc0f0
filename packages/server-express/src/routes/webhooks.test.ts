import { randomUUID } from 'node:crypto';
import { WebhookDeliveryProcessor } from '@margin/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, eventually, startTestHost, TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import {
  type Delivery,
  delivery,
  FACTS,
  FAMILIES,
  type FamilyName,
  post,
  repoFilter,
  scopedClient,
} from '../testing/triggers-test-support.js';

/** Every answer the tests receive, searched for generated secrets at the end. */
class RecordingApi extends TestApi {
  constructor(
    baseUrl: string,
    private readonly seen: ApiResponse[],
    credentials = {},
  ) {
    super(baseUrl, credentials);
  }
  override with(credentials: object): RecordingApi {
    return new RecordingApi(this.baseUrl, this.seen, credentials);
  }
  override async request(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    const res = await super.request(method, path, body, headers);
    this.seen.push(res);
    return res;
  }
}

const PUBLIC_BASE = 'https://margin.example.com';
const HEX32 = /^[0-9a-f]{32}$/;

describe('webhook configurations and the public receiver', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;
  const seen: ApiResponse[] = [];
  /** Every generated secret, and every receiver answer, for the leak scan. */
  const secrets: string[] = [];
  const receiverAnswers: string[] = [];
  let clients = 0;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({
      providers: fakes.providers,
      env: {
        LOG_LEVEL: 'trace',
        MARGIN_PUBLIC_BASE_URL: `${PUBLIC_BASE}/`,
        // Jobs stay queued: these tests count them.
        WORKER_ENABLED: 'false',
        WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS: '50',
      },
    });
    const login = await host.admin();
    admin = new RecordingApi(login.baseUrl, seen, login.credentials);
    // Several reviews queued at once need parallel-review-execution.
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  interface Configured {
    clientId: string;
    configId: string;
    secret: string;
    url: string;
    scopeId: string;
  }

  const configure = async (
    family: FamilyName,
    overrides: Record<string, unknown> = {},
    tenantId?: string,
  ): Promise<Configured> => {
    const scoped = await scopedClient(admin, fakes, family, `Webhook client ${++clients}`, tenantId);
    const res = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: FACTS[family].provider,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: FACTS[family].projectKey,
      enabledEvents: ['pullRequestCreated', 'pullRequestUpdated', 'pullRequestCommented'],
      ...overrides,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    secrets.push(res.body.generatedSecret);
    return {
      clientId: scoped.clientId,
      configId: res.body.id,
      secret: res.body.generatedSecret,
      url: res.body.listenerUrl.replace(PUBLIC_BASE, host.url),
      scopeId: scoped.scopeId,
    };
  };
  const send = async (url: string, d: Delivery) => {
    const res = await post(url, d);
    receiverAnswers.push(res.text);
    return res;
  };
  const deliveries = async (configId: string, query = '') => {
    const res = await admin.get(`/admin/webhook-configurations/${configId}/deliveries${query}`);
    expect(res.status).toBe(200);
    return res.body.items as Array<Record<string, any>>;
  };
  const jobsOf = async (clientId: string) => {
    const res = await admin.get(`/clients/${clientId}/reviewing/jobs`);
    expect(res.status).toBe(200);
    return res.body.items as Array<Record<string, any>>;
  };
  /** Waits until the processor has handled every accepted delivery of the configuration. */
  const processed = async (configId: string) =>
    eventually(async () => {
      const rows = await deliveries(configId);
      return rows.every((d) => d.outcome !== 'accepted' || d.actions.length > 0) && rows;
    });

  describe('configurations', () => {
    it('creates with a listener URL from MARGIN_PUBLIC_BASE_URL and a secret shown once', async () => {
      const scoped = await scopedClient(admin, fakes, 'github', `Webhook client ${++clients}`);
      const res = await admin.post('/admin/webhook-configurations', {
        clientId: scoped.clientId,
        provider: 'gitHostA',
        organizationScopeId: scoped.scopeId,
        providerProjectKey: 'acme',
        reviewTemperature: 0.4,
        repoFilters: [repoFilter('github', ['main', 'release/*'])],
        unknownField: 'ignored',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      secrets.push(res.body.generatedSecret);
      const pathKey = res.body.listenerUrl.split('/').at(-1);
      expect(pathKey).toMatch(HEX32);
      expect(res.body).toEqual({
        id: expect.any(String),
        clientId: scoped.clientId,
        provider: 'gitHostA',
        organizationScopeId: scoped.scopeId,
        providerScopePath: scoped.scopePath,
        providerProjectKey: 'acme',
        reviewTemperature: 0.4,
        enabledEvents: ['pullRequestCreated', 'pullRequestUpdated'],
        repoFilters: [repoFilter('github', ['main', 'release/*'])],
        knowledgeSourceScopeMode: 'allClientSources',
        knowledgeSourceIds: [],
        isActive: true,
        listenerUrl: `${PUBLIC_BASE}/webhooks/v1/providers/gitHostA/${pathKey}`,
        listenerUrlSource: 'publicBaseUrl',
        warnings: [],
        generatedSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const { generatedSecret: _secret, ...withoutSecret } = res.body;
      const read = await admin.get(`/admin/webhook-configurations/${res.body.id}`);
      expect(read.body).toEqual(withoutSecret);
      const listed = await admin.get(`/admin/webhook-configurations?clientId=${scoped.clientId}`);
      expect(listed.body).toEqual({ items: [withoutSecret], nextCursor: null });
      const all = await admin.get('/admin/webhook-configurations');
      expect(all.body.items.map((c: { id: string }) => c.id)).toContain(res.body.id);
      const stored = await host.storage.webhookConfigurations.findById(res.body.id);
      expect(stored?.sealedSecret).toMatch(/^v2:/);
      expect(stored?.sealedSecret).not.toContain(res.body.generatedSecret);
    });

    it('patches isActive, reviewTemperature, enabledEvents and repoFilters (an empty array too), and deletes', async () => {
      const c = await configure('github', { repoFilters: [repoFilter('github')] });
      const patched = await admin.patch(`/admin/webhook-configurations/${c.configId}`, {
        isActive: false,
        reviewTemperature: 1.5,
        enabledEvents: ['pullRequestCommented'],
        repoFilters: [],
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body).toMatchObject({
        isActive: false,
        reviewTemperature: 1.5,
        enabledEvents: ['pullRequestCommented'],
        repoFilters: [],
      });
      expect(patched.body.generatedSecret).toBeUndefined();
      expect(
        (await admin.patch(`/admin/webhook-configurations/${c.configId}`, { reviewTemperature: null })).body,
      ).toMatchObject({ reviewTemperature: null });
      expect((await admin.delete(`/admin/webhook-configurations/${c.configId}`)).status).toBe(204);
      expect((await admin.get(`/admin/webhook-configurations/${c.configId}`)).status).toBe(404);
      expect((await admin.delete(`/admin/webhook-configurations/${c.configId}`)).status).toBe(404);
    });

    it.each([
      ['reviewTemperature above 2', { reviewTemperature: 2.5 }, 'reviewTemperature'],
      ['reviewTemperature as text', { reviewTemperature: 'warm' }, 'reviewTemperature'],
      ['an unknown event', { enabledEvents: ['pullRequestMerged'] }, 'enabledEvents[0]'],
      ['no events', { enabledEvents: [] }, 'enabledEvents'],
      [
        'a filter of another family',
        { repoFilters: [{ canonicalSourceRef: { provider: 'gitHostB', value: '1' } }] },
        'repoFilters[0].canonicalSourceRef.provider',
      ],
      [
        'a wildcard inside a pattern',
        { repoFilters: [{ ...repoFilter('github', ['rel*ase']) }] },
        'repoFilters[0].targetBranchPatterns[0]',
      ],
      ['selectedSources without ids', { knowledgeSourceScopeMode: 'selectedSources' }, 'knowledgeSourceIds'],
      [
        'unknown knowledge source ids',
        { knowledgeSourceScopeMode: 'selectedSources', knowledgeSourceIds: ['nope'] },
        'knowledgeSourceIds',
      ],
      ['a provider other than the scope’s', { provider: 'gitHostB' }, 'provider'],
      ['a scope of another client', { organizationScopeId: 'not-a-scope' }, 'organizationScopeId'],
      ['a missing project key', { providerProjectKey: undefined }, 'providerProjectKey'],
    ])('refuses %s with 400 naming the field', async (_name, overrides, path) => {
      const scoped = await scopedClient(admin, fakes, 'github', `Webhook client ${++clients}`);
      const res = await admin.post('/admin/webhook-configurations', {
        clientId: scoped.clientId,
        provider: 'gitHostA',
        organizationScopeId: scoped.scopeId,
        providerProjectKey: 'acme',
        ...overrides,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('names the unknown knowledge source ids and accepts the client’s own', async () => {
      const scoped = await scopedClient(admin, fakes, 'github', `Webhook client ${++clients}`);
      const source = await admin.post(`/admin/clients/${scoped.clientId}/knowledge/sources`, {
        displayName: 'Uploader',
        sourceKind: 'repository',
        organizationScopeId: scoped.scopeId,
        providerProjectKey: 'acme',
        canonicalSourceRef: { provider: 'gitHostA', value: FACTS.github.repositoryId },
        defaultBranch: 'main',
      });
      expect(source.status).toBe(201);
      const body = {
        clientId: scoped.clientId,
        provider: 'gitHostA',
        organizationScopeId: scoped.scopeId,
        providerProjectKey: 'acme',
        knowledgeSourceScopeMode: 'selectedSources',
      };
      const refused = await admin.post('/admin/webhook-configurations', {
        ...body,
        knowledgeSourceIds: [source.body.id, 'ghost-1', 'ghost-2'],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('ghost-1, ghost-2');
      const ok = await admin.post('/admin/webhook-configurations', { ...body, knowledgeSourceIds: [source.body.id] });
      expect(ok.status).toBe(201);
      secrets.push(ok.body.generatedSecret);
      expect(ok.body.knowledgeSourceIds).toEqual([source.body.id]);
    });
  });

  describe.each(FAMILIES)('receiver: %s', (family) => {
    const facts = FACTS[family];

    it('accepts an opened pull request at once and queues one job from the processor, with the snapshot', async () => {
      const c = await configure(family, { reviewTemperature: 0.2, repoFilters: [repoFilter(family, ['main'])] });
      const res = await send(c.url, delivery(family, facts.opened, c.secret));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ status: 'accepted' });
      const rows = await processed(c.configId);
      const jobs = await jobsOf(c.clientId);
      expect(jobs).toHaveLength(1);
      const job = jobs[0] ?? {};
      expect(job).toMatchObject({ trigger: 'webhook', status: 'queued', codeReview: { number: 42 } });
      expect(rows).toEqual([
        {
          id: expect.any(String),
          receivedAt: expect.any(String),
          eventType: expect.any(String),
          outcome: 'accepted',
          httpStatus: 200,
          repositoryId: expect.any(String),
          pullRequestId: 42,
          sourceBranch: expect.any(String),
          targetBranch: 'main',
          actions: [`jobQueued ${job.jobId}`],
          failureReason: null,
        },
      ]);
      const stored = await host.storage.reviewJobs.findById(job.jobId);
      expect(stored?.options).toEqual({
        reviewTemperature: 0.2,
        knowledgeSourceScopeMode: 'allClientSources',
        knowledgeSourceIds: [],
        configurationId: c.configId,
        providerScopePath: fakes.scopePaths[family],
        providerProjectKey: facts.projectKey,
      });
    });

    it('records a retry of the same delivery as an ignored duplicate, and a second event of the revision queues nothing', async () => {
      const c = await configure(family);
      const first = delivery(family, facts.opened, c.secret);
      expect((await send(c.url, first)).body).toEqual({ status: 'accepted' });
      expect((await send(c.url, first)).body).toEqual({ status: 'ignored' });
      await processed(c.configId);
      expect((await send(c.url, delivery(family, facts.updated, c.secret))).body).toEqual({ status: 'accepted' });
      const rows = await processed(c.configId);
      expect(await jobsOf(c.clientId)).toHaveLength(1);
      expect(rows.map((r) => [r.outcome, r.actions[0]?.replace(/\(.*\)/, '(…)')])).toEqual([
        ['accepted', 'skipped: a review of this revision is active (…)'],
        ['ignored', 'skipped: duplicate delivery'],
        ['accepted', expect.stringMatching(/^jobQueued /)],
      ]);
      expect(rows[1]?.failureReason).toMatch(/Duplicate delivery/);
    });

    it('refuses a wrong secret with 401 and records it as rejected', async () => {
      const c = await configure(family);
      const res = await send(c.url, delivery(family, facts.opened, 'f'.repeat(64)));
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthenticated' });
      const [row] = await deliveries(c.configId);
      expect(row).toMatchObject({ outcome: 'rejected', httpStatus: 401, failureReason: expect.any(String) });
      expect(await jobsOf(c.clientId)).toEqual([]);
    });

    it('refuses a delivery without credentials with 401', async () => {
      const c = await configure(family);
      const d = delivery(family, facts.opened, c.secret);
      const bare = Object.fromEntries(
        Object.entries(d.headers).filter(
          ([k]) => !['authorization', 'x-hub-signature-256', 'x-hub-signature', 'x-gitlab-token'].includes(k),
        ),
      );
      expect((await send(c.url, { ...d, headers: bare })).status).toBe(401);
    });

    it('ignores an event the receiver does not classify, and records why', async () => {
      const c = await configure(family);
      const res = await send(c.url, delivery(family, facts.unknown, c.secret));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ status: 'ignored' });
      const [row] = await deliveries(c.configId);
      expect(row).toMatchObject({
        outcome: 'ignored',
        httpStatus: 200,
        failureReason: expect.stringMatching(/does not start reviews/),
      });
    });

    it('ignores a closed or merged pull request', async () => {
      const c = await configure(family);
      const res = await send(c.url, delivery(family, facts.closed, c.secret));
      expect(res.body).toEqual({ status: 'ignored' });
      const [row] = await deliveries(c.configId);
      expect(row?.failureReason).toMatch(/The pull request is (closed|merged)/);
      expect(await jobsOf(c.clientId)).toEqual([]);
    });

    it('ignores a repository outside the stored filters, whatever the payload claims', async () => {
      const c = await configure(family, {
        repoFilters: [
          { ...repoFilter(family), canonicalSourceRef: { provider: facts.provider, value: 'another-repository' } },
        ],
      });
      expect((await send(c.url, delivery(family, facts.opened, c.secret))).body).toEqual({ status: 'ignored' });
      const [row] = await deliveries(c.configId);
      expect(row?.failureReason).toMatch(/not among the configuration’s repository filters/);
      await new Promise((r) => setTimeout(r, 150));
      expect(await jobsOf(c.clientId)).toEqual([]);
    });

    it('ignores a target branch outside the patterns, and accepts one inside', async () => {
      const outside = await configure(family, { repoFilters: [repoFilter(family, ['release/*'])] });
      expect((await send(outside.url, delivery(family, facts.opened, outside.secret))).body).toEqual({
        status: 'ignored',
      });
      const [row] = await deliveries(outside.configId);
      expect(row?.failureReason).toMatch(/matches none of the repository filter’s branch patterns/);
      const inside = await configure(family, { repoFilters: [repoFilter(family, ['release/*', 'ma*'])] });
      expect((await send(inside.url, delivery(family, facts.opened, inside.secret))).body).toEqual({
        status: 'accepted',
      });
    });

    it('ignores an event that is not enabled', async () => {
      const c = await configure(family, { enabledEvents: ['pullRequestCommented'] });
      expect((await send(c.url, delivery(family, facts.opened, c.secret))).body).toEqual({ status: 'ignored' });
      const [row] = await deliveries(c.configId);
      expect(row?.failureReason).toMatch(/is not enabled/);
    });
  });

  describe('receiver statuses', () => {
    it('answers 404 for an unknown path key, a wrong segment, an unknown segment and an inactive configuration', async () => {
      const c = await configure('github');
      const d = delivery('github', FACTS.github.opened, c.secret);
      const pathKey = c.url.split('/').at(-1) ?? '';
      const base = `${host.url}/webhooks/v1/providers`;
      expect((await send(`${base}/gitHostA/${'0'.repeat(32)}`, d)).status).toBe(404);
      expect((await send(`${base}/gitHostA/not-a-key`, d)).status).toBe(404);
      expect((await send(`${base}/gitHostB/${pathKey}`, d)).status).toBe(404);
      expect((await send(`${base}/github/${pathKey}`, d)).status).toBe(404);
      // The segment is matched without case.
      expect((await send(`${base}/GITHOSTA/${pathKey}`, d)).body).toEqual({ status: 'accepted' });
      await admin.patch(`/admin/webhook-configurations/${c.configId}`, { isActive: false });
      expect((await send(c.url, delivery('github', FACTS.github.opened, c.secret))).status).toBe(404);
    });

    it('answers 404 for another tenant’s client while the installation is Community, and serves it again in Commercial', async () => {
      const tenant = await admin.post('/admin/tenants', { displayName: `Webhook tenant ${++clients}` });
      expect(tenant.status).toBe(201);
      const c = await configure('github', {}, tenant.body.id);
      const opened = () => delivery('github', FACTS.github.opened, c.secret);
      expect((await send(c.url, opened())).body).toEqual({ status: 'accepted' });
      try {
        await admin.patch('/admin/licensing', { edition: 'Community' });
        // The receiver's configuration cache lets a change of edition take effect within its TTL.
        await eventually(async () => (await send(c.url, opened())).status === 404);
      } finally {
        await admin.patch('/admin/licensing', { edition: 'Commercial' });
      }
      await eventually(async () => (await send(c.url, opened())).status === 200);
    });

    it('serves the ADO segment `devopsA` in any case', async () => {
      const c = await configure('ado');
      const url = c.url.replace('/devopsA/', '/DEVOPSA/');
      expect((await send(url, delivery('ado', FACTS.ado.opened, c.secret))).body).toEqual({ status: 'accepted' });
    });

    it('accepts the spec’s own Azure DevOps body (eventType and resource, no id), once per content', async () => {
      const c = await configure('ado');
      const specBody = JSON.stringify({
        eventType: 'git.pullrequest.updated',
        resource: {
          pullRequestId: 42,
          repository: { id: FACTS.ado.repositoryId },
          sourceRefName: 'refs/heads/feature/upload-retries',
          targetRefName: 'refs/heads/main',
          status: 'active',
        },
      });
      const headers = {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`margin:${c.secret}`).toString('base64')}`,
      };
      const first = await send(c.url, { body: specBody, headers });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ status: 'accepted' });
      // The same content again is the same delivery (the key is derived from it): one job only.
      expect((await send(c.url, { body: specBody, headers })).body).toEqual({ status: 'ignored' });
      const changed = specBody.replace('"active"', '"active","title":"Retry uploads"');
      expect((await send(c.url, { body: changed, headers })).body).toEqual({ status: 'accepted' });
      const rows = await processed(c.configId);
      expect(rows.filter((d: Record<string, unknown>) => d.outcome === 'accepted')).toHaveLength(2);
      expect(await jobsOf(c.clientId)).toHaveLength(1);
    });

    it('refuses tampered bodies of the signing families with 401', async () => {
      for (const family of ['github', 'bitbucket'] as const) {
        const c = await configure(family);
        const d = delivery(family, FACTS[family].opened, c.secret);
        const tampered = { ...d, body: d.body.replace('"main"', '"release/evil"') };
        expect(tampered.body).not.toBe(d.body);
        expect((await send(c.url, tampered)).status).toBe(401);
      }
    });

    it('answers 400 for a malformed body that authenticates, and records it', async () => {
      const c = await configure('gitlab');
      const notJson = delivery('gitlab', FACTS.gitlab.opened, c.secret);
      expect((await send(c.url, { ...notJson, body: '{"object_kind": ' })).status).toBe(400);
      const noIid = delivery('gitlab', FACTS.gitlab.opened, c.secret, {
        edit: (p) => {
          delete p.object_attributes.iid;
        },
      });
      const res = await send(c.url, noIid);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
      const rows = await deliveries(c.configId);
      expect(rows.map((r) => [r.outcome, r.httpStatus])).toEqual([
        ['rejected', 400],
        ['rejected', 400],
      ]);
    });

    it('answers 400 for a pull request number no provider uses, instead of failing to store it', async () => {
      const c = await configure('github');
      const huge = delivery('github', FACTS.github.opened, c.secret, {
        edit: (p) => {
          p.pull_request.number = 10 ** 12;
        },
      });
      const res = await send(c.url, huge);
      expect(res.status).toBe(400);
      expect((await deliveries(c.configId))[0]).toMatchObject({ outcome: 'rejected', httpStatus: 400 });
    });

    it('checks the branch of a comment event once the pull request is read', async () => {
      const c = await configure('github', { repoFilters: [repoFilter('github', ['release/*'])] });
      const res = await send(c.url, delivery('github', 'webhook-issue-comment-pull-request.json', c.secret));
      expect(res.body).toEqual({ status: 'accepted' });
      const [row] = await processed(c.configId);
      expect(row).toMatchObject({
        outcome: 'ignored',
        actions: ['skipped: outside the configured scope'],
        failureReason: expect.stringMatching(/'main' matches none/),
      });
      expect(await jobsOf(c.clientId)).toEqual([]);
    });

    it('turns ten concurrent copies of one delivery into exactly one job', async () => {
      const c = await configure('github');
      const d = delivery('github', FACTS.github.opened, c.secret);
      const answers = await Promise.all(Array.from({ length: 10 }, () => send(c.url, d)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(answers.filter((a) => a.body.status === 'accepted')).toHaveLength(1);
      await processed(c.configId);
      expect(await jobsOf(c.clientId)).toHaveLength(1);
      const rows = await deliveries(c.configId);
      expect(rows).toHaveLength(10);
      expect(rows.filter((r) => r.outcome === 'ignored')).toHaveLength(9);
    });

    it('turns ten concurrent distinct deliveries of one revision into exactly one job', async () => {
      const c = await configure('gitlab');
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => send(c.url, delivery('gitlab', FACTS.gitlab.updated, c.secret))),
      );
      expect(answers.every((a) => a.body.status === 'accepted')).toBe(true);
      await processed(c.configId);
      expect(await jobsOf(c.clientId)).toHaveLength(1);
    });

    it('takes at most `take` deliveries, newest first: default 50, clamped to 1–200', async () => {
      const c = await configure('github');
      for (let i = 0; i < 3; i++) await send(c.url, delivery('github', 'webhook-ping.json', c.secret));
      expect(await deliveries(c.configId)).toHaveLength(3);
      expect(await deliveries(c.configId, '?take=2')).toHaveLength(2);
      expect(await deliveries(c.configId, '?take=0')).toHaveLength(1);
      expect(await deliveries(c.configId, '?take=-5')).toHaveLength(1);
      expect(await deliveries(c.configId, '?take=1000')).toHaveLength(3);
      expect(await deliveries(c.configId, '?take=lots')).toHaveLength(3);
      const rows = await deliveries(c.configId);
      expect(rows.map((r) => r.receivedAt)).toEqual([...rows.map((r) => r.receivedAt)].sort().reverse());
      expect((await admin.get(`/admin/webhook-configurations/${randomUUID()}/deliveries`)).status).toBe(404);
    });

    it('accepts a large payload (over the API’s 1 MB limit)', async () => {
      const c = await configure('github');
      const big = delivery('github', FACTS.github.opened, c.secret, {
        edit: (p) => {
          p.pull_request.body = 'x'.repeat(2 * 1024 * 1024);
        },
      });
      expect((await send(c.url, big)).body).toEqual({ status: 'accepted' });
    });

    it('answers 413 naming the webhook limit for a payload over 5 MB', async () => {
      const c = await configure('github');
      const huge = delivery('github', FACTS.github.opened, c.secret, {
        edit: (p) => {
          p.pull_request.body = 'x'.repeat(6 * 1024 * 1024);
        },
      });
      const res = await send(c.url, huge);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({
        code: 'payload_too_large',
        error: 'The request body is larger than the 5mb limit.',
      });
    });
  });

  it('deletes delivery history past the retention period, keeping deliveries that wait for processing', async () => {
    const c = await configure('github');
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const base = (await host.storage.webhookDeliveries.listForConfiguration(c.configId, 1))[0];
    const sent = await send(c.url, delivery('github', FACTS.github.unknown, c.secret));
    expect(sent.body).toEqual({ status: 'ignored' });
    const [recent] = await host.storage.webhookDeliveries.listForConfiguration(c.configId, 1);
    if (!recent || base) throw new Error('expected exactly one recorded delivery');
    const old = { ...recent, id: randomUUID(), idempotencyKey: null, receivedAt: daysAgo(31) };
    const oldPending = { ...old, id: randomUUID(), outcome: 'accepted' as const, processingState: 'pending' as const };
    await host.storage.webhookDeliveries.recordMany([old, { ...oldPending, processAfter: daysAgo(-1) }]);

    // A processor of its own, so its first round (which prunes) runs after the old rows exist.
    const processor = new WebhookDeliveryProcessor({
      core: host.core,
      logger: host.logger,
      pollIntervalMs: 60_000,
      leaseMs: 60_000,
      retentionDays: 30,
    });
    processor.start();
    try {
      await eventually(async () => (await host.storage.webhookDeliveries.findById(old.id)) === undefined);
    } finally {
      await processor.stop();
    }
    expect(await host.storage.webhookDeliveries.findById(recent.id)).toBeDefined();
    expect(await host.storage.webhookDeliveries.findById(oldPending.id)).toBeDefined();
  });

  it('never shows a generated secret after creation: not in responses, logs, or delivery records', async () => {
    expect(secrets.length).toBeGreaterThan(10);
    const afterCreate = seen.filter((r) => !(r.status === 201 && r.body?.generatedSecret));
    const text = [
      ...afterCreate.map((r) => JSON.stringify(r.body)),
      ...receiverAnswers,
      host.rawLogs(),
      JSON.stringify(await host.storage.knex('webhook_deliveries').select('*')),
    ].join('\n');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
