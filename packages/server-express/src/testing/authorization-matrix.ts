import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { expect } from 'vitest';
import type { RouteSpec } from '../http/route.js';
import type { TestApi } from './test-api.js';
import type { TestHost } from './test-host.js';

/** The six callers every authorization matrix runs each endpoint as. */
export const PERSONAS = [
  'anonymous',
  'clientUser',
  'clientAdmin',
  'otherClientAdmin',
  'tenantAdmin',
  'platformAdmin',
] as const;
export type Persona = (typeof PERSONAS)[number];

export interface MatrixRow {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  /** Runs before each persona's call, so every call meets the same state. */
  prepare?: () => Promise<void>;
  expected: Record<Persona, number>;
}

export interface Personas {
  api: Record<Persona, TestApi>;
  /** The client the ClientUser and ClientAdministrator personas have a role on. */
  clientA: string;
  /** The client of the other administrator. */
  clientB: string;
  tenantId: string;
  userIds: Record<Exclude<Persona, 'anonymous' | 'platformAdmin'>, string>;
}

/**
 * Client A with a ClientUser and a ClientAdministrator, client B with its own administrator, and an
 * administrator of their tenant (the System tenant unless another is given; then the edition must
 * already be Commercial). With `tenantUsers`, the three client personas are also TenantUsers.
 */
export async function setUpPersonas(
  host: TestHost,
  options: { tenantId?: string; tenantUsers?: boolean } = {},
): Promise<Personas> {
  const admin = await host.admin();
  const tenantId = options.tenantId ?? SYSTEM_TENANT_ID;
  const created = async (name: string) => {
    const res = await admin.post('/clients', { displayName: name, tenantId });
    if (res.status !== 201) throw new Error(`creating ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const clientA = await created('Client A');
  const clientB = await created('Client B');
  const [cu, ca, oca, ta] = await Promise.all(
    ['client-user', 'client-admin', 'other-client-admin', 'tenant-admin'].map((name) => host.createUser(name)),
  );
  if (!cu || !ca || !oca || !ta) throw new Error('persona setup failed');
  await admin.put(`/clients/${clientA}/members/${cu.id}`, { role: 'ClientUser' });
  await admin.put(`/clients/${clientA}/members/${ca.id}`, { role: 'ClientAdministrator' });
  await admin.put(`/clients/${clientB}/members/${oca.id}`, { role: 'ClientAdministrator' });
  await admin.put(`/admin/tenants/${tenantId}/members/${ta.id}`, { role: 'TenantAdministrator' });
  if (options.tenantUsers) {
    for (const user of [cu, ca, oca])
      await admin.put(`/admin/tenants/${tenantId}/members/${user.id}`, { role: 'TenantUser' });
  }
  return {
    api: {
      anonymous: host.api,
      clientUser: cu.api,
      clientAdmin: ca.api,
      otherClientAdmin: oca.api,
      tenantAdmin: ta.api,
      platformAdmin: admin,
    },
    clientA,
    clientB,
    tenantId,
    userIds: { clientUser: cu.id, clientAdmin: ca.id, otherClientAdmin: oca.id, tenantAdmin: ta.id },
  };
}

/** Everyone signed in gets `status`; anonymous callers 401. */
export const everyone = (status: number): Record<Persona, number> => ({
  anonymous: 401,
  clientUser: status,
  clientAdmin: status,
  otherClientAdmin: status,
  tenantAdmin: status,
  platformAdmin: status,
});
/** Only the platform administrator; other signed-in callers 403. */
export const platformAdminOnly = (ok: number) => ({ ...everyone(403), platformAdmin: ok });
/** ClientUser and up on client A; the other client's administrator does not even learn it exists. */
export const clientUsers = (ok: number) => ({ ...everyone(ok), otherClientAdmin: 404 });
/** ClientAdministrator and up on client A (a tenant administrator is one on every client of its tenant). */
export const clientAdmins = (ok: number) => ({ ...clientUsers(ok), clientUser: 403 });
/** Tenant routes: administrators of the tenant (and the platform); nobody else learns it exists. */
export const tenantAdmins = (ok: number) => ({ ...everyone(404), tenantAdmin: ok, platformAdmin: ok });

/** Calls the row's endpoint as every persona and checks each status and that errors have the usual shape. */
export async function checkMatrixRow(api: Record<Persona, TestApi>, row: MatrixRow): Promise<void> {
  const got: Record<string, number> = {};
  for (const persona of PERSONAS) {
    await row.prepare?.();
    const res = await api[persona].request(row.method, row.path(), row.body?.());
    got[persona] = res.status;
    if (res.status >= 400) {
      expect(res.body, `${persona}: error shape`).toMatchObject({
        error: expect.any(String),
        code: expect.any(String),
      });
    }
  }
  expect(got).toEqual(row.expected);
}

/**
 * Fails naming each signed-in route no row calls, so a new endpoint cannot skip the matrix. Row
 * paths name records by id (UUIDs); route paths by `{param}`; both compare as `{id}`.
 */
export function expectEveryRouteCovered(rows: readonly MatrixRow[], routes: readonly RouteSpec[]): void {
  const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
  const covered = new Set(
    rows.map((r) => key(r.method, new URL(r.path(), 'http://x').pathname.replace(/[0-9a-f-]{36}/g, '{id}'))),
  );
  for (const spec of routes) {
    if (spec.access === 'public') continue;
    expect(covered, key(spec.method, spec.path)).toContain(key(spec.method, spec.path.replace(/\{[^}]+\}/g, '{id}')));
  }
}
