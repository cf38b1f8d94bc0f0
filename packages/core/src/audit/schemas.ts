import { z } from 'zod';
import { AUDIT_RESOURCE_TYPES } from './audit-record.js';

export const AuditEntryView = z
  .object({
    id: z.string(),
    at: z.string().meta({ format: 'date-time' }),
    tenantId: z.string().nullable(),
    clientId: z.string().nullable(),
    actorUserId: z.string(),
    action: z.string(),
    resourceType: z.enum(AUDIT_RESOURCE_TYPES),
    resourceId: z.string(),
    summary: z.string(),
  })
  .meta({ id: 'AuditEntry' });

export const AuditEntryList = z
  .object({ items: z.array(AuditEntryView), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditEntryList' });

export type AuditEntryViewBody = z.infer<typeof AuditEntryView>;
export type AuditEntryListBody = z.infer<typeof AuditEntryList>;
