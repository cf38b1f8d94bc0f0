import { describe, expect, it } from 'vitest';
import { MarginError } from '../../kernel/index.js';
import type {
  CrawlConfigurationRecord,
  WebhookConfigurationRecord,
  WebhookDeliveryRecord,
} from '../../triggers/index.js';
import { client, knowledgeSource, LATER, NOW, type StorageGetter, tenant, uuid } from './fixtures.js';

const T = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();

function base(clientId: string, createdAt = NOW) {
  return {
    id: uuid(),
    clientId,
    provider: 'gitHostA' as const,
    organizationScopeId: uuid(),
    providerScopePath: 'https://github.com/acme',
    providerProjectKey: 'acme',
    reviewTemperature: 0.3,
    repoFilters: [
      {
        repositoryName: 'uploader',
        displayName: 'Uploader',
        canonicalSourceRef: { provider: 'gitHostA' as const, value: '987654321' },
        targetBranchPatterns: ['main', 'release/*'],
      },
    ],
    knowledgeSourceScopeMode: 'selectedSources' as const,
    knowledgeSourceIds: ['k1', 'k2'],
    isActive: true,
    createdAt,
    updatedAt: createdAt,
  };
}

function webhook(clientId: string, overrides: Partial<WebhookConfigurationRecord> = {}): WebhookConfigurationRecord {
  const b = base(clientId, overrides.createdAt);
  return {
    ...b,
    pathKey: b.id.replace(/-/g, '').slice(0, 32),
    sealedSecret: 'v1:c2VhbGVk',
    enabledEvents: ['pullRequestCreated', 'pullRequestUpdated'],
    ...overrides,
  };
}

function crawl(clientId: string, overrides: Partial<CrawlConfigurationRecord> = {}): CrawlConfigurationRecord {
  return {
    ...base(clientId, overrides.createdAt),
    crawlIntervalSeconds: 60,
    nextCrawlAt: NOW,
    lastCrawledAt: null,
    lastCrawlOutcome: null,
    lastCrawlError: null,
    lastCrawlCounts: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    ...overrides,
  };
}

function delivery(config: WebhookConfigurationRecord, overrides: Partial<WebhookDeliveryRecord> = {}) {
  const accepted = (overrides.outcome ?? 'accepted') === 'accepted';
  const record: WebhookDeliveryRecord = {
    id: uuid(),
    configurationId: config.id,
    clientId: config.clientId,
    receivedAt: NOW,
    eventType: 'pull_request.opened',
    eventKind: 'pullRequestCreated',
    idempotencyKey: uuid(),
    outcome: 'accepted',
    httpStatus: 200,
    repositoryId: '987654321',
    pullRequestId: 42,
    sourceBranch: 'feature/retries',
    targetBranch: 'main',
    headSha: '1'.repeat(40),
    actions: [],
    failureReason: null,
    processingState: accepted ? 'pending' : null,
    processAfter: accepted ? (overrides.receivedAt ?? NOW) : null,
    leaseOwner: null,
    attempts: 0,
    ...overrides,
  };
  return record;
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return MarginError.isInstance(error) ? error.code : String(error);
}

export function triggersStorageContract(storage: StorageGetter): void {
  const newClient = async (overrides: Parameters<typeof client>[0] = {}) => {
    const c = client(overrides);
    await storage().clients.insert(c);
    return c.id;
  };

  describe('webhook configurations', () => {
    it('round-trips a configuration and finds it by id and by path key', async () => {
      const config = webhook(await newClient());
      await storage().webhookConfigurations.insert(config);
      expect(await storage().webhookConfigurations.findById(config.id)).toEqual(config);
      expect(await storage().webhookConfigurations.findByPathKey(config.pathKey)).toEqual(config);
      expect(await storage().webhookConfigurations.findByPathKey('f'.repeat(32))).toBeUndefined();
    });

    it('refuses a second configuration with the same path key', async () => {
      const clientId = await newClient();
      const first = webhook(clientId);
      await storage().webhookConfigurations.insert(first);
      expect(await codeOf(storage().webhookConfigurations.insert(webhook(clientId, { pathKey: first.pathKey })))).toBe(
        'conflict',
      );
    });

    it('lists oldest first per client or by visibility, and pages with a cursor', async () => {
      await storage().tenants.insert(tenant({ id: '22222222-2222-4222-8222-222222222222', displayName: 'Other' }));
      const a = await newClient();
      const b = await newClient({ tenantId: '22222222-2222-4222-8222-222222222222' });
      const first = webhook(a, { createdAt: T(1) });
      const second = webhook(a, { createdAt: T(2) });
      const other = webhook(b, { createdAt: T(3) });
      for (const c of [second, other, first]) await storage().webhookConfigurations.insert(c);
      const ids = async (filter: Parameters<ReturnType<StorageGetter>['webhookConfigurations']['list']>[0]) =>
        (await storage().webhookConfigurations.list(filter, { limit: 50 })).items.map((c) => c.id);
      expect(await ids({ clientId: a })).toEqual([first.id, second.id]);
      expect(await ids({})).toEqual([first.id, second.id, other.id]);
      expect(await ids({ visibility: { clientIds: [b], tenantIds: [] } })).toEqual([other.id]);
      expect(await ids({ visibility: { clientIds: [], tenantIds: ['22222222-2222-4222-8222-222222222222'] } })).toEqual(
        [other.id],
      );
      expect(await ids({ withinTenants: ['11111111-1111-1111-1111-111111111111'] })).toEqual([first.id, second.id]);
      const page1 = await storage().webhookConfigurations.list({}, { limit: 2 });
      expect(page1.items.map((c) => c.id)).toEqual([first.id, second.id]);
      const page2 = await storage().webhookConfigurations.list({}, { limit: 2, cursor: page1.nextCursor });
      expect(page2).toEqual({ items: [other], nextCursor: null });
    });

    it('finds configurations by exact coordinates, active or not', async () => {
      const clientId = await newClient();
      const active = webhook(clientId, { createdAt: T(1) });
      const inactive = webhook(clientId, { createdAt: T(2), isActive: false });
      const elsewhere = webhook(clientId, { providerProjectKey: 'other' });
      for (const c of [active, inactive, elsewhere]) await storage().webhookConfigurations.insert(c);
      const found = await storage().webhookConfigurations.findByCoordinates(
        clientId,
        'https://github.com/acme',
        'acme',
      );
      expect(found.map((c) => c.id)).toEqual([active.id, inactive.id]);
      expect(
        await storage().webhookConfigurations.findByCoordinates(clientId, 'https://github.com/ACME', 'acme'),
      ).toEqual([]);
    });

    it('patches the given fields (an empty filter list included) and deletes with the history', async () => {
      const config = webhook(await newClient());
      await storage().webhookConfigurations.insert(config);
      await storage().webhookDeliveries.record(delivery(config));
      const updated = await storage().webhookConfigurations.update(config.id, {
        isActive: false,
        repoFilters: [],
        reviewTemperature: null,
        enabledEvents: ['pullRequestCommented'],
        updatedAt: LATER,
      });
      expect(updated).toEqual({
        ...config,
        isActive: false,
        repoFilters: [],
        reviewTemperature: null,
        enabledEvents: ['pullRequestCommented'],
        updatedAt: LATER,
      });
      expect(await storage().webhookConfigurations.update('missing', { isActive: true })).toBeUndefined();
      expect(await storage().webhookConfigurations.delete(config.id)).toBe(true);
      expect(await storage().webhookConfigurations.delete(config.id)).toBe(false);
      expect(await storage().webhookDeliveries.listForConfiguration(config.id, 50)).toEqual([]);
    });
  });

  describe('webhook deliveries', () => {
    const configured = async () => {
      const config = webhook(await newClient());
      await storage().webhookConfigurations.insert(config);
      return config;
    };

    it('records deliveries and lists them newest first, at most `take`', async () => {
      const config = await configured();
      const old = delivery(config, { receivedAt: T(1) });
      const rejected = delivery(config, {
        receivedAt: T(2),
        outcome: 'rejected',
        httpStatus: 401,
        idempotencyKey: null,
        eventType: null,
        eventKind: null,
        failureReason: 'bad signature',
      });
      const newest = delivery(config, { receivedAt: T(3), outcome: 'ignored', failureReason: 'not enabled' });
      for (const d of [old, rejected, newest]) expect(await storage().webhookDeliveries.record(d)).toBe('recorded');
      expect(await storage().webhookDeliveries.listForConfiguration(config.id, 50)).toEqual([newest, rejected, old]);
      expect(await storage().webhookDeliveries.listForConfiguration(config.id, 2)).toEqual([newest, rejected]);
      expect(await storage().webhookDeliveries.findById(old.id)).toEqual(old);
    });

    it('stores a second acceptance of the same delivery id as an ignored duplicate', async () => {
      const config = await configured();
      const other = await configured();
      const first = delivery(config, { idempotencyKey: 'delivery-1' });
      expect(await storage().webhookDeliveries.record(first)).toBe('recorded');
      const again = delivery(config, { idempotencyKey: 'delivery-1', receivedAt: T(5) });
      expect(await storage().webhookDeliveries.record(again)).toBe('duplicate');
      expect(await storage().webhookDeliveries.findById(again.id)).toMatchObject({
        outcome: 'ignored',
        processingState: null,
        failureReason: expect.stringContaining('Duplicate delivery'),
        actions: ['skipped: duplicate delivery'],
      });
      // Another configuration, or a delivery that was only ignored, does not hold the key.
      expect(await storage().webhookDeliveries.record(delivery(other, { idempotencyKey: 'delivery-1' }))).toBe(
        'recorded',
      );
      const ignored = delivery(config, { idempotencyKey: 'delivery-2', outcome: 'ignored' });
      expect(await storage().webhookDeliveries.record(ignored)).toBe('recorded');
      expect(await storage().webhookDeliveries.record(delivery(config, { idempotencyKey: 'delivery-2' }))).toBe(
        'recorded',
      );
    });

    it('accepts ten concurrent copies of one delivery exactly once', async () => {
      const config = await configured();
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          storage().webhookDeliveries.record(delivery(config, { idempotencyKey: 'same' })),
        ),
      );
      expect(results.filter((r) => r === 'recorded')).toHaveLength(1);
      expect(results.filter((r) => r === 'duplicate')).toHaveLength(9);
      const stored = await storage().webhookDeliveries.listForConfiguration(config.id, 50);
      expect(stored).toHaveLength(10);
      expect(stored.filter((d) => d.processingState === 'pending')).toHaveLength(1);
    });

    it('records a batch in one go, copies within the batch included, with the answers in order', async () => {
      const config = await configured();
      const earlier = delivery(config, { idempotencyKey: 'held' });
      await storage().webhookDeliveries.record(earlier);
      const batch = [
        delivery(config, { idempotencyKey: 'a' }),
        delivery(config, { idempotencyKey: 'a' }),
        delivery(config, { idempotencyKey: 'held' }),
        delivery(config, { idempotencyKey: 'b', outcome: 'rejected', httpStatus: 401 }),
        delivery(config, { idempotencyKey: 'b' }),
      ];
      expect(await storage().webhookDeliveries.recordMany(batch)).toEqual([
        'recorded',
        'duplicate',
        'duplicate',
        'recorded',
        'recorded',
      ]);
      expect(await storage().webhookDeliveries.recordMany([])).toEqual([]);
      const stored = await storage().webhookDeliveries.listForConfiguration(config.id, 50);
      expect(stored).toHaveLength(6);
      expect(stored.filter((d) => d.processingState === 'pending')).toHaveLength(3);
    });

    it('records all of a batch or none of it', async () => {
      const config = await configured();
      const clash = delivery(config);
      await storage().webhookDeliveries.record(clash);
      const batch = [delivery(config), { ...delivery(config), id: clash.id }];
      await expect(storage().webhookDeliveries.recordMany(batch)).rejects.toBeDefined();
      expect(await storage().webhookDeliveries.findById(batch[0]?.id ?? '')).toBeUndefined();
    });

    it('hands each pending delivery to one claimer, oldest first, and counts the attempt', async () => {
      const config = await configured();
      const deliveries = Array.from({ length: 8 }, (_, i) => delivery(config, { receivedAt: T(i) }));
      for (const d of deliveries) await storage().webhookDeliveries.record(d);
      await storage().webhookDeliveries.record(delivery(config, { outcome: 'ignored' }));
      const rounds = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          storage().webhookDeliveries.claimPending({ owner: `w${i}`, now: T(60), leaseMs: 30_000, limit: 3 }),
        ),
      );
      const claimed = rounds.flat();
      expect(claimed).toHaveLength(8);
      expect(new Set(claimed.map((d) => d.id)).size).toBe(8);
      for (const round of rounds) {
        const times = round.map((d) => d.receivedAt);
        expect(times).toEqual([...times].sort());
      }
      expect(claimed.every((d) => d.processingState === 'processing' && d.attempts === 1)).toBe(true);
      expect(claimed[0]?.processAfter).toBe(T(90));
      expect(
        await storage().webhookDeliveries.claimPending({ owner: 'late', now: T(61), leaseMs: 30_000, limit: 10 }),
      ).toEqual([]);
    });

    it('takes back a delivery whose lease ran out, and lets only the owner finish it', async () => {
      const config = await configured();
      const d = delivery(config);
      await storage().webhookDeliveries.record(d);
      const [mine] = await storage().webhookDeliveries.claimPending({
        owner: 'a',
        now: T(0),
        leaseMs: 10_000,
        limit: 1,
      });
      expect(mine?.leaseOwner).toBe('a');
      expect(
        await storage().webhookDeliveries.claimPending({ owner: 'b', now: T(9), leaseMs: 10_000, limit: 1 }),
      ).toEqual([]);
      const [taken] = await storage().webhookDeliveries.claimPending({
        owner: 'b',
        now: T(11),
        leaseMs: 10_000,
        limit: 1,
      });
      expect(taken).toMatchObject({ id: d.id, leaseOwner: 'b', attempts: 2 });
      const result = {
        outcome: 'accepted' as const,
        actions: ['jobQueued j-1'],
        failureReason: null,
        processingState: 'done' as const,
        processAfter: null,
      };
      expect(await storage().webhookDeliveries.finishProcessing(d.id, 'a', result)).toBe(false);
      expect(await storage().webhookDeliveries.finishProcessing(d.id, 'b', result)).toBe(true);
      expect(await storage().webhookDeliveries.findById(d.id)).toMatchObject({
        processingState: 'done',
        actions: ['jobQueued j-1'],
        leaseOwner: null,
      });
      expect(await storage().webhookDeliveries.claimPending({ owner: 'c', now: T(99), leaseMs: 1, limit: 1 })).toEqual(
        [],
      );
      // A finished delivery still holds its id against a later copy.
      expect(await storage().webhookDeliveries.record(delivery(config, { idempotencyKey: d.idempotencyKey }))).toBe(
        'duplicate',
      );
    });

    it('puts a retried delivery back for later', async () => {
      const config = await configured();
      const d = delivery(config);
      await storage().webhookDeliveries.record(d);
      await storage().webhookDeliveries.claimPending({ owner: 'a', now: T(0), leaseMs: 10_000, limit: 1 });
      await storage().webhookDeliveries.finishProcessing(d.id, 'a', {
        outcome: 'accepted',
        actions: ['retrying: provider down'],
        failureReason: null,
        processingState: 'pending',
        processAfter: T(30),
      });
      expect(await storage().webhookDeliveries.claimPending({ owner: 'b', now: T(29), leaseMs: 1, limit: 1 })).toEqual(
        [],
      );
      const [again] = await storage().webhookDeliveries.claimPending({ owner: 'b', now: T(30), leaseMs: 1, limit: 1 });
      expect(again).toMatchObject({ id: d.id, attempts: 2 });
    });

    it('deletes old history oldest first in bounded batches, keeping what waits for processing', async () => {
      const config = await configured();
      const at = (days: number) => new Date(Date.parse(NOW) - days * 86_400_000).toISOString();
      const oldest = delivery(config, { receivedAt: at(40), processingState: 'done' });
      const old = delivery(config, { receivedAt: at(35), outcome: 'rejected', httpStatus: 401 });
      const oldPending = delivery(config, { receivedAt: at(45) });
      const recent = delivery(config, { receivedAt: at(1), processingState: 'done' });
      for (const d of [oldest, old, oldPending, recent]) await storage().webhookDeliveries.record(d);

      expect(await storage().webhookDeliveries.deleteReceivedBefore(at(30), 1)).toBe(1);
      expect(await storage().webhookDeliveries.findById(oldest.id)).toBeUndefined();
      expect(await storage().webhookDeliveries.deleteReceivedBefore(at(30), 10)).toBe(1);
      expect(await storage().webhookDeliveries.deleteReceivedBefore(at(30), 10)).toBe(0);
      const left = (await storage().webhookDeliveries.listForConfiguration(config.id, 10)).map((d) => d.id);
      expect(left.sort()).toEqual([oldPending.id, recent.id].sort());
    });

    it('gives the attempt back when a try only waited', async () => {
      const config = await configured();
      const d = delivery(config);
      await storage().webhookDeliveries.record(d);
      for (const [owner, at] of [
        ['a', 0],
        ['b', 30],
        ['c', 60],
      ] as const) {
        const [taken] = await storage().webhookDeliveries.claimPending({
          owner,
          now: T(at),
          leaseMs: 10_000,
          limit: 1,
        });
        expect(taken).toMatchObject({ id: d.id, attempts: 1 });
        await storage().webhookDeliveries.finishProcessing(d.id, owner, {
          outcome: 'accepted',
          actions: ['waiting'],
          failureReason: null,
          processingState: 'pending',
          processAfter: T(at + 30),
          refundAttempt: true,
        });
      }
      expect(await storage().webhookDeliveries.findById(d.id)).toMatchObject({ attempts: 0, actions: ['waiting'] });
    });
  });

  describe('crawl configurations', () => {
    it('round-trips, lists, finds by coordinates, patches and deletes', async () => {
      const clientId = await newClient();
      const config = crawl(clientId);
      await storage().crawlConfigurations.insert(config);
      expect(await storage().crawlConfigurations.findById(config.id)).toEqual(config);
      expect((await storage().crawlConfigurations.list({ clientId }, { limit: 10 })).items).toEqual([config]);
      expect(
        (await storage().crawlConfigurations.findByCoordinates(clientId, 'https://github.com/acme', 'acme')).map(
          (c) => c.id,
        ),
      ).toEqual([config.id]);
      const updated = await storage().crawlConfigurations.update(config.id, {
        crawlIntervalSeconds: 15,
        nextCrawlAt: T(15),
        repoFilters: [],
        updatedAt: LATER,
      });
      expect(updated).toEqual({
        ...config,
        crawlIntervalSeconds: 15,
        nextCrawlAt: T(15),
        repoFilters: [],
        updatedAt: LATER,
      });
      expect(await storage().crawlConfigurations.delete(config.id)).toBe(true);
      expect(await storage().crawlConfigurations.findById(config.id)).toBeUndefined();
    });

    it('leases only due, active configurations, each to one of several concurrent claimers', async () => {
      const clientId = await newClient();
      const due = [crawl(clientId, { nextCrawlAt: T(0) }), crawl(clientId, { nextCrawlAt: T(5) })];
      const notYet = crawl(clientId, { nextCrawlAt: T(100) });
      const inactive = crawl(clientId, { isActive: false });
      for (const c of [...due, notYet, inactive]) await storage().crawlConfigurations.insert(c);
      const rounds = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          storage().crawlConfigurations.claimDue({ owner: `h${i}`, now: T(10), leaseMs: 60_000, limit: 5 }),
        ),
      );
      const claimed = rounds.flat();
      expect(claimed.map((c) => c.id).sort()).toEqual(due.map((c) => c.id).sort());
      expect(claimed.every((c) => c.leaseExpiresAt === T(70))).toBe(true);
      expect(
        await storage().crawlConfigurations.claimDue({ owner: 'x', now: T(20), leaseMs: 60_000, limit: 5 }),
      ).toEqual([]);
    });

    it('leaves the configurations of a deactivated client idle', async () => {
      const clientId = await newClient();
      const config = crawl(clientId, { nextCrawlAt: T(0) });
      await storage().crawlConfigurations.insert(config);
      await storage().clients.update(clientId, { isActive: false, updatedAt: LATER });
      expect(await storage().crawlConfigurations.claimDue({ owner: 'a', now: T(10), leaseMs: 1000, limit: 5 })).toEqual(
        [],
      );
      await storage().clients.update(clientId, { isActive: true, updatedAt: LATER });
      const claimed = await storage().crawlConfigurations.claimDue({ owner: 'a', now: T(10), leaseMs: 1000, limit: 5 });
      expect(claimed.map((c) => c.id)).toEqual([config.id]);
    });

    it('leaves the configurations of a deactivated tenant’s clients idle', async () => {
      const closed = tenant();
      await storage().tenants.insert(closed);
      const config = crawl(await newClient({ tenantId: closed.id }), { nextCrawlAt: T(0) });
      await storage().crawlConfigurations.insert(config);
      await storage().tenants.update(closed.id, { isActive: false, updatedAt: LATER });
      expect(await storage().crawlConfigurations.claimDue({ owner: 'a', now: T(10), leaseMs: 1000, limit: 5 })).toEqual(
        [],
      );
      await storage().tenants.update(closed.id, { isActive: true, updatedAt: LATER });
      const claimed = await storage().crawlConfigurations.claimDue({ owner: 'a', now: T(10), leaseMs: 1000, limit: 5 });
      expect(claimed.map((c) => c.id)).toEqual([config.id]);
    });

    it('schedules the next crawl on finish (owner only) and takes back an expired lease', async () => {
      const config = crawl(await newClient());
      await storage().crawlConfigurations.insert(config);
      await storage().crawlConfigurations.claimDue({ owner: 'a', now: T(0), leaseMs: 10_000, limit: 1 });
      const finish = {
        at: T(2),
        nextCrawlAt: T(62),
        outcome: 'succeeded' as const,
        error: null,
        counts: { pullRequestsSeen: 3, inScope: 2, queued: 2, skipped: 0 },
      };
      expect(await storage().crawlConfigurations.finishCrawl(config.id, 'b', finish)).toBe(false);
      expect(await storage().crawlConfigurations.finishCrawl(config.id, 'a', finish)).toBe(true);
      expect(await storage().crawlConfigurations.findById(config.id)).toMatchObject({
        lastCrawledAt: T(2),
        nextCrawlAt: T(62),
        lastCrawlOutcome: 'succeeded',
        lastCrawlCounts: finish.counts,
        leaseOwner: null,
        leaseExpiresAt: null,
      });
      expect(
        await storage().crawlConfigurations.claimDue({ owner: 'b', now: T(61), leaseMs: 10_000, limit: 1 }),
      ).toEqual([]);
      await storage().crawlConfigurations.claimDue({ owner: 'b', now: T(62), leaseMs: 10_000, limit: 1 });
      // b crashed: its lease runs out and c takes the configuration.
      expect(
        await storage().crawlConfigurations.claimDue({ owner: 'c', now: T(71), leaseMs: 10_000, limit: 1 }),
      ).toEqual([]);
      const [taken] = await storage().crawlConfigurations.claimDue({
        owner: 'c',
        now: T(73),
        leaseMs: 10_000,
        limit: 1,
      });
      expect(taken).toMatchObject({ id: config.id, leaseOwner: 'c' });
    });
  });

  describe('knowledge sources', () => {
    it('round-trips, lists a client’s sources oldest first and names unknown ids', async () => {
      const clientId = await newClient();
      const otherClient = await newClient();
      const first = knowledgeSource(clientId, { createdAt: T(1), updatedAt: T(1) });
      const second = knowledgeSource(clientId, {
        createdAt: T(2),
        updatedAt: T(2),
        sourceKind: 'adoWiki',
        symbolMode: 'textOnly',
      });
      const foreign = knowledgeSource(otherClient);
      for (const s of [second, foreign, first]) await storage().knowledgeSources.insert(s);
      expect(await storage().knowledgeSources.findById(first.id)).toEqual(first);
      expect(await storage().knowledgeSources.listForClient(clientId, { limit: 10 })).toEqual({
        items: [first, second],
        nextCursor: null,
      });
      expect(await storage().knowledgeSources.findMissing(clientId, [first.id, foreign.id, 'nope'])).toEqual([
        foreign.id,
        'nope',
      ]);
      expect(await storage().knowledgeSources.findMissing(clientId, [])).toEqual([]);
    });

    it('lists a client’s sources of one repository, whatever the case of its id', async () => {
      const clientId = await newClient();
      const otherClient = await newClient();
      const repo = { provider: 'gitHostA' as const, value: `Repo-${uuid().slice(-6)}` };
      const code = knowledgeSource(clientId, { canonicalSourceRef: repo, createdAt: T(1) });
      const wiki = knowledgeSource(clientId, { canonicalSourceRef: repo, sourceKind: 'adoWiki', createdAt: T(2) });
      const elsewhere = knowledgeSource(clientId);
      const foreign = knowledgeSource(otherClient, { canonicalSourceRef: repo });
      for (const s of [wiki, elsewhere, foreign, code]) await storage().knowledgeSources.insert(s);
      expect(await storage().knowledgeSources.listForRepository(clientId, repo.value.toLowerCase())).toEqual([
        code,
        wiki,
      ]);
      expect(await storage().knowledgeSources.listForRepository(clientId, 'no-such-repo')).toEqual([]);
    });

    it('refuses a second source of the same kind for the same repository and scope', async () => {
      const clientId = await newClient();
      const first = knowledgeSource(clientId);
      await storage().knowledgeSources.insert(first);
      const again = knowledgeSource(clientId, {
        canonicalSourceRef: { provider: 'gitHostA', value: first.canonicalSourceRef.value.toUpperCase() },
      });
      expect(await codeOf(storage().knowledgeSources.insert(again))).toBe('conflict');
      await storage().knowledgeSources.insert(
        knowledgeSource(clientId, { ...again, id: uuid(), sourceKind: 'adoWiki' }),
      );
    });
  });
}
