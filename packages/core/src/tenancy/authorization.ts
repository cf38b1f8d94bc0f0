import {
  type Actor,
  type ClientRole,
  clientRoleAtLeast,
  higherClientRole,
  MarginError,
  requirePlatformAdmin,
  type TenantRole,
} from '../kernel/index.js';
import { isTenantInReach, type LicensingRepositories } from '../licensing/index.js';
import type { ClientAccessCache } from './client-access-cache.js';
import type { MembershipsRepository } from './membership-record.js';
import type { ClientRecord, TenantRecord, TenantsRepository } from './tenancy-records.js';

/**
 * Who may do what, in one table. Client actions need a minimum client role (a tenant administrator
 * is ClientAdministrator on every client of its tenant); tenant actions a minimum tenant role;
 * platform actions the platform administrator, who passes every check. Anything not listed is denied.
 */
export const POLICY = {
  'users.manage': { scope: 'platform' },
  'licensing.manage': { scope: 'platform' },
  'tenants.create': { scope: 'platform' },
  'tenants.update': { scope: 'tenant', min: 'TenantAdministrator' },
  'tenants.activate': { scope: 'platform' },
  'tenants.identityProviders.manage': { scope: 'tenant', min: 'TenantAdministrator' },
  'tenants.members.manage': { scope: 'tenant', min: 'TenantAdministrator' },
  'tenants.audit.read': { scope: 'tenant', min: 'TenantAdministrator' },
  'tenants.aiPolicy.read': { scope: 'tenant', min: 'TenantAdministrator' },
  'tenants.aiPolicy.manage': { scope: 'platform' },
  'tenants.catalog.read': { scope: 'tenant', min: 'TenantUser' },
  'tenants.catalog.manage': { scope: 'tenant', min: 'TenantAdministrator' },
  'tenants.aiConnections.manage': { scope: 'tenant', min: 'TenantAdministrator' },
  'clients.create': { scope: 'tenant', min: 'TenantAdministrator' },
  'clients.read': { scope: 'client', min: 'ClientUser' },
  'clients.update': { scope: 'client', min: 'ClientAdministrator' },
  'clients.members.manage': { scope: 'client', min: 'ClientAdministrator' },
  'scm.connections.manage': { scope: 'client', min: 'ClientAdministrator' },
  'scm.discovery': { scope: 'client', min: 'ClientUser' },
  'ai.connections.manage': { scope: 'client', min: 'ClientAdministrator' },
  'ai.logicalModels.manage': { scope: 'client', min: 'ClientAdministrator' },
  'ai.logicalModels.read': { scope: 'client', min: 'ClientUser' },
  'triggers.manage': { scope: 'client', min: 'ClientAdministrator' },
  'triggers.read': { scope: 'client', min: 'ClientUser' },
  'knowledge.manage': { scope: 'client', min: 'ClientAdministrator' },
  'knowledge.read': { scope: 'client', min: 'ClientUser' },
  'reviewing.submit': { scope: 'client', min: 'ClientAdministrator' },
  'reviewing.submitByCoordinates': { scope: 'client', min: 'ClientUser' },
  'reviewing.read': { scope: 'client', min: 'ClientUser' },
  'reviewing.restart': { scope: 'client', min: 'ClientUser' },
  'reviewing.stop': { scope: 'client', min: 'ClientAdministrator' },
  'reviewing.blocks.read': { scope: 'client', min: 'ClientUser' },
  'reviewing.blocks.manage': { scope: 'client', min: 'ClientAdministrator' },
  'reviewing.dismissals.read': { scope: 'client', min: 'ClientUser' },
  'reviewing.dismissals.manage': { scope: 'client', min: 'ClientAdministrator' },
  'reviewing.memory.read': { scope: 'client', min: 'ClientUser' },
  'reviewing.memory.manage': { scope: 'client', min: 'ClientAdministrator' },
  'spend.usage.read': { scope: 'client', min: 'ClientUser' },
  'spend.budget.read': { scope: 'client', min: 'ClientUser' },
  'spend.budget.manage': { scope: 'client', min: 'ClientAdministrator' },
  'spend.read': { scope: 'tenant', min: 'TenantAdministrator' },
} as const satisfies Record<
  string,
  { scope: 'platform' } | { scope: 'client'; min: ClientRole } | { scope: 'tenant'; min: TenantRole }
>;

type Policy = typeof POLICY;
export type Action = keyof Policy;
export type ClientAction = { [K in Action]: Policy[K] extends { scope: 'client' } ? K : never }[Action];
export type TenantAction = { [K in Action]: Policy[K] extends { scope: 'tenant' } ? K : never }[Action];
export type PlatformAction = { [K in Action]: Policy[K] extends { scope: 'platform' } ? K : never }[Action];

export type Resource = { clientId: string } | { tenantId: string } | Record<string, never>;

/** A deactivated client serves nothing but itself: it can be read, and activated again. */
const SERVED_WHILE_DEACTIVATED: ReadonlySet<Action> = new Set(['clients.read', 'clients.update']);

export const clientDeactivated = () =>
  MarginError.conflict(
    'This client is deactivated: it serves nothing until a client administrator activates it again.',
    { reason: 'clientDeactivated' },
  );

/** A deactivated tenant's clients refuse exactly what a deactivated client refuses. */
export const tenantDeactivated = () =>
  MarginError.conflict(
    'This tenant is deactivated: it and its clients serve nothing until a platform administrator activates it again.',
    { reason: 'tenantDeactivated' },
  );

const isPlatformAdmin = (actor: Actor) => actor.globalRole === 'platformAdmin';

/** The role the actor effectively holds on a client, counting tenant administration. */
export function effectiveClientRole(
  actor: Actor,
  clientRole: ClientRole | undefined,
  tenantRole: TenantRole | undefined,
): ClientRole | undefined {
  if (isPlatformAdmin(actor)) return 'ClientAdministrator';
  return higherClientRole(clientRole, tenantRole === 'TenantAdministrator' ? 'ClientAdministrator' : undefined);
}

export interface Authorizer {
  /**
   * The client, when the actor may act on it. No role at all → 404 (never confirms the client
   * exists); a role too low → 403. Community installations only see System-tenant clients.
   */
  requireClient(actor: Actor, action: ClientAction, clientId: string): Promise<ClientRecord>;
  requireTenant(actor: Actor, action: TenantAction, tenantId: string): Promise<TenantRecord>;
  requirePlatform(actor: Actor, action: PlatformAction): void;
  can(actor: Actor, action: Action, resource?: Resource): Promise<boolean>;
}

export interface AuthorizerDeps {
  storage: LicensingRepositories & { tenants: TenantsRepository; memberships: MembershipsRepository };
  clientAccess: ClientAccessCache;
}

export function createAuthorizer(deps: AuthorizerDeps): Authorizer {
  const clientNotFound = () => MarginError.notFound('Client not found.');
  const tenantNotFound = () => MarginError.notFound('Tenant not found.');

  const requireClient: Authorizer['requireClient'] = async (actor, action, clientId) => {
    const access = await deps.clientAccess.clientAccess(clientId, actor.userId);
    if (!access) throw clientNotFound();
    const role = effectiveClientRole(actor, access.clientRole, access.tenantRole);
    if (!role) throw clientNotFound();
    // Clients of other tenants stay stored but out of reach while the installation is Community.
    if (!(await isTenantInReach(deps, access.client.tenantId))) throw clientNotFound();
    const min = (POLICY[action] as { min: ClientRole }).min;
    if (!clientRoleAtLeast(role, min))
      throw MarginError.forbidden('You do not have the required role for this client.');
    if (!SERVED_WHILE_DEACTIVATED.has(action)) {
      if (!access.tenantIsActive) throw tenantDeactivated();
      if (!access.client.isActive) throw clientDeactivated();
    }
    return access.client;
  };

  const requireTenant: Authorizer['requireTenant'] = async (actor, action, tenantId) => {
    const tenant = await deps.storage.tenants.findById(tenantId);
    if (!tenant) throw tenantNotFound();
    if (isPlatformAdmin(actor)) return tenant;
    const members = await deps.storage.memberships.forUser(actor.userId);
    const role = members.tenants.find((m) => m.tenantId === tenantId)?.role;
    if (!role) throw tenantNotFound();
    const min = (POLICY[action] as { min: TenantRole }).min;
    if (min === 'TenantAdministrator' && role !== 'TenantAdministrator') {
      throw MarginError.forbidden('You do not have the required role for this tenant.');
    }
    // Its members' sessions end at their next refresh; until then an access token reaches nothing.
    if (!tenant.isActive) throw tenantDeactivated();
    return tenant;
  };

  const requirePlatform: Authorizer['requirePlatform'] = (actor) => requirePlatformAdmin(actor);

  return {
    requireClient,
    requireTenant,
    requirePlatform,
    async can(actor, action, resource = {}) {
      try {
        const rule = POLICY[action] as { scope: string };
        if (rule.scope === 'platform') requirePlatform(actor, action as PlatformAction);
        else if (rule.scope === 'client' && 'clientId' in resource)
          await requireClient(actor, action as ClientAction, resource.clientId);
        else if (rule.scope === 'tenant' && 'tenantId' in resource)
          await requireTenant(actor, action as TenantAction, resource.tenantId);
        else return false;
        return true;
      } catch (error) {
        if (MarginError.isInstance(error) && (error.code === 'forbidden' || error.code === 'not_found')) return false;
        throw error;
      }
    },
  };
}
