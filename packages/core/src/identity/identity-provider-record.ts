import type { Page, PageRequest } from '../kernel/index.js';

/** What a user auto-created through a provider gets on every client of the tenant. */
export const SSO_DEFAULT_CLIENT_ROLES = ['none', 'ClientUser'] as const;
export type SsoDefaultClientRole = (typeof SSO_DEFAULT_CLIENT_ROLES)[number];

/** A tenant's OpenID Connect identity provider. The client secret is sealed like every credential. */
export interface IdentityProviderRecord {
  id: string;
  tenantId: string;
  displayName: string;
  /** Discovery starts at `<issuerUrl>/.well-known/openid-configuration`; the ID token's `iss` must match. */
  issuerUrl: string;
  clientId: string;
  sealedClientSecret: string | null;
  /** Lower-case domains; an email whose domain is not listed is refused. */
  allowedEmailDomains: string[];
  autoCreateUsers: boolean;
  defaultClientRole: SsoDefaultClientRole;
  isEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type IdentityProviderPatch = Partial<
  Pick<
    IdentityProviderRecord,
    | 'displayName'
    | 'issuerUrl'
    | 'clientId'
    | 'sealedClientSecret'
    | 'allowedEmailDomains'
    | 'autoCreateUsers'
    | 'defaultClientRole'
    | 'isEnabled'
    | 'updatedAt'
  >
>;

export interface IdentityProvidersRepository {
  insert(provider: IdentityProviderRecord): Promise<void>;
  findById(id: string): Promise<IdentityProviderRecord | undefined>;
  /** Oldest first. */
  listForTenant(tenantId: string, page: PageRequest): Promise<Page<IdentityProviderRecord>>;
  update(id: string, patch: IdentityProviderPatch): Promise<IdentityProviderRecord | undefined>;
  delete(id: string): Promise<boolean>;
}

/** Which user an identity provider's subject signs in as: one user per (issuer, subject). */
export interface UserIdentityRecord {
  id: string;
  userId: string;
  identityProviderId: string;
  issuer: string;
  subject: string;
  createdAt: string;
}

export interface UserIdentitiesRepository {
  /** Throws `conflict` when the (issuer, subject) pair is linked already. */
  insert(identity: UserIdentityRecord): Promise<void>;
  find(issuer: string, subject: string): Promise<UserIdentityRecord | undefined>;
}
