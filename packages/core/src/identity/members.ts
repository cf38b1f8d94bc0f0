import type { CoreDeps } from '../deps.js';
import type { Actor } from '../kernel/index.js';
import { MarginError, PageQuery } from '../kernel/index.js';
import type { ClientMemberRecord, TenantMemberRecord } from './membership-record.js';
import { PutClientMemberInput, PutTenantMemberInput } from './schemas.js';

async function withUsers(deps: CoreDeps, members: Array<ClientMemberRecord | TenantMemberRecord>) {
  const users = new Map((await deps.storage.users.findManyByIds(members.map((m) => m.userId))).map((u) => [u.id, u]));
  return members.flatMap((m) => {
    const user = users.get(m.userId);
    return user
      ? [
          {
            userId: m.userId,
            username: user.username,
            displayName: user.displayName,
            role: m.role,
            createdAt: m.createdAt,
          },
        ]
      : [];
  });
}

async function requireUser(deps: CoreDeps, userId: string) {
  const user = await deps.storage.users.findById(userId);
  if (!user) throw MarginError.notFound('User not found.');
  return user;
}

export async function putClientMember(deps: CoreDeps, actor: Actor, clientId: string, userId: string, input: unknown) {
  const { role } = PutClientMemberInput.parse(input);
  await deps.authz.requireClient(actor, 'clients.members.manage', clientId);
  const user = await requireUser(deps, userId);
  await deps.storage.memberships.putClientMember({
    clientId,
    userId: user.id,
    role,
    createdAt: deps.clock.now().toISOString(),
  });
  deps.accessCache.forgetUser(user.id);
  // Read back: a changed role keeps the membership's original creation time.
  const stored = await deps.storage.memberships.findClientMember(clientId, user.id);
  return (await withUsers(deps, stored ? [stored] : []))[0];
}

export async function listClientMembers(deps: CoreDeps, actor: Actor, clientId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await deps.authz.requireClient(actor, 'clients.members.manage', clientId);
  const members = await deps.storage.memberships.listClientMembers(clientId, page);
  return { items: await withUsers(deps, members.items), nextCursor: members.nextCursor };
}

export async function removeClientMember(deps: CoreDeps, actor: Actor, clientId: string, userId: string) {
  await deps.authz.requireClient(actor, 'clients.members.manage', clientId);
  if (!(await deps.storage.memberships.removeClientMember(clientId, userId))) {
    throw MarginError.notFound('This user has no role on the client.');
  }
  deps.accessCache.forgetUser(userId);
}

export async function putTenantMember(deps: CoreDeps, actor: Actor, tenantId: string, userId: string, input: unknown) {
  const { role } = PutTenantMemberInput.parse(input);
  await deps.authz.requireTenant(actor, 'tenants.members.manage', tenantId);
  const user = await requireUser(deps, userId);
  await deps.storage.memberships.putTenantMember({
    tenantId,
    userId: user.id,
    role,
    createdAt: deps.clock.now().toISOString(),
  });
  deps.accessCache.forgetUser(user.id);
  const stored = await deps.storage.memberships.findTenantMember(tenantId, user.id);
  return (await withUsers(deps, stored ? [stored] : []))[0];
}

export async function listTenantMembers(deps: CoreDeps, actor: Actor, tenantId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await deps.authz.requireTenant(actor, 'tenants.members.manage', tenantId);
  const members = await deps.storage.memberships.listTenantMembers(tenantId, page);
  return { items: await withUsers(deps, members.items), nextCursor: members.nextCursor };
}

export async function removeTenantMember(deps: CoreDeps, actor: Actor, tenantId: string, userId: string) {
  await deps.authz.requireTenant(actor, 'tenants.members.manage', tenantId);
  if (!(await deps.storage.memberships.removeTenantMember(tenantId, userId))) {
    throw MarginError.notFound('This user has no role on the tenant.');
  }
  deps.accessCache.forgetUser(userId);
}
