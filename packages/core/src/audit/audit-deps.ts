import type { Actor, StorageSlice } from '../kernel/index.js';
import type { AuditEntriesRepository } from './audit-record.js';

/** The audit trail's part of the storage port. */
export interface AuditRepositories {
  auditEntries: AuditEntriesRepository;
}

/**
 * Who may read a tenant's trail. Audit sits below tenancy (tenancy records into it), so the
 * composition hands it the tenant check rather than the folder importing the authorizer.
 */
export interface AuditAccess {
  requireTenantAuditor(actor: Actor, tenantId: string): Promise<void>;
}

/** What the audit use cases need. */
export interface AuditDeps {
  storage: StorageSlice<AuditRepositories>;
  access: AuditAccess;
}
