import type { Actor, ClientRole, TenantRole } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { allCapabilityStates, readLicensing } from '../licensing/index.js';
import type { IdentityDeps } from './identity-deps.js';

/**
 * Who the caller is: global role, explicit client and tenant roles, the edition and every
 * capability's state. A TenantAdministrator is also ClientAdministrator on every client of that
 * tenant, and a platform administrator passes every check; neither is spelled out per client.
 */
export async function getMe(deps: IdentityDeps, actor: Actor) {
  const [user, memberships, licensing] = await Promise.all([
    deps.storage.users.findById(actor.userId),
    deps.storage.memberships.forUser(actor.userId),
    readLicensing(deps),
  ]);
  if (!user) throw MarginError.unauthenticated();
  const clientRoles: Record<string, ClientRole> = {};
  for (const m of memberships.clients) clientRoles[m.clientId] = m.role;
  const tenantRoles: Record<string, TenantRole> = {};
  for (const m of memberships.tenants) tenantRoles[m.tenantId] = m.role;
  return {
    userId: user.id,
    username: user.username,
    displayName: user.displayName,
    globalRole: user.globalRole,
    authenticatedWith: actor.via,
    clientRoles,
    tenantRoles,
    edition: licensing.edition,
    capabilities: allCapabilityStates(licensing),
  };
}
