import type { MarginClient } from '@margin/sdk-client';
import { ProvisioningError, type ProvisionOptions } from './provision-options.js';
import { allItems, type Steps } from './steps.js';

/** The client with this display name (in the given tenant, if one is named), created when missing. */
export async function ensureClient(
  margin: MarginClient,
  options: ProvisionOptions['client'],
  steps: Steps,
): Promise<string> {
  const clients = await allItems((cursor) => margin.tenancy.listClients({ limit: 200, cursor }));
  // Client names are unique per tenant ignoring case: the same rule finds the one a create would collide with.
  const name = options.displayName.toLowerCase();
  const existing = clients.find(
    (c) => c.displayName.toLowerCase() === name && (!options.tenantId || c.tenantId === options.tenantId),
  );
  if (existing) {
    steps.record('client', existing.id, 'unchanged', `"${existing.displayName}" exists`);
    return existing.id;
  }
  const tenantId = options.tenantId ?? (await onlyTenant(margin));
  const created = await margin.tenancy.createClient({ displayName: options.displayName, tenantId });
  steps.record('client', created.id, 'created', `"${created.displayName}" in tenant ${tenantId}`);
  return created.id;
}

/** Guessing between several tenants could put the client in the wrong one: ask instead. */
async function onlyTenant(margin: MarginClient): Promise<string> {
  const { items } = await margin.tenancy.listCreatableTenants();
  const [only] = items;
  if (items.length !== 1 || !only) {
    throw new ProvisioningError(
      'client',
      `You may create clients in ${items.length} tenants; name one in client.tenantId.`,
    );
  }
  return only.id;
}
