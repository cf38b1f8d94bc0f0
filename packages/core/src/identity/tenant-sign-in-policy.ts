import { isCapabilityAvailable } from '../licensing/index.js';
import type { TenantRecord } from '../tenancy/index.js';
import type { IdentityDeps } from './identity-deps.js';
import type { UserRecord } from './user-record.js';

/** Why a tenant keeps a user out: every tenant of theirs is deactivated, or one needs single sign-on. */
export type TenantSignInRefusal = 'tenantDeactivated' | 'ssoRequired';

/** The tenants a user belongs to: those they hold a tenant role in, and those of their clients. */
export async function tenantsOfUser(deps: Pick<IdentityDeps, 'storage'>, userId: string): Promise<TenantRecord[]> {
  const members = await deps.storage.memberships.forUser(userId);
  const ids = new Set(members.tenants.map((m) => m.tenantId));
  for (const m of members.clients) {
    const client = await deps.storage.clients.findById(m.clientId);
    if (client) ids.add(client.tenantId);
  }
  const tenants = await Promise.all([...ids].map((id) => deps.storage.tenants.findById(id)));
  return tenants.filter((t): t is TenantRecord => t !== undefined);
}

/**
 * What the user's tenants say about this sign-in. The platform administrator is never subject to a
 * tenant. A user belonging to no active tenant (but to some tenant) is refused; one active tenant is
 * enough, since a deactivated tenant's clients refuse their requests anyway. With `password`, an
 * active `ssoOnly` tenant refuses it — only while `sso-authentication` is available, so a lapsed
 * license never locks users out with no way in.
 */
export async function tenantSignInRefusal(
  deps: Pick<IdentityDeps, 'storage'>,
  user: UserRecord,
  method: 'password' | 'session',
): Promise<TenantSignInRefusal | undefined> {
  if (user.globalRole === 'platformAdmin') return undefined;
  const tenants = await tenantsOfUser(deps, user.id);
  const active = tenants.filter((t) => t.isActive);
  if (tenants.length > 0 && active.length === 0) return 'tenantDeactivated';
  if (method === 'password' && active.some((t) => t.loginPolicy === 'ssoOnly')) {
    if (await isCapabilityAvailable(deps, 'sso-authentication')) return 'ssoRequired';
  }
  return undefined;
}
