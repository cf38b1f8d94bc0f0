import { z } from 'zod';
import { CLIENT_ROLES, GLOBAL_ROLES, TENANT_ROLES } from '../kernel/index.js';
import { CapabilityStateView, EDITIONS } from '../licensing/index.js';
import { SSO_DEFAULT_CLIENT_ROLES } from './identity-provider-record.js';

const password = z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters');
const timestamp = z.string().meta({ description: 'ISO-8601 UTC timestamp.', format: 'date-time' });

export const LoginInput = z
  .object({ username: z.string().min(1).max(200), password: z.string().min(1).max(1024) })
  .meta({ id: 'LoginInput' });

export const RefreshInput = z
  .object({
    refreshToken: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .meta({ description: 'Only for callers that cannot hold the cookie.' }),
  })
  .meta({ id: 'RefreshInput' });

export const TokenResponse = z
  .object({
    accessToken: z.string(),
    expiresIn: z.number().int().meta({ description: 'Seconds until the access token expires.' }),
    tokenType: z.literal('Bearer'),
    refreshToken: z
      .string()
      .optional()
      .meta({ description: 'Returned only to a refresh that sent its token in the body (no cookie).' }),
  })
  .meta({ id: 'TokenResponse' });

export const ChangePasswordInput = z
  .object({ currentPassword: z.string().min(1).max(1024), newPassword: password })
  .meta({ id: 'ChangePasswordInput' });

export const CreatePatInput = z
  .object({
    label: z.string().trim().min(1, 'Label is required.').max(200),
    expiresAt: z.iso.datetime({ offset: true }).optional().meta({ description: 'ISO-8601; omitted: never expires.' }),
  })
  .meta({ id: 'CreatePatInput' });

export const PatCreated = z
  .object({
    id: z.string(),
    label: z.string(),
    token: z.string(),
    expiresAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'PatCreated', description: 'The plaintext token is shown only in this response.' });

export const PatView = z
  .object({
    id: z.string(),
    label: z.string(),
    expiresAt: timestamp.nullable(),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
  })
  .meta({ id: 'PersonalAccessToken' });

export const PatList = z
  .object({ items: z.array(PatView), nextCursor: z.string().nullable() })
  .meta({ id: 'PersonalAccessTokenList' });

const username = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\w.@+-]+$/, 'may contain letters, digits and . _ @ + - only');

const email = z
  .email({ message: 'must be an email address' })
  .max(320)
  .meta({ description: 'Unique among users, compared case-insensitively.' });

export const CreateUserInput = z
  .object({
    username,
    password,
    email: email.optional(),
    displayName: z.string().trim().min(1).max(200).optional(),
    globalRole: z.enum(GLOBAL_ROLES).optional(),
  })
  .meta({ id: 'CreateUserInput' });

export const PatchUserInput = z
  .object({
    isActive: z.boolean().optional(),
    password: password.optional(),
    displayName: z.string().trim().min(1).max(200).optional(),
    globalRole: z.enum(GLOBAL_ROLES).optional(),
    email: email.nullable().optional().meta({ description: 'null removes it.' }),
  })
  .meta({ id: 'PatchUserInput' });

export const UserView = z
  .object({
    id: z.string(),
    username: z.string(),
    displayName: z.string(),
    email: z.string().nullable(),
    globalRole: z.enum(GLOBAL_ROLES),
    isActive: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'User' });

export const UserList = z
  .object({ items: z.array(UserView), nextCursor: z.string().nullable() })
  .meta({ id: 'UserList' });

export const PutClientMemberInput = z.object({ role: z.enum(CLIENT_ROLES) }).meta({ id: 'PutClientMemberInput' });
export const PutTenantMemberInput = z.object({ role: z.enum(TENANT_ROLES) }).meta({ id: 'PutTenantMemberInput' });

export const MemberView = z
  .object({
    userId: z.string(),
    username: z.string(),
    displayName: z.string(),
    role: z.enum([...CLIENT_ROLES, ...TENANT_ROLES]),
    createdAt: timestamp,
  })
  .meta({ id: 'Member' });

export const MemberList = z
  .object({ items: z.array(MemberView), nextCursor: z.string().nullable() })
  .meta({ id: 'MemberList' });

export type TokenResponseBody = z.infer<typeof TokenResponse>;
export type UserViewBody = z.infer<typeof UserView>;
export type MemberViewBody = z.infer<typeof MemberView>;
export type UserListBody = z.infer<typeof UserList>;
export type MemberListBody = z.infer<typeof MemberList>;
export type PatCreatedBody = z.infer<typeof PatCreated>;
export type PatListBody = z.infer<typeof PatList>;

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

// --- identity providers (OpenID Connect single sign-on) -----------------------------------------

const issuerUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
  .max(2048)
  .meta({ description: 'The issuer; discovery reads `<issuerUrl>/.well-known/openid-configuration`.' });
const emailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain name');
const allowedEmailDomains = z
  .array(emailDomain)
  .min(1, 'name at least one domain')
  .max(100)
  .meta({ description: 'A verified email in one of these domains may sign in; any other is refused.' });
const defaultClientRole = z
  .enum(SSO_DEFAULT_CLIENT_ROLES)
  .meta({ description: 'What an auto-created user gets on every client of the tenant.' });

export const CreateIdentityProviderInput = z
  .object({
    displayName: z.string().trim().min(1, 'displayName is required').max(200),
    issuerUrl,
    clientId: z.string().trim().min(1, 'clientId is required').max(500),
    clientSecret: z.string().min(1).max(4096).optional().meta({ description: 'Write-only; never shown again.' }),
    allowedEmailDomains,
    autoCreateUsers: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'Default false.' }),
    defaultClientRole: defaultClientRole.optional().meta({ description: 'Default none.' }),
    isEnabled: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'Default true.' }),
  })
  .meta({ id: 'CreateIdentityProviderInput' });

export const PatchIdentityProviderInput = z
  .object({
    displayName: z.string().trim().min(1).max(200).optional(),
    issuerUrl: issuerUrl.optional(),
    clientId: z.string().trim().min(1).max(500).optional(),
    clientSecret: z
      .string()
      .min(1)
      .max(4096)
      .nullable()
      .optional()
      .meta({ description: 'Write-only; null removes it.' }),
    allowedEmailDomains: allowedEmailDomains.optional(),
    autoCreateUsers: z.boolean({ error: 'must be a boolean' }).optional(),
    defaultClientRole: defaultClientRole.optional(),
    isEnabled: z.boolean({ error: 'must be a boolean' }).optional(),
  })
  .meta({ id: 'PatchIdentityProviderInput' });

export const IdentityProviderView = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    displayName: z.string(),
    issuerUrl: z.string(),
    clientId: z.string(),
    hasClientSecret: z.boolean(),
    allowedEmailDomains: z.array(z.string()),
    autoCreateUsers: z.boolean(),
    defaultClientRole: z.enum(SSO_DEFAULT_CLIENT_ROLES),
    isEnabled: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'IdentityProvider' });

export const IdentityProviderList = z
  .object({ items: z.array(IdentityProviderView), nextCursor: z.string().nullable() })
  .meta({ id: 'IdentityProviderList' });

export const SsoProvidersQuery = z
  .object({ tenant: z.string().max(100).meta({ description: 'The tenant’s slug.' }) })
  .meta({ id: 'SsoProvidersQuery' });

export const SsoProviderList = z
  .object({
    providers: z.array(
      z.object({
        id: z.string(),
        displayName: z.string(),
        startUrl: z.string().meta({ description: 'Where the browser goes to sign in through this provider.' }),
      }),
    ),
  })
  .meta({ id: 'SsoProviderList' });

export type IdentityProviderViewBody = z.infer<typeof IdentityProviderView>;
export type IdentityProviderListBody = z.infer<typeof IdentityProviderList>;
