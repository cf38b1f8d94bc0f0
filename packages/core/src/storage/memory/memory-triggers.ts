import { decodeCursor, MarginError, type PageRequest, toPage } from '../../kernel/index.js';
import type { KnowledgeSourcesRepository } from '../../knowledge/index.js';
import type {
  CrawlConfigurationRecord,
  CrawlConfigurationsRepository,
  TriggerConfigurationBase,
  TriggerListFilter,
  WebhookConfigurationsRepository,
  WebhookDeliveriesRepository,
  WebhookDeliveryRecord,
} from '../../triggers/index.js';
import { duplicateOf } from '../../triggers/index.js';
import { memoryConversations } from './memory-conversations.js';
import { deleteIndexOf } from './memory-knowledge.js';
import { copy, type MemoryState, pageByCreatedAt } from './memory-state.js';

function visible(state: MemoryState, filter: TriggerListFilter) {
  return (c: TriggerConfigurationBase) => {
    if (filter.clientId !== undefined && c.clientId !== filter.clientId) return false;
    const client = state.clients.get(c.clientId);
    if (!client) return false;
    if (filter.withinTenants && !filter.withinTenants.includes(client.tenantId)) return false;
    if (filter.visibility) {
      const { clientIds, tenantIds } = filter.visibility;
      if (!clientIds.includes(client.id) && !tenantIds.includes(client.tenantId)) return false;
    }
    return true;
  };
}

const atCoordinates = (clientId: string, scopePath: string, projectKey: string) => (c: TriggerConfigurationBase) =>
  c.clientId === clientId && c.providerScopePath === scopePath && c.providerProjectKey === projectKey;

/** The reads and the update webhook and crawl configurations have in common. */
function configurationTable<T extends TriggerConfigurationBase>(state: () => MemoryState, rows: () => Map<string, T>) {
  return {
    async findById(id: string) {
      const c = rows().get(id);
      return c && copy(c);
    },
    async list(filter: TriggerListFilter, page: PageRequest) {
      const mine = [...rows().values()].filter(visible(state(), filter));
      const items = pageByCreatedAt(mine, decodeCursor(page.cursor), page.limit);
      return toPage(items, page.limit, (c) => ({ key: c.createdAt, id: c.id }));
    },
    async findByCoordinates(clientId: string, scopePath: string, projectKey: string) {
      return [...rows().values()]
        .filter(atCoordinates(clientId, scopePath, projectKey))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .map(copy);
    },
    async update(id: string, patch: Partial<T>) {
      const c = rows().get(id);
      if (!c) return undefined;
      const next = { ...c, ...copy(patch) };
      rows().set(id, next);
      return copy(next);
    },
  };
}

export function memoryWebhookConfigurations(state: () => MemoryState): WebhookConfigurationsRepository {
  const rows = () => state().webhookConfigurations;
  return {
    async insert(configuration) {
      if (rows().has(configuration.id) || [...rows().values()].some((c) => c.pathKey === configuration.pathKey)) {
        throw MarginError.conflict('A webhook configuration with this path key exists.');
      }
      rows().set(configuration.id, copy(configuration));
    },
    ...configurationTable(state, rows),
    async findByPathKey(pathKey) {
      const c = [...rows().values()].find((r) => r.pathKey === pathKey);
      return c && copy(c);
    },
    async delete(id) {
      if (!rows().delete(id)) return false;
      // As the database's foreign key does: the history goes with the configuration.
      for (const [deliveryId, d] of state().webhookDeliveries) {
        if (d.configurationId === id) state().webhookDeliveries.delete(deliveryId);
      }
      return true;
    },
  };
}

const newestFirst = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
  b.receivedAt.localeCompare(a.receivedAt) || b.id.localeCompare(a.id);

export function memoryWebhookDeliveries(state: () => MemoryState): WebhookDeliveriesRepository {
  const rows = () => state().webhookDeliveries;
  const conversations = memoryConversations(state);
  const recordOne = ({ conversation, ...delivery }: WebhookDeliveryRecord): 'recorded' | 'duplicate' => {
    if (rows().has(delivery.id)) throw MarginError.conflict('This delivery is already recorded.');
    if (!state().webhookConfigurations.has(delivery.configurationId)) {
      throw MarginError.notFound('Webhook configuration not found.');
    }
    // Same write as the delivery; a comment the client already has adds nothing (its unique key).
    if (conversation) void conversations.insertIfAbsent(conversation);
    const accepted = delivery.outcome === 'accepted' && delivery.idempotencyKey !== null;
    const taken =
      accepted &&
      [...rows().values()].some(
        (d) =>
          d.configurationId === delivery.configurationId &&
          d.idempotencyKey === delivery.idempotencyKey &&
          d.processingState !== null,
      );
    if (!taken) {
      rows().set(delivery.id, copy(delivery));
      return 'recorded';
    }
    rows().set(delivery.id, copy(duplicateOf(delivery)));
    return 'duplicate';
  };
  return {
    async record(delivery) {
      return recordOne(delivery);
    },
    async recordMany(deliveries) {
      // Checked first, so a refused batch leaves nothing behind (the memory storage has no rollback here).
      for (const d of deliveries) {
        if (rows().has(d.id)) throw MarginError.conflict('This delivery is already recorded.');
        if (!state().webhookConfigurations.has(d.configurationId)) {
          throw MarginError.notFound('Webhook configuration not found.');
        }
      }
      return deliveries.map(recordOne);
    },
    async findById(id) {
      const d = rows().get(id);
      return d && copy(d);
    },
    async listForConfiguration(configurationId, take) {
      return [...rows().values()]
        .filter((d) => d.configurationId === configurationId)
        .sort(newestFirst)
        .slice(0, take)
        .map(copy);
    },
    async claimPending({ owner, now, leaseMs, limit }) {
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      const due = [...rows().values()]
        .filter(
          (d) =>
            (d.processingState === 'pending' || d.processingState === 'processing') &&
            d.processAfter !== null &&
            d.processAfter <= now,
        )
        .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.id.localeCompare(b.id))
        .slice(0, limit);
      return due.map((d) => {
        const next: WebhookDeliveryRecord = {
          ...d,
          processingState: 'processing',
          processAfter: leaseUntil,
          leaseOwner: owner,
          attempts: d.attempts + 1,
        };
        rows().set(d.id, next);
        return copy(next);
      });
    },
    async deleteReceivedBefore(before, limit) {
      const old = [...rows().values()]
        .filter((d) => d.receivedAt < before && d.processingState !== 'pending' && d.processingState !== 'processing')
        .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))
        .slice(0, limit);
      for (const d of old) rows().delete(d.id);
      return old.length;
    },
    async finishProcessing(id, owner, result) {
      const d = rows().get(id);
      if (d?.processingState !== 'processing' || d.leaseOwner !== owner) return false;
      rows().set(id, {
        ...d,
        outcome: result.outcome,
        actions: [...result.actions],
        failureReason: result.failureReason,
        processingState: result.processingState,
        processAfter: result.processAfter,
        leaseOwner: null,
        attempts: result.refundAttempt ? d.attempts - 1 : d.attempts,
      });
      return true;
    },
  };
}

export function memoryCrawlConfigurations(state: () => MemoryState): CrawlConfigurationsRepository {
  // Configurations of a deactivated client, or of a deactivated tenant's, stay idle.
  const clientServes = (clientId: string) => {
    const client = state().clients.get(clientId);
    return client?.isActive === true && state().tenants.get(client.tenantId)?.isActive === true;
  };
  const rows = () => state().crawlConfigurations;
  const leasedBy = (c: CrawlConfigurationRecord, owner: string) => c.leaseOwner === owner;
  return {
    async insert(configuration) {
      if (rows().has(configuration.id)) throw MarginError.conflict('This crawl configuration exists.');
      rows().set(configuration.id, copy(configuration));
    },
    ...configurationTable(state, rows),
    async delete(id) {
      return rows().delete(id);
    },
    async claimDue({ owner, now, leaseMs, limit }) {
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      const due = [...rows().values()]
        .filter(
          (c) =>
            c.isActive &&
            clientServes(c.clientId) &&
            c.nextCrawlAt <= now &&
            (c.leaseExpiresAt === null || c.leaseExpiresAt < now),
        )
        .sort((a, b) => a.nextCrawlAt.localeCompare(b.nextCrawlAt) || a.id.localeCompare(b.id))
        .slice(0, limit);
      return due.map((c) => {
        const next = { ...c, leaseOwner: owner, leaseExpiresAt: leaseUntil };
        rows().set(c.id, next);
        return copy(next);
      });
    },
    async finishCrawl(id, owner, finish) {
      const c = rows().get(id);
      if (!c || !leasedBy(c, owner)) return false;
      rows().set(id, {
        ...c,
        lastCrawledAt: finish.at,
        nextCrawlAt: finish.nextCrawlAt,
        lastCrawlOutcome: finish.outcome,
        lastCrawlError: finish.error,
        lastCrawlCounts: finish.counts && { ...finish.counts },
        leaseOwner: null,
        leaseExpiresAt: null,
      });
      return true;
    },
  };
}

export function memoryKnowledgeSources(state: () => MemoryState): KnowledgeSourcesRepository {
  const rows = () => state().knowledgeSources;
  return {
    async insert(source) {
      const same = [...rows().values()].some(
        (s) =>
          s.clientId === source.clientId &&
          s.sourceKind === source.sourceKind &&
          s.organizationScopeId === source.organizationScopeId &&
          s.canonicalSourceRef.value.toLowerCase() === source.canonicalSourceRef.value.toLowerCase(),
      );
      if (rows().has(source.id) || same) {
        throw MarginError.conflict('This client already has a knowledge source for this repository.');
      }
      rows().set(source.id, copy(source));
    },
    async findById(id) {
      const s = rows().get(id);
      return s && copy(s);
    },
    async update(source) {
      if (rows().has(source.id)) rows().set(source.id, copy(source));
    },
    async delete(id) {
      deleteIndexOf(state(), id);
      return rows().delete(id);
    },
    async listForClient(clientId, page) {
      const mine = [...rows().values()].filter((s) => s.clientId === clientId);
      const items = pageByCreatedAt(mine, decodeCursor(page.cursor), page.limit);
      return toPage(items, page.limit, (s) => ({ key: s.createdAt, id: s.id }));
    },
    async listForRepository(clientId, repositoryId) {
      const key = repositoryId.toLowerCase();
      return [...rows().values()]
        .filter((s) => s.clientId === clientId && s.canonicalSourceRef.value.toLowerCase() === key)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },
    async findMissing(clientId, ids) {
      return ids.filter((id) => rows().get(id)?.clientId !== clientId);
    },
  };
}
