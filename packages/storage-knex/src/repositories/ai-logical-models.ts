import {
  AI_PURPOSES,
  type AiLogicalModelsRepository,
  type AiPurpose,
  type LogicalModelRecord,
  MarginError,
  type PurposeMappingRecord,
} from '@margin/core/spec';
import { readTime } from '../dialect.js';
import { conflictOnDuplicate, type Db, lower, type Row } from '../rows.js';

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

/** The columns an update may change: everything but the id, the owner and the creation time. */
const definitionRow = (m: LogicalModelRecord): Row => ({
  name: m.name,
  name_key: lower(m.name),
  capability: m.capability,
  connection_id: m.connectionId,
  configured_model_id: m.configuredModelId,
  reasoning_effort: m.reasoningEffort,
  protocol_mode: m.protocolMode,
  updated_at: m.updatedAt,
});

const byPurposeOrder = (a: PurposeMappingRecord, b: PurposeMappingRecord) =>
  AI_PURPOSES.indexOf(a.purpose) - AI_PURPOSES.indexOf(b.purpose);

export function knexAiLogicalModels(db: Db): AiLogicalModelsRepository {
  const table = () => db('ai_logical_models');
  return {
    async insert(m) {
      await conflictOnDuplicate(
        table().insert({
          id: m.id,
          owner_kind: m.ownerKind,
          owner_id: m.ownerId,
          ...definitionRow(m),
          created_at: m.createdAt,
        }),
        () => MarginError.conflict(`A logical model named ${m.name} already exists.`),
      );
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
      await table().where({ id: m.id }).update(definitionRow(m));
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
