import { MarginError, type TenantRecord, type TenantsRepository } from '@margin/core/spec';
import { readBool, readTime } from '../dialect.js';
import { byCreatedAt, inOrder } from '../paging.js';
import { columnsOf, conflictOnDuplicate, type Db, type Row, updateAndRead } from '../rows.js';

const tenantFromRow = (row: Row): TenantRecord => ({
  id: String(row.id),
  displayName: String(row.display_name),
  slug: String(row.slug),
  isActive: readBool(row.is_active),
  loginPolicy: row.login_policy as TenantRecord['loginPolicy'],
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

type TenantPatch = Parameters<TenantsRepository['update']>[1];

const TENANT_COLUMNS: Record<keyof TenantPatch, string> = {
  displayName: 'display_name',
  isActive: 'is_active',
  loginPolicy: 'login_policy',
  updatedAt: 'updated_at',
};

const duplicate = () => MarginError.conflict('A tenant with this slug already exists.');

export function knexTenants(db: Db): TenantsRepository {
  const table = () => db('tenants');
  return {
    async insert(t) {
      await conflictOnDuplicate(
        table().insert({
          id: t.id,
          display_name: t.displayName,
          slug: t.slug,
          is_active: t.isActive,
          login_policy: t.loginPolicy,
          created_at: t.createdAt,
          updated_at: t.updatedAt,
        }),
        duplicate,
      );
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && tenantFromRow(row);
    },
    async findBySlug(slug) {
      const row = await table().where({ slug }).first();
      return row && tenantFromRow(row);
    },
    async update(id, patch) {
      return updateAndRead(table, id, columnsOf(patch, TENANT_COLUMNS), tenantFromRow, duplicate);
    },
    async list() {
      return (await inOrder(table(), byCreatedAt())).map(tenantFromRow);
    },
  };
}
