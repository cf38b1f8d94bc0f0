import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { testDialects } from '@margin/storage-knex/testing';
import { describe, expect, it } from 'vitest';
import { ControlledEngine, CountingEngine, eventually, startTestHost, type TestHost } from '../testing/index.js';

const submission = (n: number) => ({
  provider: 'gitHostB',
  hostBaseUrl: 'https://gitlab.example.com',
  repository: { externalRepositoryId: '9', ownerOrNamespace: 'group', projectPath: 'group/app' },
  codeReview: { platform: 'mergeRequest', externalReviewId: String(n), number: n },
  reviewRevision: { headSha: 'f'.repeat(40), baseSha: 'e'.repeat(40) },
});

async function commercialClient(host: TestHost) {
  const admin = await host.admin();
  await admin.patch('/admin/licensing', { edition: 'Commercial' });
  const clientId = (await admin.post('/clients', { displayName: 'Worker tests', tenantId: SYSTEM_TENANT_ID })).body
    .id as string;
  return { admin, clientId };
}

describe('a host that dies mid-review', () => {
  it('loses nothing: the job is reclaimed after its lease and runs once on the next host', async () => {
    const env = { WORKER_POLL_INTERVAL_MILLISECONDS: '20', WORKER_LEASE_SECONDS: '1' };
    const doomed = new ControlledEngine();
    const first = await startTestHost({ reviewEngine: doomed, env });
    const { admin, clientId } = await commercialClient(first);
    const jobId = (await admin.post(`/clients/${clientId}/reviewing/jobs`, submission(1))).body.jobId as string;
    await doomed.started(jobId);
    const token = (await first.storage.reviewJobs.findById(jobId))?.leaseOwner;
    expect(token).toBe(first.worker.owner);

    await first.kill();

    const survivor = new CountingEngine();
    const second = await startTestHost({
      reviewEngine: survivor,
      env,
      reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
    });
    try {
      const done = await eventually(async () => {
        const job = await second.storage.reviewJobs.findById(jobId);
        return job?.status === 'completed' ? job : undefined;
      }, 15_000);
      expect(done).toMatchObject({ attempt: 1, reclaimCount: 1, leaseOwner: null });
      expect(survivor.runs.get(jobId)).toBe(1);
      // The dead host's engine never got to record anything.
      expect(doomed.runs).toEqual([jobId]);
      expect(second.logs().some((l) => l.msg === 'reclaimed review jobs whose lease ran out')).toBe(true);
      // The protocol tells why the attempt ran twice: whose lease ran out, when, and who took it back.
      const protocol = await (await second.admin()).get(`/jobs/${jobId}/protocol?eventCategory=operational`);
      const lost = (protocol.body as Array<{ label: string; attempt: number; events: unknown[] }>).filter(
        (pass) => pass.label === 'Lease lost',
      );
      expect(lost).toMatchObject([
        {
          attempt: 1,
          events: [
            {
              name: 'job.leaseLost',
              eventCategory: 'operational',
              body: {
                lostBy: first.worker.owner,
                reclaimedBy: second.worker.owner,
                attempt: 1,
                reclaim: 1,
                outcome: 'requeued',
              },
            },
          ],
        },
      ]);
      const [event] = (lost[0]?.events ?? []) as Array<{ body: { leaseExpiredAt: string; reclaimedAt: string } }>;
      expect(Date.parse(event?.body.reclaimedAt ?? '')).toBeGreaterThan(Date.parse(event?.body.leaseExpiredAt ?? ''));
    } finally {
      await second.close();
      await first.close();
    }
    // Two host starts and a lease running out: more than the default 5 s on a loaded machine.
  }, 30_000);

  it('gives running jobs back to the queue on a graceful stop, so the next host starts them at once', async () => {
    const env = { WORKER_POLL_INTERVAL_MILLISECONDS: '20', WORKER_LEASE_SECONDS: '60' };
    const engine = new ControlledEngine();
    const first = await startTestHost({ reviewEngine: engine, env });
    const { admin, clientId } = await commercialClient(first);
    const jobId = (await admin.post(`/clients/${clientId}/reviewing/jobs`, submission(2))).body.jobId as string;
    await engine.started(jobId);
    await first.stop();
    const survivor = new CountingEngine();
    const second = await startTestHost({
      reviewEngine: survivor,
      env,
      reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
    });
    try {
      // Well within the 60 s lease: the job was released, not left to expire.
      await eventually(async () => (await second.storage.reviewJobs.findById(jobId))?.status === 'completed', 5_000);
      expect(survivor.runs.get(jobId)).toBe(1);
      expect((await second.storage.reviewJobs.findById(jobId))?.reclaimCount).toBe(0);
    } finally {
      await second.close();
      await first.close();
    }
  }, 30_000);
});

describe.runIf(testDialects().includes('postgres'))('several hosts on one PostgreSQL database', () => {
  const env = {
    WORKER_POLL_INTERVAL_MILLISECONDS: '10',
    WORKER_LEASE_SECONDS: '30',
    WORKER_MAX_CONCURRENT_REVIEW_JOBS: '4',
  };

  it('drain 200 queued jobs between them, each exactly once', async () => {
    const runs = new Map<string, number>();
    const shared = new CountingEngine(runs);
    const seed = await startTestHost({ dialect: 'postgres', env: { ...env, WORKER_ENABLED: 'false' } });
    const { clientId } = await commercialClient(seed);
    await seed.stop(); // queue first, drain after, so both hosts compete for the whole queue
    const reuse = { dataDir: seed.dataDir, databaseUrl: seed.databaseUrl };
    const filler = await startTestHost({
      dialect: 'postgres',
      reuse,
      env: { ...env, WORKER_ENABLED: 'false' },
    });
    const fillerAdmin = await filler.login('admin', 'admin-password-for-tests');
    const ids: string[] = [];
    for (let n = 1; n <= 200; n++) {
      const res = await fillerAdmin.post(`/clients/${clientId}/reviewing/jobs`, submission(1000 + n));
      expect(res.status).toBe(202);
      ids.push(res.body.jobId);
    }
    await filler.stop();

    const hostA = await startTestHost({
      dialect: 'postgres',
      reuse,
      reviewEngine: new CountingEngine(runs, 2, shared),
      env,
    });
    const hostB = await startTestHost({
      dialect: 'postgres',
      reuse,
      reviewEngine: new CountingEngine(runs, 2, shared),
      env,
    });
    try {
      await eventually(async () => {
        const rows = await hostA.storage.knex('review_jobs').where({ status: 'completed' }).count({ n: '*' }).first();
        return Number(rows?.n) === 200;
      }, 60_000);
      expect(ids.every((id) => runs.get(id) === 1)).toBe(true);
      expect([...runs.values()].reduce((a, b) => a + b, 0)).toBe(200);
      const byOwner = hostA.logs().filter((l) => l.msg === 'review finished').length;
      const byOwnerB = hostB.logs().filter((l) => l.msg === 'review finished').length;
      expect(byOwner + byOwnerB).toBe(200);
      expect(byOwner).toBeGreaterThan(0);
      expect(byOwnerB).toBeGreaterThan(0);
    } finally {
      await hostA.close();
      await hostB.close();
      await seed.close();
    }
  }, 120_000);

  it('in Community never run two reviews at once, whichever host claims', async () => {
    const runs = new Map<string, number>();
    const shared = new CountingEngine(runs);
    const seed = await startTestHost({
      dialect: 'postgres',
      env: { ...env, WORKER_ENABLED: 'false' },
    });
    const { admin, clientId } = await commercialClient(seed);
    for (let n = 1; n <= 12; n++)
      expect((await admin.post(`/clients/${clientId}/reviewing/jobs`, submission(2000 + n))).status).toBe(202);
    await admin.patch('/admin/licensing', { edition: 'Community' });
    await seed.stop();
    const reuse = { dataDir: seed.dataDir, databaseUrl: seed.databaseUrl };

    const hosts = await Promise.all(
      [0, 1, 2].map(() =>
        startTestHost({ dialect: 'postgres', reuse, reviewEngine: new CountingEngine(runs, 15, shared), env }),
      ),
    );
    try {
      await eventually(async () => runs.size === 12 && shared.running === 0, 60_000);
      expect(shared.maxRunning).toBe(1);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
    } finally {
      for (const h of hosts) await h.close();
      await seed.close();
    }
  }, 120_000);
});
