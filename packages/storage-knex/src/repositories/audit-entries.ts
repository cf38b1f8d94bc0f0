import type { AuditEntriesRepository, AuditEntryRecord, AuditResourceType } from '@margin/core/spec';
import { readTime } from '../dialect.js';
import { keyset, keysetPage } from '../paging.js';
import { type Db, type Row, textOrNull } from '../rows.js';

const auditEntryFromRow = (row: Row): AuditEntryRecord => ({
  id: String(row.id),
  at: readTime(row.at),
  tenantId: textOrNull(row.tenant_id),
  clientId: textOrNull(row.client_id),
  actorUserId: String(row.actor_user_id),
  action: String(row.action),
  resourceType: String(row.resource_type) as AuditResourceType,
  resourceId: String(row.resource_id),
  summary: String(row.summary),
});

// Both listings run on an index ending (at, id): audit_entries_tenant_at and audit_entries_at.
const NEWEST_FIRST = keyset<AuditEntryRecord>('at', 'desc', (e) => ({ key: e.at, id: e.id }));

export function knexAuditEntries(db: Db): AuditEntriesRepository {
  const table = () => db('audit_entries');
  return {
    async insert(e) {
      await table().insert({
        id: e.id,
        at: e.at,
        tenant_id: e.tenantId,
        client_id: e.clientId,
        actor_user_id: e.actorUserId,
        action: e.action,
        resource_type: e.resourceType,
        resource_id: e.resourceId,
        summary: e.summary,
      });
    },
    async listForTenant(tenantId, page) {
      return keysetPage(table().where({ tenant_id: tenantId }), NEWEST_FIRST, page, auditEntryFromRow);
    },
    async listAll(page) {
      return keysetPage(table(), NEWEST_FIRST, page, auditEntryFromRow);
    },
  };
}
