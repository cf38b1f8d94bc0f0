import {
  AI_PURPOSES,
  type AiConnectionRecord,
  type AiConnectionsRepository,
  type AiLogicalModelsRepository,
  type AiModelCatalogRepository,
  type AiPurpose,
  type CatalogModelRecord,
  type ConfiguredModelRecord,
  decodeCursor,
  type LogicalModelRecord,
  MarginError,
  type ModelTraits,
  type PriceOverrideRecord,
  type PurposeBindingRecord,
  type PurposeMappingRecord,
  toPage,
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

const lower = (s: string) => s.toLowerCase();
const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const textOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** Runs `fn` in the caller's transaction, or in one of its own: a profile is written in several statements. */
function atomically<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return (db as Knex.Transaction).isTransaction ? fn(db) : (db as Knex).transaction((trx) => fn(trx));
}

/** Rows per insert statement, well under SQLite's bound-variable limit. */
const CHUNK = 50;
async function insertRows(db: Db, table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await db(table).insert(rows.slice(i, i + CHUNK));
}

/** The columns a connection's configured models and a tenant's catalog models share. */
function modelTraitsFromRow(row: Row, dialect: Dialect): ModelTraits {
  return {
    remoteModelId: String(row.remote_model_id),
    displayName: String(row.display_name),
    operationKinds: readJson(row.operation_kinds, dialect),
    tokenizerName: textOrNull(row.tokenizer_name),
    maxInputTokens: numberOrNull(row.max_input_tokens),
    embeddingDimensions: numberOrNull(row.embedding_dimensions),
    supportsStructuredOutput: readBool(row.supports_structured_output),
    supportsToolUse: readBool(row.supports_tool_use),
    maxContextTokens: numberOrNull(row.max_context_tokens),
    inputCostPer1MUsd: numberOrNull(row.input_cost_per_1m_usd),
    outputCostPer1MUsd: numberOrNull(row.output_cost_per_1m_usd),
    cachedInputCostPer1MUsd: numberOrNull(row.cached_input_cost_per_1m_usd),
  };
}

const modelTraitsRow = (m: ModelTraits): Row => ({
  remote_model_id: m.remoteModelId,
  remote_model_key: lower(m.remoteModelId),
  display_name: m.displayName,
  operation_kinds: writeJson(m.operationKinds),
  tokenizer_name: m.tokenizerName,
  max_input_tokens: m.maxInputTokens,
  embedding_dimensions: m.embeddingDimensions,
  supports_structured_output: m.supportsStructuredOutput,
  supports_tool_use: m.supportsToolUse,
  max_context_tokens: m.maxContextTokens,
  input_cost_per_1m_usd: m.inputCostPer1MUsd,
  output_cost_per_1m_usd: m.outputCostPer1MUsd,
  cached_input_cost_per_1m_usd: m.cachedInputCostPer1MUsd,
});

function modelFromRow(row: Row, dialect: Dialect): ConfiguredModelRecord {
  return {
    id: String(row.id),
    ...modelTraitsFromRow(row, dialect),
    supportedProtocolModes: readJson(row.supported_protocol_modes, dialect),
    source: row.source as ConfiguredModelRecord['source'],
    lastSeenAt: readTimeOrNull(row.last_seen_at),
  };
}

const modelRow = (connectionId: string, m: ConfiguredModelRecord, position: number): Row => ({
  id: m.id,
  connection_id: connectionId,
  position,
  ...modelTraitsRow(m),
  supported_protocol_modes: writeJson(m.supportedProtocolModes),
  source: m.source,
  last_seen_at: m.lastSeenAt,
});

const bindingFromRow = (row: Row): PurposeBindingRecord => ({
  purpose: row.purpose as AiPurpose,
  configuredModelId: String(row.configured_model_id),
  protocolMode: row.protocol_mode as PurposeBindingRecord['protocolMode'],
  isEnabled: readBool(row.is_enabled),
});

const connectionRow = (c: AiConnectionRecord): Row => ({
  id: c.id,
  client_id: c.clientId,
  display_name: c.displayName,
  display_name_key: lower(c.displayName),
  provider_kind: c.providerKind,
  base_url: c.baseUrl,
  auth_mode: c.authMode,
  api_key_sealed: c.sealedApiKey,
  discovery_mode: c.discoveryMode,
  default_headers: writeJson(c.defaultHeaders),
  default_query_params: writeJson(c.defaultQueryParams),
  is_active: c.isActive,
  revision: c.revision,
  verification_status: c.verification.status,
  verification_failure_category: c.verification.failureCategory,
  verification_summary: c.verification.summary,
  verification_checked_at: c.verification.checkedAt,
  verification_warnings: writeJson(c.verification.warnings),
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

export function knexAiConnections(db: Db, dialect: Dialect): AiConnectionsRepository {
  const duplicateName = () => MarginError.conflict('This client already has an AI connection with that name.');
  const duplicateModel = () => MarginError.conflict('Two configured models of the connection share a remoteModelId.');

  /** Profiles with their models and bindings: three queries, whatever the number of profiles. */
  async function hydrate(rows: Row[]): Promise<AiConnectionRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => String(r.id));
    const [models, bindings] = await Promise.all([
      db('ai_configured_models').whereIn('connection_id', ids).orderBy(['connection_id', 'position']),
      db('ai_purpose_bindings').whereIn('connection_id', ids).orderBy(['connection_id', 'position']),
    ]);
    return rows.map((row) => {
      const id = String(row.id);
      return {
        id,
        clientId: String(row.client_id),
        displayName: String(row.display_name),
        providerKind: row.provider_kind as AiConnectionRecord['providerKind'],
        baseUrl: String(row.base_url),
        authMode: row.auth_mode as AiConnectionRecord['authMode'],
        sealedApiKey: textOrNull(row.api_key_sealed),
        discoveryMode: row.discovery_mode as AiConnectionRecord['discoveryMode'],
        defaultHeaders: readJson(row.default_headers, dialect),
        defaultQueryParams: readJson(row.default_query_params, dialect),
        configuredModels: models.filter((m: Row) => m.connection_id === id).map((m: Row) => modelFromRow(m, dialect)),
        purposeBindings: bindings.filter((b: Row) => b.connection_id === id).map(bindingFromRow),
        isActive: readBool(row.is_active),
        revision: Number(row.revision),
        verification: {
          status: row.verification_status as AiConnectionRecord['verification']['status'],
          failureCategory: (row.verification_failure_category ??
            null) as AiConnectionRecord['verification']['failureCategory'],
          summary: String(row.verification_summary),
          checkedAt: readTimeOrNull(row.verification_checked_at),
          warnings: readJson(row.verification_warnings, dialect),
        },
        createdAt: readTime(row.created_at),
        updatedAt: readTime(row.updated_at),
      };
    });
  }

  async function writeChildren(trx: Db, c: AiConnectionRecord): Promise<void> {
    await insertRows(
      trx,
      'ai_configured_models',
      c.configuredModels.map((m, i) => modelRow(c.id, m, i)),
    );
    await insertRows(
      trx,
      'ai_purpose_bindings',
      c.purposeBindings.map((b, i) => ({
        connection_id: c.id,
        purpose: b.purpose,
        configured_model_id: b.configuredModelId,
        protocol_mode: b.protocolMode,
        is_enabled: b.isEnabled,
        position: i,
      })),
    );
  }

  async function translateUnique<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const text = String((error as { message?: unknown; constraint?: unknown }).message ?? '');
      const constraint = String((error as { constraint?: unknown }).constraint ?? '');
      throw /remote_model_key|ai_configured_models/.test(`${text} ${constraint}`) ? duplicateModel() : duplicateName();
    }
  }

  return {
    async insert(c) {
      await translateUnique(
        atomically(db, async (trx) => {
          await trx('ai_connections').insert(connectionRow(c));
          await writeChildren(trx, c);
        }),
      );
    },
    async findById(id) {
      const row = await db('ai_connections').where({ id }).first();
      return row ? (await hydrate([row]))[0] : undefined;
    },
    async listByClient(clientId, page) {
      const after = decodeCursor(page.cursor);
      const query = db('ai_connections')
        .where({ client_id: clientId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(page.limit + 1);
      if (after) {
        query.where((q) =>
          q
            .where('created_at', '>', after.key)
            .orWhere((q2) => q2.where('created_at', after.key).andWhere('id', '>', after.id)),
        );
      }
      const items = await hydrate(await query);
      return toPage(items, page.limit, (c) => ({ key: c.createdAt, id: c.id }));
    },
    async update(c) {
      await translateUnique(
        atomically(db, async (trx) => {
          const { id: _id, created_at: _created, ...row } = connectionRow(c);
          const n = await trx('ai_connections').where({ id: c.id }).update(row);
          if (n === 0) return;
          // Bindings reference models, so they go first and come back last.
          await trx('ai_purpose_bindings').where({ connection_id: c.id }).delete();
          await trx('ai_configured_models').where({ connection_id: c.id }).delete();
          await writeChildren(trx, c);
        }),
      );
    },
    async recordVerification(id, revision, v, at) {
      const n = await db('ai_connections')
        .where({ id, revision })
        .update({
          verification_status: v.status,
          verification_failure_category: v.failureCategory,
          verification_summary: v.summary,
          verification_checked_at: v.checkedAt,
          verification_warnings: writeJson(v.warnings),
          updated_at: at,
        });
      return n === 1;
    },
    async setActive(id, isActive, at) {
      await db('ai_connections').where({ id }).update({ is_active: isActive, updated_at: at });
    },
    async delete(id) {
      return atomically(db, async (trx) => {
        // Explicit, so the outcome does not depend on SQLite's foreign_keys pragma.
        await trx('ai_purpose_bindings').where({ connection_id: id }).delete();
        await trx('ai_configured_models').where({ connection_id: id }).delete();
        return (await trx('ai_connections').where({ id }).delete()) > 0;
      });
    },
    async findActiveBinding(clientId, purpose) {
      const row = await db('ai_purpose_bindings as b')
        .join('ai_connections as c', 'c.id', 'b.connection_id')
        .where({ 'c.client_id': clientId, 'c.is_active': true, 'b.purpose': purpose, 'b.is_enabled': true })
        .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }])
        .first('b.*');
      return row ? { connectionId: String(row.connection_id), binding: bindingFromRow(row) } : undefined;
    },
  };
}

const logicalFromRow = (row: Row): LogicalModelRecord => ({
  id: String(row.id),
  ownerKind: row.owner_kind as LogicalModelRecord['ownerKind'],
  ownerId: String(row.owner_id),
  name: String(row.name),
  capability: row.capability as LogicalModelRecord['capability'],
  connectionId: String(row.connection_id),
  configuredModelId: String(row.configured_model_id),
  reasoningEffort: row.reasoning_effort as LogicalModelRecord['reasoningEffort'],
  protocolMode: row.protocol_mode as LogicalModelRecord['protocolMode'],
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

const mappingFromRow = (row: Row): PurposeMappingRecord => ({
  clientId: String(row.client_id),
  purpose: row.purpose as AiPurpose,
  logicalModelName: String(row.logical_model_name),
  updatedAt: readTime(row.updated_at),
});

const byPurposeOrder = (a: PurposeMappingRecord, b: PurposeMappingRecord) =>
  AI_PURPOSES.indexOf(a.purpose) - AI_PURPOSES.indexOf(b.purpose);

export function knexAiLogicalModels(db: Db): AiLogicalModelsRepository {
  const table = () => db('ai_logical_models');
  return {
    async insert(m) {
      try {
        await table().insert({
          id: m.id,
          owner_kind: m.ownerKind,
          owner_id: m.ownerId,
          name: m.name,
          name_key: lower(m.name),
          capability: m.capability,
          connection_id: m.connectionId,
          configured_model_id: m.configuredModelId,
          reasoning_effort: m.reasoningEffort,
          protocol_mode: m.protocolMode,
          created_at: m.createdAt,
          updated_at: m.updatedAt,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw MarginError.conflict(`A logical model named ${m.name} already exists.`);
        throw error;
      }
    },
    async find(ownerKind, ownerId, name) {
      const row = await table()
        .where({ owner_kind: ownerKind, owner_id: ownerId, name_key: lower(name) })
        .first();
      return row && logicalFromRow(row);
    },
    async list(ownerKind, ownerId) {
      return (await table().where({ owner_kind: ownerKind, owner_id: ownerId }).orderBy('name_key')).map(
        logicalFromRow,
      );
    },
    async update(m) {
      await table()
        .where({ id: m.id })
        .update({
          name: m.name,
          name_key: lower(m.name),
          capability: m.capability,
          connection_id: m.connectionId,
          configured_model_id: m.configuredModelId,
          reasoning_effort: m.reasoningEffort,
          protocol_mode: m.protocolMode,
          updated_at: m.updatedAt,
        });
    },
    async delete(ownerKind, ownerId, name) {
      return (
        (await table()
          .where({ owner_kind: ownerKind, owner_id: ownerId, name_key: lower(name) })
          .delete()) > 0
      );
    },
    async listByConnection(connectionId) {
      return (await table().where({ connection_id: connectionId }).orderBy('name_key')).map(logicalFromRow);
    },
    async putPurpose(m) {
      await db('ai_purpose_mappings')
        .insert({
          client_id: m.clientId,
          purpose: m.purpose,
          logical_model_name: m.logicalModelName,
          logical_model_name_key: lower(m.logicalModelName),
          updated_at: m.updatedAt,
        })
        .onConflict(['client_id', 'purpose'])
        .merge(['logical_model_name', 'logical_model_name_key', 'updated_at']);
    },
    async findPurpose(clientId, purpose) {
      const row = await db('ai_purpose_mappings').where({ client_id: clientId, purpose }).first();
      return row && mappingFromRow(row);
    },
    async listPurposes(clientId) {
      return (await db('ai_purpose_mappings').where({ client_id: clientId })).map(mappingFromRow).sort(byPurposeOrder);
    },
    async deletePurpose(clientId, purpose) {
      return (await db('ai_purpose_mappings').where({ client_id: clientId, purpose }).delete()) > 0;
    },
    async listTenantNameMappings(tenantId, name) {
      const key = lower(name);
      const rows = await db('ai_purpose_mappings as m')
        .join('clients as c', 'c.id', 'm.client_id')
        .where({ 'c.tenant_id': tenantId, 'm.logical_model_name_key': key })
        .whereNotExists((q) =>
          q
            .select(db.raw('1'))
            .from('ai_logical_models as l')
            .where('l.owner_kind', 'client')
            .whereRaw('l.owner_id = m.client_id')
            .andWhere('l.name_key', key),
        )
        .orderBy('m.client_id')
        .select('m.*');
      return rows.map(mappingFromRow).sort((a, b) => a.clientId.localeCompare(b.clientId) || byPurposeOrder(a, b));
    },
  };
}

function catalogModelFromRow(row: Row, dialect: Dialect): CatalogModelRecord {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    providerKind: row.provider_kind as CatalogModelRecord['providerKind'],
    ...modelTraitsFromRow(row, dialect),
    createdAt: readTime(row.created_at),
  };
}

const overrideFromRow = (row: Row): PriceOverrideRecord => ({
  id: String(row.id),
  tenantId: String(row.tenant_id),
  providerKind: row.provider_kind as PriceOverrideRecord['providerKind'],
  remoteModelId: String(row.remote_model_id),
  inputCostPer1MUsd: numberOrNull(row.input_cost_per_1m_usd),
  outputCostPer1MUsd: numberOrNull(row.output_cost_per_1m_usd),
  cachedInputCostPer1MUsd: numberOrNull(row.cached_input_cost_per_1m_usd),
  updatedAt: readTime(row.updated_at),
});

export function knexAiModelCatalog(db: Db, dialect: Dialect): AiModelCatalogRepository {
  const ordered = ['provider_kind', 'remote_model_key'];
  return {
    async insertModel(m) {
      try {
        await db('ai_catalog_models').insert({
          id: m.id,
          tenant_id: m.tenantId,
          provider_kind: m.providerKind,
          ...modelTraitsRow(m),
          created_at: m.createdAt,
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw MarginError.conflict(`The tenant catalog already has ${m.remoteModelId} for ${m.providerKind}.`);
        }
        throw error;
      }
    },
    async listModels(tenantId) {
      return (await db('ai_catalog_models').where({ tenant_id: tenantId }).orderBy(ordered)).map((r: Row) =>
        catalogModelFromRow(r, dialect),
      );
    },
    async deleteModel(tenantId, id) {
      return (await db('ai_catalog_models').where({ tenant_id: tenantId, id }).delete()) > 0;
    },
    async putPriceOverride(o) {
      return atomically(db, async (trx) => {
        const key = { tenant_id: o.tenantId, provider_kind: o.providerKind, remote_model_key: lower(o.remoteModelId) };
        const prices = {
          remote_model_id: o.remoteModelId,
          input_cost_per_1m_usd: o.inputCostPer1MUsd,
          output_cost_per_1m_usd: o.outputCostPer1MUsd,
          cached_input_cost_per_1m_usd: o.cachedInputCostPer1MUsd,
          updated_at: o.updatedAt,
        };
        const existing = await trx('ai_price_overrides').where(key).first('id');
        if (existing) {
          await trx('ai_price_overrides').where({ id: existing.id }).update(prices);
          return { created: false, override: { ...o, id: String(existing.id) } };
        }
        await trx('ai_price_overrides').insert({ id: o.id, ...key, ...prices });
        return { created: true, override: { ...o } };
      });
    },
    async listPriceOverrides(tenantId) {
      return (await db('ai_price_overrides').where({ tenant_id: tenantId }).orderBy(ordered)).map(overrideFromRow);
    },
    async deletePriceOverride(tenantId, id) {
      return (await db('ai_price_overrides').where({ tenant_id: tenantId, id }).delete()) > 0;
    },
  };
}
