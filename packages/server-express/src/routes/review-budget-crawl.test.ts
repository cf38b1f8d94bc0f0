import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { repoFilter, scopedClient } from '../testing/triggers-test-support.js';

/**
 * A revision a spend cap held or stopped is never reviewed again by an automatic trigger: each
 * crawl round would otherwise spend the cap again. Only an explicit submission or a restart does.
 */
describe('the crawler and the budget states', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({
      providers: fakes.providers,
      env: { WORKER_ENABLED: 'false', CRAWL_SCHEDULER_INTERVAL_MILLISECONDS: '50' },
    });
    admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  it.each(['budgetExceeded', 'budgetHeld'] as const)(
    'does not queue a revision whose review ended %s again on the next crawl',
    async (status) => {
      const scoped = await scopedClient(admin, fakes, 'github', `Crawled under a cap (${status})`);
      const created = await admin.post('/admin/crawl-configurations', {
        clientId: scoped.clientId,
        organizationScopeId: scoped.scopeId,
        providerProjectKey: 'acme',
        crawlIntervalSeconds: 3600,
        repoFilters: [repoFilter('github', ['main'])],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const configId = created.body.id as string;
      const first = await eventually(async () => {
        const res = await admin.get(`/admin/crawl-configurations/${configId}`);
        return res.body.lastCrawledAt !== null && res.body;
      });
      expect(first.lastCrawlCounts).toMatchObject({ inScope: 2, queued: 2 });
      const jobs = (await admin.get(`/clients/${scoped.clientId}/reviewing/jobs`)).body.items as Array<{
        jobId: string;
        status: string;
      }>;
      // One review ended in the budget state, the other did not finish: neither is queued again.
      await host.storage.reviewJobs.transition(jobs[0]?.jobId ?? '', ['queued'], status, {
        completedAt: new Date().toISOString(),
      });
      await host.storage.reviewJobs.transition(jobs[1]?.jobId ?? '', ['queued'], 'stopped', {
        completedAt: new Date().toISOString(),
      });

      await host.storage.crawlConfigurations.update(configId, { nextCrawlAt: new Date(0).toISOString() });
      const second = await eventually(async () => {
        const res = await admin.get(`/admin/crawl-configurations/${configId}`);
        return res.body.lastCrawledAt !== first.lastCrawledAt && res.body;
      });

      // The stopped revision is queued again (as before); the budget one is skipped.
      expect(second.lastCrawlCounts).toEqual({ pullRequestsSeen: 2, inScope: 2, queued: 1, skipped: 1 });
      const after = (await admin.get(`/clients/${scoped.clientId}/reviewing/jobs`)).body.items as Array<{
        status: string;
      }>;
      expect(after.map((j) => j.status).sort()).toEqual(['queued', 'stopped', status].sort());
      // Leave nothing queued for the next case (a revision is active once per installation).
      await host.storage.knex('review_jobs').whereIn('status', ['queued', 'running']).update({ status: 'stopped' });
    },
  );
});
