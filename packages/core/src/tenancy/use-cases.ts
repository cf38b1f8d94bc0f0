import type { Actor } from '../kernel/index.js';
import { createClient, getClient, listClients, patchClient } from './clients.js';
import type { ClientListBody, ClientViewBody, TenantListBody, TenantViewBody } from './schemas.js';
import type { TenancyDeps } from './tenancy-deps.js';
import { createTenant, listCreatableTenants, patchTenant } from './tenants.js';

/** Tenants (Commercial beyond the System tenant) and their clients. */
export interface TenancyUseCases {
  listCreatableTenants(actor: Actor): Promise<TenantListBody>;
  createTenant(actor: Actor, input: unknown): Promise<TenantViewBody>;
  patchTenant(actor: Actor, tenantId: string, input: unknown): Promise<TenantViewBody>;
  listClients(actor: Actor, query: unknown): Promise<ClientListBody>;
  createClient(actor: Actor, input: unknown): Promise<ClientViewBody>;
  getClient(actor: Actor, clientId: string): Promise<ClientViewBody>;
  patchClient(actor: Actor, clientId: string, input: unknown): Promise<ClientViewBody>;
}

export function createTenancyUseCases(deps: TenancyDeps): TenancyUseCases {
  return {
    listCreatableTenants: (actor) => listCreatableTenants(deps, actor),
    createTenant: (actor, input) => createTenant(deps, actor, input),
    patchTenant: (actor, tenantId, input) => patchTenant(deps, actor, tenantId, input),
    listClients: (actor, query) => listClients(deps, actor, query),
    createClient: (actor, input) => createClient(deps, actor, input),
    getClient: (actor, clientId) => getClient(deps, actor, clientId),
    patchClient: (actor, clientId, input) => patchClient(deps, actor, clientId, input),
  };
}
