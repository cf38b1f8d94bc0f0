import type { Page, PageRequest } from '../kernel/index.js';

/** What an audited change touched. Closed, so a listing can be filtered and shown by kind. */
export const AUDIT_RESOURCE_TYPES = [
  'tenant',
  'client',
  'user',
  'tenantMember',
  'clientMember',
  'identityProvider',
  'policy',
  'licensing',
  'scmConnection',
  'aiConnection',
  'tenantLogicalModel',
  'tenantModelCatalog',
  'webhookConfiguration',
  'crawlConfiguration',
  'budget',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/**
 * One change to configuration: who did what to which resource, and a one-line summary. It never
 * holds a secret value: a summary names the fields that changed, never what a secret became.
 */
export interface AuditEntryRecord {
  id: string;
  at: string;
  /** The tenant the resource belongs to; null for installation-wide changes (licensing). */
  tenantId: string | null;
  clientId: string | null;
  actorUserId: string;
  /** `<resourceType>.<verb>`, e.g. `scmConnection.updated`. */
  action: string;
  resourceType: AuditResourceType;
  resourceId: string;
  summary: string;
}

export interface AuditEntriesRepository {
  insert(entry: AuditEntryRecord): Promise<void>;
  /** Newest first. */
  listForTenant(tenantId: string, page: PageRequest): Promise<Page<AuditEntryRecord>>;
  /** Every entry of the installation, newest first. */
  listAll(page: PageRequest): Promise<Page<AuditEntryRecord>>;
}
