import type { ClientRole, Page, PageRequest, TenantRole } from '../kernel/index.js';

/** How a tenant's users may sign in: local passwords and SSO, or SSO only. */
export const LOGIN_POLICIES = ['localAndSso', 'ssoOnly'] as const;
export type LoginPolicy = (typeof LOGIN_POLICIES)[number];

export interface TenantRecord {
  id: string;
  displayName: string;
  /** Lower-case, unique: how people name the tenant at sign-in (`?tenant=<slug>`). */
  slug: string;
  /** A deactivated tenant's users cannot sign in and its clients serve nothing. */
  isActive: boolean;
  loginPolicy: LoginPolicy;
  createdAt: string;
  updatedAt: string;
}

export interface ClientRecord {
  id: string;
  tenantId: string;
  displayName: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A client together with what one user holds on it, read in a single query (hot path). */
export interface ClientAccess {
  client: ClientRecord;
  /** Whether the client's tenant is active: a deactivated tenant's clients serve nothing. */
  tenantIsActive: boolean;
  clientRole: ClientRole | undefined;
  tenantRole: TenantRole | undefined;
}

export interface TenantsRepository {
  /** Throws `conflict` when the slug is taken. */
  insert(tenant: TenantRecord): Promise<void>;
  findById(id: string): Promise<TenantRecord | undefined>;
  findBySlug(slug: string): Promise<TenantRecord | undefined>;
  update(
    id: string,
    patch: Partial<Pick<TenantRecord, 'displayName' | 'isActive' | 'loginPolicy' | 'updatedAt'>>,
  ): Promise<TenantRecord | undefined>;
  list(): Promise<TenantRecord[]>;
}

export interface ClientListFilter {
  /** When set, only clients of these tenants (the edition's reach). */
  withinTenants?: readonly string[] | undefined;
  /** When set, only clients the caller may see: these ids, or any client of these tenants. */
  visibility?: { clientIds: readonly string[]; tenantIds: readonly string[] } | undefined;
}

export interface ClientsRepository {
  /** Throws `conflict` when the tenant already has a client of that name (case-insensitive). */
  insert(client: ClientRecord): Promise<void>;
  findById(id: string): Promise<ClientRecord | undefined>;
  findAccess(clientId: string, userId: string): Promise<ClientAccess | undefined>;
  update(
    id: string,
    patch: Partial<Pick<ClientRecord, 'displayName' | 'isActive' | 'updatedAt'>>,
  ): Promise<ClientRecord | undefined>;
  /** Oldest first. */
  list(filter: ClientListFilter, page: PageRequest): Promise<Page<ClientRecord>>;
}
