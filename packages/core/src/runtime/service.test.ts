import { describe, expect, it, vi } from 'vitest';
import { createAesGcmSecretBox, SYSTEM_TENANT_ID } from '../kernel/index.js';
import type { ReviewEngineV1, ReviewOutcome } from '../review-engine/index.js';
import type { ReviewJobRecord } from '../reviewing/index.js';
import { createMemoryStorage, type StorageV1 } from '../storage/index.js';
import { reviewJobRecord } from '../testing/index.js';
import type { MarginLogger } from './logger.js';
import { createMarginService, type MarginServiceOptions } from './service.js';

const JWT_SECRET = 'a-test-signing-secret-of-32-characters!';
const KEY = Buffer.alloc(32, 1);

/** Memory storage that remembers being closed. */
function storage(): StorageV1 & { closed: number } {
  const inner = createMemoryStorage();
  const wrapped = Object.assign(Object.create(inner) as StorageV1, inner, {
    closed: 0,
    close: async () => {
      wrapped.closed++;
    },
  });
  return wrapped;
}

function recordingLogger() {
  const lines: Array<{ level: string; message: string; fields: object }> = [];
  const at =
    (level: string) =>
    (fields: object, message: string): void => {
      lines.push({ level, message, fields });
    };
  const logger: MarginLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

/** An engine whose reviews end when the test says so (or their run is aborted). */
function heldEngine() {
  const started: string[] = [];
  const finish = new Map<string, (outcome: ReviewOutcome) => void>();
  const engine: ReviewEngineV1 = {
    specificationVersion: 'v1',
    review: (job, ctx) =>
      new Promise<ReviewOutcome>((resolve, reject) => {
        started.push(job.id);
        finish.set(job.id, resolve);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
      }),
  };
  const complete = (jobId: string) =>
    finish.get(jobId)?.({
      status: 'completed',
      result: { summary: 'Nothing to say.', findings: [], coverage: { files: [] } },
      usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, estimatedCostUsd: 0, byModel: [] },
    });
  return { engine, started, complete };
}

async function start(overrides: Partial<MarginServiceOptions> = {}) {
  const store = overrides.storage ?? storage();
  const { logger, lines } = recordingLogger();
  const service = await createMarginService({
    storage: store,
    secrets: createAesGcmSecretBox(KEY),
    auth: { jwtSecret: JWT_SECRET },
    logger,
    background: { worker: { pollIntervalMs: 20, leaseMs: 60_000 } },
    ...overrides,
  });
  return { service, storage: store as StorageV1 & { closed: number }, lines };
}

async function queueJob(store: StorageV1): Promise<ReviewJobRecord> {
  const clientId = '00000000-0000-4000-8000-00000000c11e';
  if (!(await store.clients.findById(clientId))) {
    const now = new Date().toISOString();
    await store.clients.insert({
      id: clientId,
      tenantId: SYSTEM_TENANT_ID,
      displayName: 'Runtime tests',
      isActive: true,
      createdAt: now,
      updatedAt: now,
    });
  }
  const job = reviewJobRecord(clientId);
  await store.reviewJobs.insert(job);
  return job;
}

describe('createMarginService', () => {
  it('refuses a secrets key other than the one the storage was written with, and closes the storage', async () => {
    const shared = storage();
    const first = await start({ storage: shared, background: false });
    await first.service.close();
    await expect(
      createMarginService({
        storage: shared,
        secrets: createAesGcmSecretBox(Buffer.alloc(32, 2)),
        auth: { jwtSecret: JWT_SECRET },
        background: false,
      }),
    ).rejects.toThrow(/secrets key does not match/);
    expect(shared.closed).toBe(2);
  });

  it('seeds the bootstrap administrator once, handing a generated password over and never logging it', async () => {
    const seeded: Array<{ status: string; generatedPassword?: string }> = [];
    const {
      service,
      storage: store,
      lines,
    } = await start({
      bootstrapAdmin: { username: 'root' },
      onBootstrapAdmin: (s) => seeded.push(s),
      background: false,
    });
    expect(seeded).toEqual([{ status: 'created', username: 'root', generatedPassword: expect.any(String) }]);
    expect(await store.users.findByUsername('root')).toMatchObject({ globalRole: 'platformAdmin' });
    expect(lines).toContainEqual(expect.objectContaining({ message: 'bootstrap platform admin seeded' }));
    expect(JSON.stringify(lines)).not.toContain(seeded[0]?.generatedPassword);
    await service.close();

    const again = await start({ storage: store, bootstrapAdmin: { username: 'root' }, background: false });
    expect(again.lines.map((l) => l.message)).not.toContain('bootstrap platform admin seeded');
    await again.service.close();
  });

  it('reports health from the database and each background part; `background: false` runs none of them', async () => {
    const { service } = await start({ background: false });
    expect(await service.health()).toEqual({
      status: 'ok',
      checks: {
        database: { status: 'ok' },
        worker: { status: 'ok', detail: 'disabled on this host' },
        webhookDeliveries: { status: 'ok', detail: 'disabled on this host' },
        crawler: { status: 'ok', detail: 'disabled on this host' },
        knowledgeIndexer: { status: 'ok', detail: 'disabled on this host' },
        conversations: { status: 'ok', detail: 'disabled on this host' },
      },
    });
    await service.close();
    expect((await service.health()).checks).toMatchObject({ worker: { status: 'ok' } });
  });

  it('runs queued reviews through its engine at once, and gives running ones back to the queue on close', async () => {
    const held = heldEngine();
    const { service, storage: store, lines } = await start({ reviewEngine: held.engine });
    expect((await service.health()).status).toBe('ok');

    const done = await queueJob(store);
    service.core.events.emit('job.queued', { jobId: done.id, clientId: done.clientId, trigger: 'api' });
    await vi.waitFor(() => expect(held.started).toContain(done.id));
    held.complete(done.id);
    await vi.waitFor(async () => expect((await store.reviewJobs.findById(done.id))?.status).toBe('completed'));
    expect(lines).toContainEqual(
      expect.objectContaining({ message: 'review finished', fields: expect.objectContaining({ jobId: done.id }) }),
    );

    const running = await queueJob(store);
    service.background.worker.wake();
    await vi.waitFor(() => expect(held.started).toContain(running.id));
    await service.close();
    expect(await store.reviewJobs.findById(running.id)).toMatchObject({ status: 'queued', leaseOwner: null });
    expect(store.closed).toBe(1);
    expect((await service.health()).checks.worker).toEqual({ status: 'unhealthy', detail: 'stopped' });
    await service.close(); // idempotent
    expect(store.closed).toBe(1);
  });

  it('stops dead on kill, as a crash would: the lease stays held until it expires', async () => {
    const held = heldEngine();
    const { service, storage: store } = await start({ reviewEngine: held.engine });
    const job = await queueJob(store);
    service.background.worker.wake();
    await vi.waitFor(() => expect(held.started).toContain(job.id));
    await service.kill();
    expect(await store.reviewJobs.findById(job.id)).toMatchObject({
      status: 'running',
      leaseOwner: service.background.worker.owner,
    });
    expect(store.closed).toBe(1);
  });

  it('reviews with Margin’s own engine unless given another', async () => {
    const { service, storage: store } = await start();
    const job = await queueJob(store);
    service.background.worker.wake();
    const failed = await vi.waitFor(async () => {
      const found = await store.reviewJobs.findById(job.id);
      expect(found?.status).toBe('failed');
      return found;
    });
    // The stock engine ran and asked for the pull request (a bare core has no engine at all).
    expect(failed?.error).toMatch(/no gitHostA provider connection/);
    await service.close();
  });

  it('leaves the background work to the host when asked, and takes settings one field at a time', async () => {
    const { service } = await start({ startBackground: false, background: { crawler: { pollIntervalMs: 60_000 } } });
    expect(service.settings.crawler).toEqual({ enabled: true, pollIntervalMs: 60_000, leaseMs: 300_000 });
    expect(service.settings.worker).toMatchObject({ enabled: true, pollIntervalMs: 2000, maxConcurrentJobs: 4 });
    expect((await service.health()).checks.worker).toEqual({ status: 'unhealthy', detail: 'stopped' });
    service.background.start();
    expect((await service.health()).checks.worker).toEqual({ status: 'ok' });
    await service.close();
  });
});
