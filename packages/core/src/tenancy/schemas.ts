import { z } from 'zod';

const displayName = z.string().trim().min(1, 'displayName is required').max(200);
const timestamp = z.string().meta({ format: 'date-time' });

export const CreateClientInput = z
  .object({ displayName, tenantId: z.guid({ message: 'tenantId must be a UUID' }) })
  .meta({ id: 'CreateClientInput' });

export const PatchClientInput = z
  .object({ displayName: displayName.optional(), isActive: z.boolean().optional() })
  .meta({ id: 'PatchClientInput' });

export const ClientView = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    displayName: z.string(),
    isActive: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Client' });

export const ClientList = z
  .object({ items: z.array(ClientView), nextCursor: z.string().nullable() })
  .meta({ id: 'ClientList' });

export const CreateTenantInput = z.object({ displayName }).meta({ id: 'CreateTenantInput' });
export const PatchTenantInput = z.object({ displayName: displayName.optional() }).meta({ id: 'PatchTenantInput' });

export const TenantView = z
  .object({
    id: z.string(),
    displayName: z.string(),
    isSystem: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Tenant' });

export const TenantList = z.object({ items: z.array(TenantView) }).meta({ id: 'TenantList' });

export type TenantViewBody = z.infer<typeof TenantView>;
export type TenantListBody = z.infer<typeof TenantList>;
export type ClientViewBody = z.infer<typeof ClientView>;
export type ClientListBody = z.infer<typeof ClientList>;
