import {
  type ClientRecord,
  type ClientRole,
  type ClientsRepository,
  MarginError,
  type TenantRole,
} from '@margin/core/spec';
import { readBool, readTime } from '../dialect.js';
import { byCreatedAt, keysetPage } from '../paging.js';
import { columnsOf, conflictOnDuplicate, type Db, lower, type Row, updateAndRead } from '../rows.js';

const clientFromRow = (row: Row): ClientRecord => ({
  id: String(row.id),
  tenantId: String(row.tenant_id),
  displayName: String(row.display_name),
  isActive: readBool(row.is_active),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

type ClientPatch = Parameters<ClientsRepository['update']>[1];

const CLIENT_COLUMNS: Record<keyof ClientPatch, string> = {
  displayName: 'display_name',
  isActive: 'is_active',
  updatedAt: 'updated_at',
};

const duplicateName = () => MarginError.conflict('This tenant already has a client with that name.');

export function knexClients(db: Db): ClientsRepository {
  const table = () => db('clients');
  return {
    async insert(c) {
      await conflictOnDuplicate(
        table().insert({
          id: c.id,
          tenant_id: c.tenantId,
          display_name: c.displayName,
          display_name_key: lower(c.displayName),
          is_active: c.isActive,
          created_at: c.createdAt,
          updated_at: c.updatedAt,
        }),
        duplicateName,
      );
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && clientFromRow(row);
    },
    async findAccess(clientId, userId) {
      // One round trip for the check every client-scoped request makes.
      const row = await db('clients as c')
        .leftJoin('client_members as cm', (j) => j.on('cm.client_id', 'c.id').andOnVal('cm.user_id', userId))
        .leftJoin('tenant_members as tm', (j) => j.on('tm.tenant_id', 'c.tenant_id').andOnVal('tm.user_id', userId))
        .join('tenants as t', 't.id', 'c.tenant_id')
        .where('c.id', clientId)
        .first('c.*', 't.is_active as tenant_is_active', 'cm.role as client_role', 'tm.role as tenant_role');
      if (!row) return undefined;
      return {
        client: clientFromRow(row),
        tenantIsActive: readBool(row.tenant_is_active),
        clientRole: (row.client_role as ClientRole | null) ?? undefined,
        tenantRole: (row.tenant_role as TenantRole | null) ?? undefined,
      };
    },
    async update(id, patch) {
      const row = columnsOf(patch, CLIENT_COLUMNS);
      if (patch.displayName !== undefined) row.display_name_key = lower(patch.displayName);
      return updateAndRead(table, id, row, clientFromRow, duplicateName);
    },
    async list(filter, page) {
      const query = table();
      if (filter.withinTenants) query.whereIn('tenant_id', [...filter.withinTenants]);
      if (filter.visibility) {
        const { clientIds, tenantIds } = filter.visibility;
        query.where((q) => q.whereIn('id', [...clientIds]).orWhereIn('tenant_id', [...tenantIds]));
      }
      return keysetPage(query, byCreatedAt(), page, clientFromRow);
    },
  };
}
