import {
  type AiModelCatalogRepository,
  type CatalogModelRecord,
  MarginError,
  type PriceOverrideRecord,
} from '@margin/core/spec';
import { type Dialect, readTime } from '../dialect.js';
import { atomically, conflictOnDuplicate, type Db, lower, numberOrNull, type Row } from '../rows.js';
import { modelTraitsFromRow, modelTraitsRow } from './ai-model-traits.js';

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
      await conflictOnDuplicate(
        db('ai_catalog_models').insert({
          id: m.id,
          tenant_id: m.tenantId,
          provider_kind: m.providerKind,
          ...modelTraitsRow(m),
          created_at: m.createdAt,
        }),
        () => MarginError.conflict(`The tenant catalog already has ${m.remoteModelId} for ${m.providerKind}.`),
      );
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
