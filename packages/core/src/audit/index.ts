export type { AuditAccess, AuditDeps, AuditRepositories } from './audit-deps.js';
export {
  AUDIT_RESOURCE_TYPES,
  type AuditEntriesRepository,
  type AuditEntryRecord,
  type AuditResourceType,
} from './audit-record.js';
export { type AuditChange, type AuditTrail, changedFields, createAuditTrail } from './audit-trail.js';
export { AuditEntryList, type AuditEntryListBody, AuditEntryView, type AuditEntryViewBody } from './schemas.js';
export { type AuditUseCases, createAuditUseCases } from './use-cases.js';
