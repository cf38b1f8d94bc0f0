import { type Actor, PageQuery, requirePlatformAdmin } from '../kernel/index.js';
import type { AuditDeps } from './audit-deps.js';
import type { AuditEntryRecord } from './audit-record.js';
import type { AuditEntryListBody } from './schemas.js';

/** Reading the audit trail: a tenant's (its administrators) or the whole installation's. */
export interface AuditUseCases {
  listTenantAudit(actor: Actor, tenantId: string, query: unknown): Promise<AuditEntryListBody>;
  listPlatformAudit(actor: Actor, query: unknown): Promise<AuditEntryListBody>;
}

const auditEntryView = (e: AuditEntryRecord) => ({ ...e });

export function createAuditUseCases(deps: AuditDeps): AuditUseCases {
  return {
    async listTenantAudit(actor, tenantId, query) {
      const page = PageQuery.parse(query);
      await deps.access.requireTenantAuditor(actor, tenantId);
      const result = await deps.storage.auditEntries.listForTenant(tenantId, page);
      return { items: result.items.map(auditEntryView), nextCursor: result.nextCursor };
    },
    async listPlatformAudit(actor, query) {
      const page = PageQuery.parse(query);
      requirePlatformAdmin(actor);
      const result = await deps.storage.auditEntries.listAll(page);
      return { items: result.items.map(auditEntryView), nextCursor: result.nextCursor };
    },
  };
}
