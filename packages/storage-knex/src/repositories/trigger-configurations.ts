// Not a repository: the columns and operations webhook and crawl configurations share.

import type {
  KnowledgeScopeMode,
  PageRequest,
  ProviderFamily,
  TriggerConfigurationBase,
  TriggerListFilter,
  WebhookConfigurationRecord,
} from '@margin/core/spec';
import type { Knex } from 'knex';
import { type Dialect, readBool, readJson, readTime, writeJson } from '../dialect.js';
import { byCreatedAt, inOrder, keysetPage } from '../paging.js';
import { columnsOf, type Db, numberOrNull, type PatchColumn, type Row, updateAndRead } from '../rows.js';

/** The configurations a listing may show: joined to their clients for the tenant and visibility rules. */
function visibleQuery(db: Db, table: string, filter: TriggerListFilter): Knex.QueryBuilder {
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
  return query;
}

export function baseFromRow(row: Row, dialect: Dialect) {
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

export function baseToRow(c: Omit<WebhookConfigurationRecord, 'pathKey' | 'sealedSecret' | 'enabledEvents'>): Row {
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

/** The fields a webhook or crawl configuration patch may set. */
const PATCH_COLUMNS: Record<string, PatchColumn> = {
  isActive: 'is_active',
  reviewTemperature: 'review_temperature',
  enabledEvents: { json: 'enabled_events' },
  repoFilters: { json: 'repo_filters' },
  knowledgeSourceScopeMode: 'knowledge_source_scope_mode',
  knowledgeSourceIds: { json: 'knowledge_source_ids' },
  crawlIntervalSeconds: 'crawl_interval_seconds',
  nextCrawlAt: 'next_crawl_at',
  updatedAt: 'updated_at',
};

/** The reads, update and delete webhook and crawl configurations have in common. */
export function configurationTable<T extends TriggerConfigurationBase>(
  db: Db,
  tableName: string,
  fromRow: (row: Row) => T,
) {
  const table = () => db(tableName);
  const read = (row: Row | undefined) => (row ? fromRow(row) : undefined);
  return {
    async findById(id: string) {
      return read(await table().where({ id }).first());
    },
    async list(filter: TriggerListFilter, page: PageRequest) {
      return keysetPage(visibleQuery(db, tableName, filter), byCreatedAt<T>('asc', 't.'), page, fromRow);
    },
    async findByCoordinates(clientId: string, scopePath: string, projectKey: string) {
      const rows = await inOrder(
        table().where({ client_id: clientId, provider_scope_path: scopePath, provider_project_key: projectKey }),
        byCreatedAt(),
      );
      return (rows as Row[]).map(fromRow);
    },
    async update(id: string, patch: Record<string, unknown>) {
      return updateAndRead(table, id, columnsOf(patch, PATCH_COLUMNS), fromRow);
    },
    async delete(id: string) {
      return (await table().where({ id }).delete()) > 0;
    },
  };
}
