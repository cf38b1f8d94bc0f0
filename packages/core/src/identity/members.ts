import type { Actor } from '../kernel/index.js';
import { MarginError, PageQuery } from '../kernel/index.js';
import type { ClientMemberRecord, TenantMemberRecord } from '../tenancy/index.js';
import type { IdentityDeps } from './identity-deps.js';
import { type MemberViewBody, PutClientMemberInput, PutTenantMemberInput } from './schemas.js';
import type { UserRecord } from './user-record.js';
import { forgetUser } from './user-state-cache.js';

type MemberRecord = ClientMemberRecord | TenantMemberRecord;

const memberView = (user: UserRecord, m: MemberRecord): MemberViewBody => ({
  userId: m.userId,
  username: user.username,
  displayName: user.displayName,
  role: m.role,
  createdAt: m.createdAt,
});

async function withUsers(deps: IdentityDeps, members: MemberRecord[]) {
  const users = new Map((await deps.storage.users.findManyByIds(members.map((m) => m.userId))).map((u) => [u.id, u]));
  return members.flatMap((m) => {
    const user = users.get(m.userId);
    return user ? [memberView(user, m)] : [];
  });
}

/** Read back after a put: a changed role keeps the membership's original creation time. */
function storedMember(user: UserRecord, stored: MemberRecord | undefined): MemberViewBody {
  if (!stored) throw MarginError.internal('The membership was not stored.');
  return memberView(user, stored);
}

async function requireUser(deps: IdentityDeps, userId: string) {
  const user = await deps.storage.users.findById(userId);
  if (!user) throw MarginError.notFound('User not found.');
  return user;
}

export async function putClientMember(
  deps: IdentityDeps,
  actor: Actor,
  clientId: string,
  userId: string,
  input: unknown,
) {
  const { role } = PutClientMemberInput.parse(input);
  const client = await deps.authz.requireClient(actor, 'clients.members.manage', clientId);
  const user = await requireUser(deps, userId);
  await deps.storage.transaction(async (tx) => {
    await tx.memberships.putClientMember({
      clientId,
      userId: user.id,
      role,
      createdAt: deps.clock.now().toISOString(),
    });
    await deps.audit.record(tx, actor, {
      client,
      verb: 'put',
      resourceType: 'clientMember',
      resourceId: user.id,
      summary: `set role ${role} for user '${user.username}'`,
    });
  });
  forgetUser(deps, user.id);
  return storedMember(user, await deps.storage.memberships.findClientMember(clientId, user.id));
}

export async function listClientMembers(deps: IdentityDeps, actor: Actor, clientId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await deps.authz.requireClient(actor, 'clients.members.manage', clientId);
  const members = await deps.storage.memberships.listClientMembers(clientId, page);
  return { items: await withUsers(deps, members.items), nextCursor: members.nextCursor };
}

export async function removeClientMember(deps: IdentityDeps, actor: Actor, clientId: string, userId: string) {
  const client = await deps.authz.requireClient(actor, 'clients.members.manage', clientId);
  await deps.storage.transaction(async (tx) => {
    if (!(await tx.memberships.removeClientMember(clientId, userId))) {
      throw MarginError.notFound('This user has no role on the client.');
    }
    await deps.audit.record(tx, actor, {
      client,
      verb: 'removed',
      resourceType: 'clientMember',
      resourceId: userId,
      summary: 'removed the role on the client',
    });
  });
  forgetUser(deps, userId);
}

export async function putTenantMember(
  deps: IdentityDeps,
  actor: Actor,
  tenantId: string,
  userId: string,
  input: unknown,
) {
  const { role } = PutTenantMemberInput.parse(input);
  await deps.authz.requireTenant(actor, 'tenants.members.manage', tenantId);
  const user = await requireUser(deps, userId);
  await deps.storage.transaction(async (tx) => {
    await tx.memberships.putTenantMember({
      tenantId,
      userId: user.id,
      role,
      createdAt: deps.clock.now().toISOString(),
    });
    await deps.audit.record(tx, actor, {
      tenantId,
      verb: 'put',
      resourceType: 'tenantMember',
      resourceId: user.id,
      summary: `set role ${role} for user '${user.username}'`,
    });
  });
  forgetUser(deps, user.id);
  return storedMember(user, await deps.storage.memberships.findTenantMember(tenantId, user.id));
}

export async function listTenantMembers(deps: IdentityDeps, actor: Actor, tenantId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await deps.authz.requireTenant(actor, 'tenants.members.manage', tenantId);
  const members = await deps.storage.memberships.listTenantMembers(tenantId, page);
  return { items: await withUsers(deps, members.items), nextCursor: members.nextCursor };
}

export async function removeTenantMember(deps: IdentityDeps, actor: Actor, tenantId: string, userId: string) {
  await deps.authz.requireTenant(actor, 'tenants.members.manage', tenantId);
  await deps.storage.transaction(async (tx) => {
    if (!(await tx.memberships.removeTenantMember(tenantId, userId))) {
      throw MarginError.notFound('This user has no role on the tenant.');
    }
    await deps.audit.record(tx, actor, {
      tenantId,
      verb: 'removed',
      resourceType: 'tenantMember',
      resourceId: userId,
      summary: 'removed the role on the tenant',
    });
  });
  forgetUser(deps, userId);
}
