/** The installation-wide role: a platform administrator passes every check. */
export const GLOBAL_ROLES = ['platformAdmin', 'user'] as const;
export type GlobalRole = (typeof GLOBAL_ROLES)[number];

export const CLIENT_ROLES = ['ClientUser', 'ClientAdministrator'] as const;
export type ClientRole = (typeof CLIENT_ROLES)[number];

export const TENANT_ROLES = ['TenantUser', 'TenantAdministrator'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

const CLIENT_RANK: Record<ClientRole, number> = { ClientUser: 1, ClientAdministrator: 2 };

/** ClientAdministrator includes ClientUser. */
export function clientRoleAtLeast(role: ClientRole | undefined, minimum: ClientRole): boolean {
  return role !== undefined && CLIENT_RANK[role] >= CLIENT_RANK[minimum];
}

export function higherClientRole(a: ClientRole | undefined, b: ClientRole | undefined): ClientRole | undefined {
  if (!a) return b;
  if (!b) return a;
  return CLIENT_RANK[a] >= CLIENT_RANK[b] ? a : b;
}
