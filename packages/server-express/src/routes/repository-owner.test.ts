import { GH_REPOSITORY_ID, GITLAB_PROJECT_ID, GITLAB_TOKEN } from '@margin/providers/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, SECRETS, startScmFakes } from '../testing/scm-test-support.js';
import { delivery, FACTS, post, scopedClient } from '../testing/triggers-test-support.js';

const PUBLIC_BASE = 'https://margin.example.com';
/** A repository the token can read but that belongs to another owner (GitHub) or group (GitLab). */
const FOREIGN_REPOSITORY = '555000555';
const FOREIGN_PROJECT = 7770;

/**
 * GitHub and GitLab read a repository by its id alone, so a configuration of one owner or group
 * must not reach, through the client's token, repositories of another (issue 13, item 4).
 */
describe('a configuration reaches only the repositories of its owner or group', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;
  let clients = 0;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({
      providers: fakes.providers,
      env: {
        WORKER_ENABLED: 'false',
        MARGIN_PUBLIC_BASE_URL: PUBLIC_BASE,
        WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS: '20',
        CRAWL_SCHEDULER_INTERVAL_MILLISECONDS: '20',
      },
    });
    admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);

    // GitHub: pull request 7 of a repository owned by `evilcorp`, readable with the same token.
    const headers = { authorization: `Bearer ${SECRETS.github}`, 'user-agent': 'test' };
    const own: any = await (
      await fetch(`${fakes.github.hostUrl}/api/v3/repositories/${GH_REPOSITORY_ID}/pulls/42`, { headers })
    ).json();
    const foreignRepo = {
      ...own.base.repo,
      id: Number(FOREIGN_REPOSITORY),
      name: 'payroll',
      owner: { login: 'evilcorp', id: 66 },
    };
    const foreignPr = { ...own, number: 7, base: { ...own.base, repo: foreignRepo } };
    const R = `/api/v3/repositories/${FOREIGN_REPOSITORY}`;
    fakes.github.server.on('GET', `${R}/pulls/7`, () => ({ json: foreignPr }));
    fakes.github.server.on('GET', `${R}/pulls`, () => ({ json: [foreignPr] }));

    // GitLab: merge request 5 of a project in the group `other-group`.
    const gl = { 'private-token': GITLAB_TOKEN };
    const P = `${fakes.gitlab.hostBaseUrl}/api/v4/projects/${GITLAB_PROJECT_ID}/merge_requests/42`;
    const mr: any = await (await fetch(P, { headers: gl })).json();
    const versions: any = await (await fetch(`${P}/versions`, { headers: gl })).json();
    const foreignMr = {
      ...mr,
      iid: 5,
      project_id: FOREIGN_PROJECT,
      references: { short: '!5', relative: '!5', full: 'other-group/ledger!5' },
      web_url: 'https://gitlab.example.com/other-group/ledger/-/merge_requests/5',
    };
    const F = `/api/v4/projects/${FOREIGN_PROJECT}/merge_requests/5`;
    fakes.gitlab.server.on('GET', F, () => ({ json: foreignMr }));
    fakes.gitlab.server.on('GET', `${F}/versions`, () => ({ json: versions }));
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });
  beforeEach(async () => {
    await host.storage.knex('review_jobs').whereIn('status', ['queued', 'running']).update({ status: 'stopped' });
  });

  const configure = async (family: 'github' | 'gitlab', extra: Record<string, unknown> = {}) => {
    const scoped = await scopedClient(admin, fakes, family, `Owner client ${++clients}`);
    const res = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: FACTS[family].provider,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      enabledEvents: ['pullRequestCreated', 'pullRequestUpdated'],
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { ...scoped, webhook: res.body };
  };
  const jobsOf = async (clientId: string) =>
    (await admin.get(`/clients/${clientId}/reviewing/jobs`)).body.items as Array<Record<string, unknown>>;

  it('by coordinates: a GitHub repository of another owner is notAuthorized (403), the owner’s own is submitted', async () => {
    const { clientId, scopePath } = await configure('github');
    const url = `/clients/${clientId}/reviewing/jobs/by-coordinates`;
    const coordinates = { providerScopePath: scopePath, providerProjectKey: 'acme', pullRequestId: 7 };
    const res = await admin.post(url, { ...coordinates, repositoryId: FOREIGN_REPOSITORY });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      outcome: 'notAuthorized',
      code: 'forbidden',
      error: "The repository belongs to 'evilcorp', outside the configuration's owner or group 'acme'.",
    });
    expect(await jobsOf(clientId)).toEqual([]);
    const own = await admin.post(url, { ...coordinates, repositoryId: GH_REPOSITORY_ID, pullRequestId: 42 });
    expect(own.status, JSON.stringify(own.body)).toBe(202);
  });

  it('by coordinates: a GitLab project of another group is notAuthorized (403)', async () => {
    const { clientId, scopePath } = await configure('gitlab');
    const res = await admin.post(`/clients/${clientId}/reviewing/jobs/by-coordinates`, {
      providerScopePath: scopePath,
      providerProjectKey: 'acme',
      repositoryId: String(FOREIGN_PROJECT),
      pullRequestId: 5,
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ outcome: 'notAuthorized', error: expect.stringContaining("'other-group'") });
    expect(await jobsOf(clientId)).toEqual([]);
  });

  it('webhook: a delivery naming another owner’s repository is ignored once the provider says whose it is', async () => {
    const { clientId, webhook } = await configure('github');
    const sent = await post(
      webhook.listenerUrl.replace(PUBLIC_BASE, host.url),
      delivery('github', FACTS.github.opened, webhook.generatedSecret, {
        // The payload claims the configured owner; the provider knows better.
        edit: (payload) => {
          payload.repository.id = Number(FOREIGN_REPOSITORY);
          payload.pull_request.number = 7;
          payload.number = 7;
        },
      }),
    );
    expect(sent.status).toBe(200);
    const [processed] = await eventually(async () => {
      const rows = (await admin.get(`/admin/webhook-configurations/${webhook.id}/deliveries`)).body.items;
      return rows.length > 0 && rows[0].actions.length > 0 && rows;
    });
    expect(processed).toMatchObject({
      outcome: 'ignored',
      actions: ['skipped: outside the configured scope'],
      failureReason: "The repository belongs to 'evilcorp', outside the configuration's owner or group 'acme'.",
    });
    expect(await jobsOf(clientId)).toEqual([]);
  });

  it('crawl: pull requests of another owner’s repository are not queued, even when a filter names it', async () => {
    const scoped = await scopedClient(admin, fakes, 'github', `Owner client ${++clients}`);
    const crawl = await admin.post('/admin/crawl-configurations', {
      clientId: scoped.clientId,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 3600,
      repoFilters: [
        {
          repositoryName: 'payroll',
          displayName: 'Payroll',
          canonicalSourceRef: { provider: 'gitHostA', value: FOREIGN_REPOSITORY },
          targetBranchPatterns: [],
        },
      ],
    });
    expect(crawl.status, JSON.stringify(crawl.body)).toBe(201);
    const crawled = await eventually(async () => {
      const res = await admin.get(`/admin/crawl-configurations/${crawl.body.id}`);
      return res.body.lastCrawledAt !== null && res.body;
    });
    expect(crawled).toMatchObject({
      lastCrawlOutcome: 'succeeded',
      lastCrawlCounts: { pullRequestsSeen: 1, inScope: 0, queued: 0 },
    });
    expect(await jobsOf(scoped.clientId)).toEqual([]);
  });
});
