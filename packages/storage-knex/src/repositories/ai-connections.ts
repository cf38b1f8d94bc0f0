import {
  type AiConnectionRecord,
  type AiConnectionsRepository,
  type AiPurpose,
  type ConfiguredModelRecord,
  MarginError,
  type PurposeBindingRecord,
} from '@margin/core/spec';
import { type Dialect, readBool, readJson, readTime, readTimeOrNull, writeJson } from '../dialect.js';
import { byCreatedAt, inOrder, keysetPageOfRows } from '../paging.js';
import { atomically, conflictOnDuplicate, type Db, insertInChunks, lower, type Row, textOrNull } from '../rows.js';
import { modelTraitsFromRow, modelTraitsRow } from './ai-model-traits.js';

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
  owner_tenant_id: c.ownerTenantId,
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
  const duplicateName = (c: AiConnectionRecord) =>
    MarginError.conflict(
      `This ${c.clientId === null ? 'tenant' : 'client'} already has an AI connection with that name.`,
    );
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
        clientId: textOrNull(row.client_id),
        ownerTenantId: textOrNull(row.owner_tenant_id),
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
          failureCategory: textOrNull(
            row.verification_failure_category,
          ) as AiConnectionRecord['verification']['failureCategory'],
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
    await insertInChunks(
      trx,
      'ai_configured_models',
      c.configuredModels.map((m, i) => modelRow(c.id, m, i)),
    );
    await insertInChunks(
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

  /** A profile's writes violate one of two unique constraints: its name, or a model's remote id. */
  const translateUnique = <T>(c: AiConnectionRecord, work: Promise<T>): Promise<T> =>
    conflictOnDuplicate(work, (error) => {
      const text = String((error as { message?: unknown }).message ?? '');
      const constraint = String((error as { constraint?: unknown }).constraint ?? '');
      return /remote_model_key|ai_configured_models/.test(`${text} ${constraint}`)
        ? duplicateModel()
        : duplicateName(c);
    });

  return {
    async insert(c) {
      await translateUnique(
        c,
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
      return keysetPageOfRows(db('ai_connections').where({ client_id: clientId }), byCreatedAt(), page, hydrate);
    },
    async listByTenant(tenantId, page) {
      return keysetPageOfRows(db('ai_connections').where({ owner_tenant_id: tenantId }), byCreatedAt(), page, hydrate);
    },
    async update(c) {
      await translateUnique(
        c,
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
      const enabled = db('ai_purpose_bindings as b')
        .join('ai_connections as c', 'c.id', 'b.connection_id')
        .where({ 'c.client_id': clientId, 'c.is_active': true, 'b.purpose': purpose, 'b.is_enabled': true });
      // The oldest active connection's binding wins.
      const row = await inOrder(enabled, byCreatedAt('asc', 'c.')).first('b.*');
      return row ? { connectionId: String(row.connection_id), binding: bindingFromRow(row) } : undefined;
    },
  };
}
