import {
  type KnowledgeSourceRecord,
  type KnowledgeSourcesRepository,
  MarginError,
  type ProviderFamily,
} from '@margin/core/spec';
import { type Dialect, readJson, readTime, writeJson } from '../dialect.js';
import { byCreatedAt, keysetPage } from '../paging.js';
import { conflictOnDuplicate, type Db, lower, type Row } from '../rows.js';

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
      await conflictOnDuplicate(
        table().insert({
          id: s.id,
          client_id: s.clientId,
          display_name: s.displayName,
          source_kind: s.sourceKind,
          organization_scope_id: s.organizationScopeId,
          provider_project_key: s.providerProjectKey,
          source_provider: s.canonicalSourceRef.provider,
          source_value: s.canonicalSourceRef.value,
          source_key: lower(s.canonicalSourceRef.value),
          source_display_name: s.sourceDisplayName,
          default_branch: s.defaultBranch,
          root_path: s.rootPath,
          symbol_mode: s.symbolMode,
          tracked_branches: writeJson(s.trackedBranches),
          created_at: s.createdAt,
          updated_at: s.updatedAt,
        }),
        () => MarginError.conflict('This client already has a knowledge source for this repository.'),
      );
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row ? sourceFromRow(row, dialect) : undefined;
    },
    async update(s) {
      await table()
        .where({ id: s.id })
        .update({
          display_name: s.displayName,
          root_path: s.rootPath,
          symbol_mode: s.symbolMode,
          tracked_branches: writeJson(s.trackedBranches),
          updated_at: s.updatedAt,
        });
    },
    async delete(id) {
      // Chunks first: on SQLite each deleted chunk also leaves the full-text index (trigger), which a
      // cascade would do one row at a time all the same; explicit is easier to read.
      await db('knowledge_index_chunks').where({ source_id: id }).delete();
      return (await table().where({ id }).delete()) > 0;
    },
    async listForClient(clientId, page) {
      return keysetPage(table().where({ client_id: clientId }), byCreatedAt(), page, (row) =>
        sourceFromRow(row, dialect),
      );
    },
    async listForRepository(clientId, repositoryId) {
      const rows = await table()
        .where({ client_id: clientId, source_key: lower(repositoryId) })
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]);
      return rows.map((row: Row) => sourceFromRow(row, dialect));
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
