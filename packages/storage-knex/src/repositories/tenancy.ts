import {
  type ClientRecord,
  type ClientRole,
  type ClientsRepository,
  decodeCursor,
  MarginError,
  type TenantRecord,
  type TenantRole,
  type TenantsRepository,
  toPage,
} from '@margin/core';
import type { Knex } from 'knex';
import { isUniqueViolation, readBool, readTime } from '../dialect.js';

type Db = Knex | Knex.Transaction;
type Row = Record<string, unknown>;

const tenantFromRow = (row: Row): TenantRecord => ({
  id: String(row.id),
  displayName: String(row.display_name),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

export function knexTenants(db: Db): TenantsRepository {
  const table = () => db('tenants');
  return {
    async insert(t) {
      try {
        await table().insert({
          id: t.id,
          display_name: t.displayName,
          created_at: t.createdAt,
          updated_at: t.updatedAt,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw MarginError.conflict('A tenant with this id already exists.');
        throw error;
      }
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && tenantFromRow(row);
    },
    async update(id, patch) {
      const row: Row = {};
      if (patch.displayName !== undefined) row.display_name = patch.displayName;
      if (patch.updatedAt !== undefined) row.updated_at = patch.updatedAt;
      if (Object.keys(row).length > 0) await table().where({ id }).update(row);
      const updated = await table().where({ id }).first();
      return updated && tenantFromRow(updated);
    },
    async list() {
      return (await table().orderBy([{ column: 'created_at' }, { column: 'id' }])).map(tenantFromRow);
    },
  };
}

const clientFromRow = (row: Row): ClientRecord => ({
  id: String(row.id),
  tenantId: String(row.tenant_id),
  displayName: String(row.display_name),
  isActive: readBool(row.is_active),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

const duplicateName = () => MarginError.conflict('This tenant already has a client with that name.');

export function knexClients(db: Db): ClientsRepository {
  const table = () => db('clients');
  return {
    async insert(c) {
      try {
        await table().insert({
          id: c.id,
          tenant_id: c.tenantId,
          display_name: c.displayName,
          display_name_key: c.displayName.toLowerCase(),
          is_active: c.isActive,
          created_at: c.createdAt,
          updated_at: c.updatedAt,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateName();
        throw error;
      }
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
        .where('c.id', clientId)
        .first('c.*', 'cm.role as client_role', 'tm.role as tenant_role');
      if (!row) return undefined;
      return {
        client: clientFromRow(row),
        clientRole: (row.client_role as ClientRole | null) ?? undefined,
        tenantRole: (row.tenant_role as TenantRole | null) ?? undefined,
      };
    },
    async update(id, patch) {
      const row: Row = {};
      if (patch.displayName !== undefined) {
        row.display_name = patch.displayName;
        row.display_name_key = patch.displayName.toLowerCase();
      }
      if (patch.isActive !== undefined) row.is_active = patch.isActive;
      if (patch.updatedAt !== undefined) row.updated_at = patch.updatedAt;
      if (Object.keys(row).length > 0) {
        try {
          await table().where({ id }).update(row);
        } catch (error) {
          if (isUniqueViolation(error)) throw duplicateName();
          throw error;
        }
      }
      const updated = await table().where({ id }).first();
      return updated && clientFromRow(updated);
    },
    async list(filter, page) {
      const after = decodeCursor(page.cursor);
      const query = table()
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(page.limit + 1);
      if (filter.withinTenants) query.whereIn('tenant_id', [...filter.withinTenants]);
      if (filter.visibility) {
        const { clientIds, tenantIds } = filter.visibility;
        query.where((q) => q.whereIn('id', [...clientIds]).orWhereIn('tenant_id', [...tenantIds]));
      }
      if (after) {
        query.where((q) =>
          q
            .where('created_at', '>', after.key)
            .orWhere((q2) => q2.where('created_at', after.key).andWhere('id', '>', after.id)),
        );
      }
      const rows = (await query).map(clientFromRow);
      return toPage(rows, page.limit, (c) => ({ key: c.createdAt, id: c.id }));
    },
  };
}
