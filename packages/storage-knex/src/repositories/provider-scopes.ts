import {
  MarginError,
  type ProviderScopePatch,
  type ProviderScopeRecord,
  type ProviderScopesRepository,
  type ScopeType,
} from '@margin/core/spec';
import { readBool, readTime } from '../dialect.js';
import { byCreatedAt, inOrder, keysetPage } from '../paging.js';
import { columnsOf, conflictOnDuplicate, type Db, type Row, textOrNull, updateAndRead } from '../rows.js';
import { CONNECTION_FIELDS, connectionFromRow } from './provider-connections.js';

const duplicateScope = () => MarginError.conflict('This provider connection already has a scope with this path.');

const scopeFromRow = (row: Row, prefix = ''): ProviderScopeRecord => ({
  id: String(row[`${prefix}id`]),
  connectionId: String(row[`${prefix}connection_id`]),
  clientId: String(row[`${prefix}client_id`]),
  scopeType: String(row[`${prefix}scope_type`]) as ScopeType,
  externalScopeId: textOrNull(row[`${prefix}external_scope_id`]),
  scopePath: String(row[`${prefix}scope_path`]),
  scopePathKey: String(row[`${prefix}scope_path_key`]),
  displayName: String(row[`${prefix}display_name`]),
  isEnabled: readBool(row[`${prefix}is_enabled`]),
  createdAt: readTime(row[`${prefix}created_at`]),
  updatedAt: readTime(row[`${prefix}updated_at`]),
});

const SCOPE_COLUMNS: Record<keyof ProviderScopePatch, string> = {
  scopeType: 'scope_type',
  externalScopeId: 'external_scope_id',
  scopePath: 'scope_path',
  scopePathKey: 'scope_path_key',
  displayName: 'display_name',
  isEnabled: 'is_enabled',
  updatedAt: 'updated_at',
};

const SCOPE_FIELDS = Object.values(SCOPE_COLUMNS).concat(['id', 'connection_id', 'client_id', 'created_at']);

export function knexProviderScopes(db: Db): ProviderScopesRepository {
  const table = () => db('provider_scopes');
  return {
    async insert(s) {
      await conflictOnDuplicate(
        table().insert({
          id: s.id,
          connection_id: s.connectionId,
          client_id: s.clientId,
          scope_type: s.scopeType,
          external_scope_id: s.externalScopeId,
          scope_path: s.scopePath,
          scope_path_key: s.scopePathKey,
          display_name: s.displayName,
          is_enabled: s.isEnabled,
          created_at: s.createdAt,
          updated_at: s.updatedAt,
        }),
        duplicateScope,
      );
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && scopeFromRow(row);
    },
    async findWithConnection(scopeId) {
      // One round trip: discovery and the review worker start here.
      const row = await db('provider_scopes as s')
        .join('provider_connections as c', 'c.id', 's.connection_id')
        .where('s.id', scopeId)
        .first([...SCOPE_FIELDS.map((f) => `s.${f} as s_${f}`), ...CONNECTION_FIELDS.map((f) => `c.${f} as c_${f}`)]);
      return row && { scope: scopeFromRow(row, 's_'), connection: connectionFromRow(row, 'c_') };
    },
    async update(id, patch) {
      return updateAndRead(table, id, columnsOf(patch, SCOPE_COLUMNS), (row) => scopeFromRow(row), duplicateScope);
    },
    async delete(id) {
      return (await table().where({ id }).delete()) > 0;
    },
    async listForConnection(connectionId, page) {
      return keysetPage(table().where({ connection_id: connectionId }), byCreatedAt(), page, (row) =>
        scopeFromRow(row),
      );
    },
    async firstEnabled(connectionId) {
      const row = await inOrder(
        table().where({ connection_id: connectionId, is_enabled: true }),
        byCreatedAt(),
      ).first();
      return row && scopeFromRow(row);
    },
  };
}
