import { z } from 'zod';
import { LOGIN_POLICIES } from './tenancy-records.js';

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

export const TENANT_SLUG = /^[a-z0-9-]{2,40}$/;
const slug = z
  .string()
  .regex(TENANT_SLUG, 'must be 2 to 40 lower-case letters, digits or hyphens')
  .meta({ description: 'Unique; how people name the tenant at sign-in (`/sign-in?tenant=<slug>`).' });
const loginPolicy = z
  .enum(LOGIN_POLICIES)
  .meta({ description: '`ssoOnly`: the tenant’s users sign in through its identity providers only.' });

export const CreateTenantInput = z
  .object({
    displayName,
    slug: slug.optional().meta({ description: 'Omitted: made from displayName.' }),
  })
  .meta({ id: 'CreateTenantInput' });
export const PatchTenantInput = z
  .object({
    displayName: displayName.optional(),
    isActive: z
      .boolean({ error: 'must be a boolean' })
      .optional()
      .meta({ description: 'Platform administrator only. A deactivated tenant’s users cannot sign in.' }),
    loginPolicy: loginPolicy.optional(),
  })
  .meta({ id: 'PatchTenantInput' });

export const TenantView = z
  .object({
    id: z.string(),
    displayName: z.string(),
    slug: z.string(),
    isActive: z.boolean(),
    loginPolicy: z.enum(LOGIN_POLICIES),
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
