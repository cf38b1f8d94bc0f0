import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlledEngine, eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';

/** Follows `nextCursor` with `limit=2` and answers the pages' item ids. */
async function pages(api: TestApi, path: string, idOf: (item: any) => string): Promise<string[][]> {
  const seen: string[][] = [];
  let cursor: string | null = null;
  do {
    const res = await api.get(`${path}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    seen.push(res.body.items.map(idOf));
    cursor = res.body.nextCursor;
  } while (cursor && seen.length < 10);
  return seen;
}

/** Lists that grow without bound are paged like every other list: `limit` and `cursor`. */
describe('paged lists', () => {
  const engine = new ControlledEngine();
  let host: TestHost;
  let admin: TestApi;
  let clientId: string;

  beforeAll(async () => {
    host = await startTestHost({
      reviewEngine: engine,
      env: { WORKER_POLL_INTERVAL_MILLISECONDS: '20', WORKER_LEASE_SECONDS: '2' },
    });
    admin = await host.admin();
    clientId = (await admin.post('/clients', { displayName: 'Paged', tenantId: SYSTEM_TENANT_ID })).body.id;
  });
  afterAll(async () => {
    await host.close();
  });

  it('personal access tokens, newest first', async () => {
    const { api } = await host.createUser('many-tokens');
    const ids: string[] = [];
    for (const label of ['one', 'two', 'three']) ids.push((await api.post('/users/me/pats', { label })).body.id);
    expect(await pages(api, '/users/me/pats', (t) => t.id)).toEqual([[ids[2], ids[1]], [ids[0]]]);
  });

  it('client and tenant members, oldest first', async () => {
    const users = [
      await host.createUser('member-a'),
      await host.createUser('member-b'),
      await host.createUser('member-c'),
    ];
    for (const { id } of users) {
      expect((await admin.put(`/clients/${clientId}/members/${id}`, { role: 'ClientUser' })).status).toBe(200);
      expect((await admin.put(`/admin/tenants/${SYSTEM_TENANT_ID}/members/${id}`, { role: 'TenantUser' })).status).toBe(
        200,
      );
    }
    const ids = users.map((u) => u.id);
    expect(await pages(admin, `/clients/${clientId}/members`, (m) => m.userId)).toEqual([[ids[0], ids[1]], [ids[2]]]);
    expect((await pages(admin, `/admin/tenants/${SYSTEM_TENANT_ID}/members`, (m) => m.userId)).flat()).toEqual(ids);
  });

  it('blocked pull requests and dismissals, newest first', async () => {
    const blocked: number[] = [];
    for (const pullRequestId of [1, 2, 3]) {
      const res = await admin.post(`/clients/${clientId}/reviewing/blocked-prs`, {
        providerScopePath: 'https://github.com/acme',
        providerProjectKey: 'acme',
        repositoryId: '4242',
        pullRequestId,
        reason: 'frozen',
      });
      expect(res.status).toBe(200);
      blocked.push(pullRequestId);
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct timestamps, so the order is known
    }
    expect(await pages(admin, `/clients/${clientId}/reviewing/blocked-prs`, (b) => String(b.pullRequestId))).toEqual([
      ['3', '2'],
      ['1'],
    ]);
    const dismissed: string[] = [];
    for (const findingMessage of ['first', 'second', 'third']) {
      dismissed.push((await admin.post(`/clients/${clientId}/reviewing/dismiss-finding`, { findingMessage })).body.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await pages(admin, `/clients/${clientId}/reviewing/dismissals`, (d) => d.id)).toEqual([
      [dismissed[2], dismissed[1]],
      [dismissed[0]],
    ]);
  });

  it('a review’s protocol, pass by pass, with the next cursor in X-Next-Cursor', async () => {
    const submitted = await admin.post(`/clients/${clientId}/reviewing/jobs`, {
      provider: 'gitHostA',
      hostBaseUrl: 'https://github.com',
      repository: { externalRepositoryId: '4242', ownerOrNamespace: 'acme', projectPath: 'acme/app' },
      codeReview: { platform: 'pullRequest', externalReviewId: '99', number: 99 },
      reviewRevision: { headSha: 'e'.repeat(40), baseSha: 'f'.repeat(40) },
    });
    const jobId = submitted.body.jobId as string;
    // Two attempts, two protocol passes.
    await engine.started(jobId);
    engine.fail(jobId);
    await eventually(async () => (await admin.get(`/reviewing/jobs/${jobId}/status`)).body.status === 'failed');
    expect((await admin.post(`/reviewing/jobs/${jobId}/restart`)).status).toBe(202);
    await eventually(async () => engine.isRunning(jobId));
    engine.complete(jobId);
    await eventually(async () => (await admin.get(`/reviewing/jobs/${jobId}/status`)).body.status === 'completed');

    const all = (await admin.get(`/jobs/${jobId}/protocol`)).body as Array<{ id: string }>;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = await admin.get(`/jobs/${jobId}/protocol?limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.map((p: { id: string }) => p.id)).toEqual([all[0]?.id]);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toEqual(expect.any(String));
    // Following the cursor walks every pass once, in order, each with its events.
    const walked: string[] = [first.body[0].id];
    let next = cursor;
    while (next) {
      const page = await admin.get(`/jobs/${jobId}/protocol?limit=1&cursor=${encodeURIComponent(next)}`);
      expect(page.body).toHaveLength(1);
      walked.push(page.body[0].id);
      next = page.headers.get('x-next-cursor');
    }
    expect(walked).toEqual(all.map((p) => p.id));
    expect(all.some((p: any) => p.events.length > 0)).toBe(true);
    expect((await admin.get(`/jobs/${jobId}/protocol?limit=0`)).status).toBe(400);
  });
});
