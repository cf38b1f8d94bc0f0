import { PurposeParam } from '@margin/core/schemas';
import { z } from 'zod';

/** Path ids: any short string. An id that matches nothing is a 404, not a validation error. */
const id = z.string().min(1).max(100);

export const ClientParams = z.object({ clientId: id });
export const UserParams = z.object({ userId: id });
export const TenantParams = z.object({ tenantId: id });
export const ClientMemberParams = z.object({ clientId: id, userId: id });
export const TenantMemberParams = z.object({ tenantId: id, userId: id });
export const IdentityProviderParams = z.object({ tenantId: id, providerId: id });
export const PatParams = z.object({ patId: id });
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Page size, 1–200 (default 50).' }),
  cursor: z.string().max(500).optional().meta({ description: '`nextCursor` of the previous page.' }),
});
export const JobParams = z.object({ jobId: id });
export const DismissalParams = z.object({ clientId: id, dismissalId: id });
export const ConnectionParams = z.object({ clientId: id, connectionId: id });
export const ScopeParams = z.object({ clientId: id, connectionId: id, scopeId: id });
export const AiConnectionParams = z.object({ clientId: id, connectionId: id });
export const TenantAiConnectionParams = z.object({ tenantId: id, connectionId: id });
export const ClientLogicalModelParams = z.object({ clientId: id, name: id });
export const ClientPurposeParams = z.object({ clientId: id, purpose: PurposeParam });
export const TenantLogicalModelParams = z.object({ tenantId: id, name: id });
export const CatalogModelParams = z.object({ tenantId: id, modelId: id });
export const PriceOverrideParams = z.object({ tenantId: id, overrideId: id });
