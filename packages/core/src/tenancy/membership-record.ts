import type { ClientRole, Page, PageRequest, TenantRole } from '../kernel/index.js';

export interface ClientMemberRecord {
  clientId: string;
  userId: string;
  role: ClientRole;
  createdAt: string;
}

export interface TenantMemberRecord {
  tenantId: string;
  userId: string;
  role: TenantRole;
  createdAt: string;
}

export interface MembershipsRepository {
  /** Inserts or changes the user's role on the client. */
  putClientMember(member: ClientMemberRecord): Promise<void>;
  removeClientMember(clientId: string, userId: string): Promise<boolean>;
  /** Oldest first (by `createdAt`, then user id), a page at a time. */
  listClientMembers(clientId: string, page: PageRequest): Promise<Page<ClientMemberRecord>>;
  findClientMember(clientId: string, userId: string): Promise<ClientMemberRecord | undefined>;
  putTenantMember(member: TenantMemberRecord): Promise<void>;
  removeTenantMember(tenantId: string, userId: string): Promise<boolean>;
  /** Oldest first (by `createdAt`, then user id), a page at a time. */
  listTenantMembers(tenantId: string, page: PageRequest): Promise<Page<TenantMemberRecord>>;
  findTenantMember(tenantId: string, userId: string): Promise<TenantMemberRecord | undefined>;
  /** Every membership of one user, for `/auth/me` and client listings. */
  forUser(userId: string): Promise<{ clients: ClientMemberRecord[]; tenants: TenantMemberRecord[] }>;
}
