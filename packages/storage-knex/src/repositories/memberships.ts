import type { ClientMemberRecord, MembershipsRepository, TenantMemberRecord } from '@margin/core/spec';
import { readTime } from '../dialect.js';
import { keyset, keysetPage } from '../paging.js';
import type { Db, Row } from '../rows.js';

const clientMember = (row: Row): ClientMemberRecord => ({
  clientId: String(row.client_id),
  userId: String(row.user_id),
  role: row.role as ClientMemberRecord['role'],
  createdAt: readTime(row.created_at),
});

const tenantMember = (row: Row): TenantMemberRecord => ({
  tenantId: String(row.tenant_id),
  userId: String(row.user_id),
  role: row.role as TenantMemberRecord['role'],
  createdAt: readTime(row.created_at),
});

export function knexMemberships(db: Db): MembershipsRepository {
  const byJoined = keyset<{ createdAt: string; userId: string }>(
    'created_at',
    'asc',
    (m) => ({ key: m.createdAt, id: m.userId }),
    'user_id',
  );
  return {
    async putClientMember(m) {
      await db('client_members')
        .insert({ client_id: m.clientId, user_id: m.userId, role: m.role, created_at: m.createdAt })
        .onConflict(['client_id', 'user_id'])
        .merge(['role']);
    },
    async removeClientMember(clientId, userId) {
      return (await db('client_members').where({ client_id: clientId, user_id: userId }).delete()) > 0;
    },
    async listClientMembers(clientId, page) {
      return keysetPage(db('client_members').where({ client_id: clientId }), byJoined, page, clientMember);
    },
    async findClientMember(clientId, userId) {
      const row = await db('client_members').where({ client_id: clientId, user_id: userId }).first();
      return row && clientMember(row);
    },
    async putTenantMember(m) {
      await db('tenant_members')
        .insert({ tenant_id: m.tenantId, user_id: m.userId, role: m.role, created_at: m.createdAt })
        .onConflict(['tenant_id', 'user_id'])
        .merge(['role']);
    },
    async removeTenantMember(tenantId, userId) {
      return (await db('tenant_members').where({ tenant_id: tenantId, user_id: userId }).delete()) > 0;
    },
    async listTenantMembers(tenantId, page) {
      return keysetPage(db('tenant_members').where({ tenant_id: tenantId }), byJoined, page, tenantMember);
    },
    async findTenantMember(tenantId, userId) {
      const row = await db('tenant_members').where({ tenant_id: tenantId, user_id: userId }).first();
      return row && tenantMember(row);
    },
    async forUser(userId) {
      const [clients, tenants] = await Promise.all([
        db('client_members').where({ user_id: userId }),
        db('tenant_members').where({ user_id: userId }),
      ]);
      return { clients: clients.map(clientMember), tenants: tenants.map(tenantMember) };
    },
  };
}
