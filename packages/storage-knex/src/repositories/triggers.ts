import {
  type CrawlConfigurationRecord,
  type CrawlConfigurationsRepository,
  type CrawlCounts,
  type CrawlOutcome,
  type DeliveryOutcome,
  decodeCursor,
  duplicateOf,
  type KnowledgeScopeMode,
  type KnowledgeSourceRecord,
  type KnowledgeSourcesRepository,
  MarginError,
  type PageRequest,
  type ProcessingState,
  type ProviderFamily,
  type TriggerConfigurationBase,
  type TriggerListFilter,
  toPage,
  type WebhookConfigurationRecord,
  type WebhookConfigurationsRepository,
  type WebhookDeliveriesRepository,
  type WebhookDeliveryRecord,
  type WebhookEventKind,
} from '@margin/core';
import type { Knex } from 'knex';
import {
  type Dialect,
  isUniqueViolation,
  readBool,
  readJson,
  readTime,
  readTimeOrNull,
  writeJson,
} from '../dialect.js';

type Db = Knex | Knex.Transaction;
type Row = Record<string, unknown>;

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** Keyset paging on (created_at, id), oldest first. */
function pageQuery(query: Knex.QueryBuilder, page: PageRequest, prefix: string): Knex.QueryBuilder {
  const after = decodeCursor(page.cursor);
  query.orderBy([{ column: `${prefix}created_at` }, { column: `${prefix}id` }]).limit(page.limit + 1);
  if (after) {
    query.where((q) =>
      q
        .where(`${prefix}created_at`, '>', after.key)
        .orWhere((q2) => q2.where(`${prefix}created_at`, after.key).andWhere(`${prefix}id`, '>', after.id)),
    );
  }
  return query;
}

/** The configurations a listing may show: joined to their clients for the tenant and visibility rules. */
function visibleQuery(db: Db, table: string, filter: TriggerListFilter, page: PageRequest): Knex.QueryBuilder {
  const query = db(`${table} as t`).select('t.*');
  if (filter.clientId !== undefined) query.where('t.client_id', filter.clientId);
  if (filter.withinTenants || filter.visibility) {
    query.join('clients as c', 'c.id', 't.client_id');
    if (filter.withinTenants) query.whereIn('c.tenant_id', [...filter.withinTenants]);
    if (filter.visibility) {
      const { clientIds, tenantIds } = filter.visibility;
      query.where((q) => q.whereIn('c.id', [...clientIds]).orWhereIn('c.tenant_id', [...tenantIds]));
    }
  }
  return pageQuery(query, page, 't.');
}

function baseFromRow(row: Row, dialect: Dialect) {
  return {
    id: String(row.id),
    clientId: String(row.client_id),
    provider: String(row.provider) as ProviderFamily,
    organizationScopeId: String(row.organization_scope_id),
    providerScopePath: String(row.provider_scope_path),
    providerProjectKey: String(row.provider_project_key),
    reviewTemperature: numberOrNull(row.review_temperature),
    repoFilters: readJson<WebhookConfigurationRecord['repoFilters']>(row.repo_filters, dialect),
    knowledgeSourceScopeMode: String(row.knowledge_source_scope_mode) as KnowledgeScopeMode,
    knowledgeSourceIds: readJson<string[]>(row.knowledge_source_ids, dialect),
    isActive: readBool(row.is_active),
    createdAt: readTime(row.created_at),
    updatedAt: readTime(row.updated_at),
  };
}

function baseToRow(c: Omit<WebhookConfigurationRecord, 'pathKey' | 'sealedSecret' | 'enabledEvents'>): Row {
  return {
    id: c.id,
    client_id: c.clientId,
    provider: c.provider,
    organization_scope_id: c.organizationScopeId,
    provider_scope_path: c.providerScopePath,
    provider_project_key: c.providerProjectKey,
    review_temperature: c.reviewTemperature,
    repo_filters: writeJson(c.repoFilters),
    knowledge_source_scope_mode: c.knowledgeSourceScopeMode,
    knowledge_source_ids: writeJson(c.knowledgeSourceIds),
    is_active: c.isActive,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

const PATCH_COLUMNS: Record<string, { column: string; json?: boolean }> = {
  isActive: { column: 'is_active' },
  reviewTemperature: { column: 'review_temperature' },
  enabledEvents: { column: 'enabled_events', json: true },
  repoFilters: { column: 'repo_filters', json: true },
  knowledgeSourceScopeMode: { column: 'knowledge_source_scope_mode' },
  knowledgeSourceIds: { column: 'knowledge_source_ids', json: true },
  crawlIntervalSeconds: { column: 'crawl_interval_seconds' },
  nextCrawlAt: { column: 'next_crawl_at' },
  updatedAt: { column: 'updated_at' },
};

function patchToRow(patch: Record<string, unknown>): Row {
  const row: Row = {};
  for (const [field, value] of Object.entries(patch)) {
    const target = PATCH_COLUMNS[field];
    if (!target || value === undefined) continue;
    row[target.column] = target.json ? writeJson(value) : value;
  }
  return row;
}

function rowsOf(result: unknown, dialect: Dialect): Row[] {
  return (dialect === 'postgres' ? (result as { rows: Row[] }).rows : result) as Row[];
}

const webhookFromRow = (row: Row, dialect: Dialect): WebhookConfigurationRecord => ({
  ...baseFromRow(row, dialect),
  pathKey: String(row.path_key),
  sealedSecret: String(row.sealed_secret),
  enabledEvents: readJson<WebhookEventKind[]>(row.enabled_events, dialect),
});

/** The reads, update and delete webhook and crawl configurations have in common. */
function configurationTable<T extends TriggerConfigurationBase>(db: Db, tableName: string, fromRow: (row: Row) => T) {
  const table = () => db(tableName);
  const read = (row: Row | undefined) => (row ? fromRow(row) : undefined);
  return {
    async findById(id: string) {
      return read(await table().where({ id }).first());
    },
    async list(filter: TriggerListFilter, page: PageRequest) {
      const rows = ((await visibleQuery(db, tableName, filter, page)) as Row[]).map(fromRow);
      return toPage(rows, page.limit, (c) => ({ key: c.createdAt, id: c.id }));
    },
    async findByCoordinates(clientId: string, scopePath: string, projectKey: string) {
      const rows = await table()
        .where({ client_id: clientId, provider_scope_path: scopePath, provider_project_key: projectKey })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return (rows as Row[]).map(fromRow);
    },
    async update(id: string, patch: Record<string, unknown>) {
      const row = patchToRow(patch);
      if (Object.keys(row).length > 0) await table().where({ id }).update(row);
      return read(await table().where({ id }).first());
    },
    async delete(id: string) {
      return (await table().where({ id }).delete()) > 0;
    },
  };
}

export function knexWebhookConfigurations(db: Db, dialect: Dialect): WebhookConfigurationsRepository {
  const table = () => db('webhook_configurations');
  const read = (row: Row | undefined) => (row ? webhookFromRow(row, dialect) : undefined);
  return {
    async insert(c) {
      try {
        await table().insert({
          ...baseToRow(c),
          path_key: c.pathKey,
          sealed_secret: c.sealedSecret,
          enabled_events: writeJson(c.enabledEvents),
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw MarginError.conflict('A webhook configuration with this path key exists.');
        throw error;
      }
    },
    ...configurationTable(db, 'webhook_configurations', (row) => webhookFromRow(row, dialect)),
    async findByPathKey(pathKey) {
      // Raw SQL: the receiver's lookup runs on every delivery that misses the cache.
      const result = await db.raw('select * from webhook_configurations where path_key = ?', [pathKey]);
      return read(rowsOf(result, dialect)[0]);
    },
  };
}

const deliveryFromRow = (row: Row, dialect: Dialect): WebhookDeliveryRecord => ({
  id: String(row.id),
  configurationId: String(row.configuration_id),
  clientId: String(row.client_id),
  receivedAt: readTime(row.received_at),
  eventType: textOrNull(row.event_type),
  eventKind: textOrNull(row.event_kind) as WebhookEventKind | null,
  idempotencyKey: textOrNull(row.idempotency_key),
  outcome: String(row.outcome) as DeliveryOutcome,
  httpStatus: Number(row.http_status),
  repositoryId: textOrNull(row.repository_id),
  pullRequestId: numberOrNull(row.pull_request_id),
  sourceBranch: textOrNull(row.source_branch),
  targetBranch: textOrNull(row.target_branch),
  headSha: textOrNull(row.head_sha),
  actions: readJson<string[]>(row.actions, dialect),
  failureReason: textOrNull(row.failure_reason),
  processingState: textOrNull(row.processing_state) as ProcessingState | null,
  processAfter: readTimeOrNull(row.process_after),
  leaseOwner: textOrNull(row.lease_owner),
  attempts: Number(row.attempts),
});

const DELIVERY_COLUMNS = [
  'id',
  'configuration_id',
  'client_id',
  'received_at',
  'event_type',
  'event_kind',
  'idempotency_key',
  'dedupe_key',
  'outcome',
  'http_status',
  'repository_id',
  'pull_request_id',
  'source_branch',
  'target_branch',
  'head_sha',
  'actions',
  'failure_reason',
  'processing_state',
  'process_after',
  'lease_owner',
  'attempts',
] as const;

function deliveryValues(d: WebhookDeliveryRecord): Knex.RawBinding[] {
  const row: Record<(typeof DELIVERY_COLUMNS)[number], Knex.RawBinding> = {
    id: d.id,
    configuration_id: d.configurationId,
    client_id: d.clientId,
    received_at: d.receivedAt,
    event_type: d.eventType,
    event_kind: d.eventKind,
    idempotency_key: d.idempotencyKey,
    dedupe_key: d.processingState !== null ? d.idempotencyKey : null,
    outcome: d.outcome,
    http_status: d.httpStatus,
    repository_id: d.repositoryId,
    pull_request_id: d.pullRequestId,
    source_branch: d.sourceBranch,
    target_branch: d.targetBranch,
    head_sha: d.headSha,
    actions: writeJson(d.actions),
    failure_reason: d.failureReason,
    processing_state: d.processingState,
    process_after: d.processAfter,
    lease_owner: d.leaseOwner,
    attempts: d.attempts,
  };
  return DELIVERY_COLUMNS.map((column) => row[column]);
}

// One prepared statement for the receiver's write: `on conflict ... do nothing` on the partial
// unique index lets the database say whether this delivery id was already accepted, without an
// error (which would abort a PostgreSQL transaction) and without a read before the write.
const INSERT_DELIVERY = `insert into webhook_deliveries (${DELIVERY_COLUMNS.join(', ')}) values (${DELIVERY_COLUMNS.map(
  () => '?',
).join(', ')}) on conflict (configuration_id, dedupe_key) where dedupe_key is not null do nothing`;

export function knexWebhookDeliveries(db: Db, dialect: Dialect): WebhookDeliveriesRepository {
  const table = () => db('webhook_deliveries');
  const insert = async (on: Db, d: WebhookDeliveryRecord): Promise<boolean> => {
    const result = await on.raw(`${INSERT_DELIVERY} returning id`, deliveryValues(d));
    return rowsOf(result, dialect).length === 1;
  };
  const recordOn = async (on: Db, delivery: WebhookDeliveryRecord): Promise<'recorded' | 'duplicate'> => {
    if (await insert(on, delivery)) return 'recorded';
    await insert(on, duplicateOf(delivery));
    return 'duplicate';
  };
  return {
    async record(delivery) {
      return recordOn(db, delivery);
    },
    async recordMany(deliveries) {
      const all = async (on: Db) => {
        const out: Array<'recorded' | 'duplicate'> = [];
        for (const d of deliveries) out.push(await recordOn(on, d));
        return out;
      };
      // Already inside a transaction: its commit covers these rows.
      if ('isTransaction' in db && db.isTransaction) return all(db);
      return (db as Knex).transaction(all);
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row ? deliveryFromRow(row, dialect) : undefined;
    },
    async listForConfiguration(configurationId, take) {
      const rows = await table()
        .where({ configuration_id: configurationId })
        .orderBy([
          { column: 'received_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(take);
      return rows.map((r: Row) => deliveryFromRow(r, dialect));
    },
    async claimPending({ owner, now, leaseMs, limit }) {
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      const pick = `select id from webhook_deliveries
        where processing_state in ('pending', 'processing') and process_after <= ?
        order by process_after, received_at, id limit ?`;
      const set = `set processing_state = 'processing', process_after = ?, lease_owner = ?, attempts = attempts + 1`;
      let rows: Row[];
      if (dialect === 'postgres') {
        // As for review jobs: a materialized CTE picks the rows once, and SKIP LOCKED lets hosts
        // claiming at once pass each other's rows.
        const result = await db.raw(
          `with candidates as materialized (${pick} for update skip locked)
           update webhook_deliveries ${set} from candidates
           where webhook_deliveries.id = candidates.id returning webhook_deliveries.*`,
          [now, limit, leaseUntil, owner],
        );
        rows = result.rows;
      } else {
        rows = await db.raw(`update webhook_deliveries ${set} where id in (${pick}) returning *`, [
          leaseUntil,
          owner,
          now,
          limit,
        ]);
      }
      return rows
        .map((r) => deliveryFromRow(r, dialect))
        .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.id.localeCompare(b.id));
    },
    async deleteReceivedBefore(before, limit) {
      // Oldest first through webhook_deliveries_received, in bounded batches so a long backlog never
      // holds one long write lock.
      const old = db('webhook_deliveries')
        .select('id')
        .where('received_at', '<', before)
        .where((q) => q.whereNull('processing_state').orWhere('processing_state', 'done'))
        .orderBy('received_at')
        .limit(limit);
      return table().whereIn('id', old).delete();
    },
    async finishProcessing(id, owner, result) {
      const n = await table()
        .where({ id, lease_owner: owner, processing_state: 'processing' })
        .update({
          outcome: result.outcome,
          actions: writeJson(result.actions),
          failure_reason: result.failureReason,
          processing_state: result.processingState,
          process_after: result.processAfter,
          lease_owner: null,
          ...(result.refundAttempt ? { attempts: db.raw('attempts - 1') } : {}),
        });
      return n === 1;
    },
  };
}

const crawlFromRow = (row: Row, dialect: Dialect): CrawlConfigurationRecord => ({
  ...baseFromRow(row, dialect),
  crawlIntervalSeconds: Number(row.crawl_interval_seconds),
  nextCrawlAt: readTime(row.next_crawl_at),
  lastCrawledAt: readTimeOrNull(row.last_crawled_at),
  lastCrawlOutcome: textOrNull(row.last_crawl_outcome) as CrawlOutcome | null,
  lastCrawlError: textOrNull(row.last_crawl_error),
  lastCrawlCounts: row.last_crawl_counts == null ? null : readJson<CrawlCounts>(row.last_crawl_counts, dialect),
  leaseOwner: textOrNull(row.lease_owner),
  leaseExpiresAt: readTimeOrNull(row.lease_expires_at),
});

export function knexCrawlConfigurations(db: Db, dialect: Dialect): CrawlConfigurationsRepository {
  const table = () => db('crawl_configurations');
  return {
    async insert(c) {
      await table().insert({
        ...baseToRow(c),
        crawl_interval_seconds: c.crawlIntervalSeconds,
        next_crawl_at: c.nextCrawlAt,
        last_crawled_at: c.lastCrawledAt,
        last_crawl_outcome: c.lastCrawlOutcome,
        last_crawl_error: c.lastCrawlError,
        last_crawl_counts: c.lastCrawlCounts === null ? null : writeJson(c.lastCrawlCounts),
        lease_owner: c.leaseOwner,
        lease_expires_at: c.leaseExpiresAt,
      });
    },
    ...configurationTable(db, 'crawl_configurations', (row) => crawlFromRow(row, dialect)),
    async claimDue({ owner, now, leaseMs, limit }) {
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      // Configurations of a deactivated client stay idle until it is activated again.
      const pick = `select id from crawl_configurations
        where is_active = ? and next_crawl_at <= ? and (lease_expires_at is null or lease_expires_at < ?)
          and exists (select 1 from clients c where c.id = crawl_configurations.client_id and c.is_active = ?)
        order by next_crawl_at, id limit ?`;
      const active = dialect === 'postgres' ? true : 1;
      let rows: Row[];
      if (dialect === 'postgres') {
        const result = await db.raw(
          `with candidates as materialized (${pick} for update skip locked)
           update crawl_configurations set lease_owner = ?, lease_expires_at = ? from candidates
           where crawl_configurations.id = candidates.id returning crawl_configurations.*`,
          [active, now, now, active, limit, owner, leaseUntil],
        );
        rows = result.rows;
      } else {
        rows = await db.raw(
          `update crawl_configurations set lease_owner = ?, lease_expires_at = ? where id in (${pick}) returning *`,
          [owner, leaseUntil, active, now, now, active, limit],
        );
      }
      return rows
        .map((r) => crawlFromRow(r, dialect))
        .sort((a, b) => a.nextCrawlAt.localeCompare(b.nextCrawlAt) || a.id.localeCompare(b.id));
    },
    async finishCrawl(id, owner, finish) {
      const n = await table()
        .where({ id, lease_owner: owner })
        .update({
          last_crawled_at: finish.at,
          next_crawl_at: finish.nextCrawlAt,
          last_crawl_outcome: finish.outcome,
          last_crawl_error: finish.error,
          last_crawl_counts: finish.counts === null ? null : writeJson(finish.counts),
          lease_owner: null,
          lease_expires_at: null,
        });
      return n === 1;
    },
  };
}

const sourceFromRow = (row: Row, dialect: Dialect): KnowledgeSourceRecord => ({
  id: String(row.id),
  clientId: String(row.client_id),
  displayName: String(row.display_name),
  sourceKind: String(row.source_kind) as KnowledgeSourceRecord['sourceKind'],
  organizationScopeId: String(row.organization_scope_id),
  providerProjectKey: String(row.provider_project_key),
  canonicalSourceRef: { provider: String(row.source_provider) as ProviderFamily, value: String(row.source_value) },
  sourceDisplayName: String(row.source_display_name),
  defaultBranch: String(row.default_branch),
  rootPath: String(row.root_path),
  symbolMode: String(row.symbol_mode) as KnowledgeSourceRecord['symbolMode'],
  trackedBranches: readJson<KnowledgeSourceRecord['trackedBranches']>(row.tracked_branches, dialect),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

export function knexKnowledgeSources(db: Db, dialect: Dialect): KnowledgeSourcesRepository {
  const table = () => db('knowledge_sources');
  return {
    async insert(s) {
      try {
        await table().insert({
          id: s.id,
          client_id: s.clientId,
          display_name: s.displayName,
          source_kind: s.sourceKind,
          organization_scope_id: s.organizationScopeId,
          provider_project_key: s.providerProjectKey,
          source_provider: s.canonicalSourceRef.provider,
          source_value: s.canonicalSourceRef.value,
          source_key: s.canonicalSourceRef.value.toLowerCase(),
          source_display_name: s.sourceDisplayName,
          default_branch: s.defaultBranch,
          root_path: s.rootPath,
          symbol_mode: s.symbolMode,
          tracked_branches: writeJson(s.trackedBranches),
          created_at: s.createdAt,
          updated_at: s.updatedAt,
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw MarginError.conflict('This client already has a knowledge source for this repository.');
        }
        throw error;
      }
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row ? sourceFromRow(row, dialect) : undefined;
    },
    async listForClient(clientId, page) {
      const rows = (await pageQuery(table().where({ client_id: clientId }), page, '')).map((r: Row) =>
        sourceFromRow(r, dialect),
      );
      return toPage(rows, page.limit, (s) => ({ key: s.createdAt, id: s.id }));
    },
    async findMissing(clientId, ids) {
      if (ids.length === 0) return [];
      const found = new Set(
        (
          await table()
            .where({ client_id: clientId })
            .whereIn('id', [...ids])
            .select('id')
        ).map((r: Row) => String(r.id)),
      );
      return ids.filter((id) => !found.has(id));
    },
  };
}
