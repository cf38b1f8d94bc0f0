import type { ClientRole, TenantRole } from './roles.js';

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
  listClientMembers(clientId: string): Promise<ClientMemberRecord[]>;
  putTenantMember(member: TenantMemberRecord): Promise<void>;
  removeTenantMember(tenantId: string, userId: string): Promise<boolean>;
  listTenantMembers(tenantId: string): Promise<TenantMemberRecord[]>;
  /** Every membership of one user, for `/auth/me` and client listings. */
  forUser(userId: string): Promise<{ clients: ClientMemberRecord[]; tenants: TenantMemberRecord[] }>;
}
