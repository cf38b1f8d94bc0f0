import { z } from 'zod';
import { CLIENT_ROLES, GLOBAL_ROLES, TENANT_ROLES } from '../kernel/index.js';
import { CapabilityStateView, EDITIONS } from '../licensing/index.js';

export const MeView = z
  .object({
    userId: z.string(),
    username: z.string(),
    displayName: z.string(),
    globalRole: z.enum(GLOBAL_ROLES),
    authenticatedWith: z.enum(['accessToken', 'personalAccessToken']),
    clientRoles: z
      .record(z.string(), z.enum(CLIENT_ROLES))
      .meta({ description: 'Explicit client roles by client id.' }),
    tenantRoles: z.record(z.string(), z.enum(TENANT_ROLES)).meta({
      description:
        'Tenant roles by tenant id; a TenantAdministrator is ClientAdministrator on every client of the tenant.',
    }),
    edition: z.enum(EDITIONS),
    capabilities: z.array(CapabilityStateView),
  })
  .meta({ id: 'Me' });

export type MeViewBody = z.infer<typeof MeView>;
