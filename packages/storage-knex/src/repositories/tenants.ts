import { MarginError, type TenantRecord, type TenantsRepository } from '@margin/core/spec';
import { readTime } from '../dialect.js';
import { byCreatedAt, inOrder } from '../paging.js';
import { columnsOf, conflictOnDuplicate, type Db, type Row, updateAndRead } from '../rows.js';

const tenantFromRow = (row: Row): TenantRecord => ({
  id: String(row.id),
  displayName: String(row.display_name),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

type TenantPatch = Parameters<TenantsRepository['update']>[1];

const TENANT_COLUMNS: Record<keyof TenantPatch, string> = { displayName: 'display_name', updatedAt: 'updated_at' };

export function knexTenants(db: Db): TenantsRepository {
  const table = () => db('tenants');
  return {
    async insert(t) {
      await conflictOnDuplicate(
        table().insert({ id: t.id, display_name: t.displayName, created_at: t.createdAt, updated_at: t.updatedAt }),
        () => MarginError.conflict('A tenant with this id already exists.'),
      );
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && tenantFromRow(row);
    },
    async update(id, patch) {
      return updateAndRead(table, id, columnsOf(patch, TENANT_COLUMNS), tenantFromRow);
    },
    async list() {
      return (await inOrder(table(), byCreatedAt())).map(tenantFromRow);
    },
  };
}
