import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  checkMatrixRow,
  clientAdmins,
  clientUsers,
  expectEveryRouteCovered,
  type MatrixRow,
  type Persona,
  setUpPersonas,
  startTestHost,
  type TestApi,
  type TestHost,
  tenantAdmins,
} from '../testing/index.js';

/**
 * Who may read usage and spend. Token usage is every ClientUser's, in both editions; spend is the
 * tenant administrators', and only with `budgeting` (the role is checked first, so nobody else
 * learns the tenant exists).
 */
describe('authorization matrix: usage and spend', () => {
  let host: TestHost;
  let api: Record<Persona, TestApi>;
  let clientA = '';

  beforeAll(async () => {
    host = await startTestHost();
    const personas = await setUpPersonas(host);
    api = personas.api;
    clientA = personas.clientA;
  });
  afterAll(async () => {
    await host.close();
  });

  const edition = (name: 'Community' | 'Commercial') => async () => {
    await api.platformAdmin.patch('/admin/licensing', { edition: name });
  };

  const rows: MatrixRow[] = [
    {
      name: 'read a client’s token usage (Community)',
      method: 'GET',
      path: () => `/admin/clients/${clientA}/token-usage?groupBy=model`,
      prepare: edition('Community'),
      expected: clientUsers(200),
    },
    {
      name: 'read a tenant’s spend (Community)',
      method: 'GET',
      path: () => `/tenants/${SYSTEM_TENANT_ID}/spend`,
      prepare: edition('Community'),
      expected: tenantAdmins(409),
    },
    {
      name: 'read a tenant’s spend (Commercial)',
      method: 'GET',
      path: () => `/tenants/${SYSTEM_TENANT_ID}/spend?groupBy=day`,
      prepare: edition('Commercial'),
      expected: tenantAdmins(200),
    },
    {
      name: 'read a client’s budget (Community)',
      method: 'GET',
      path: () => `/admin/clients/${clientA}/budget`,
      prepare: edition('Community'),
      expected: clientUsers(409),
    },
    {
      name: 'read a client’s budget (Commercial)',
      method: 'GET',
      path: () => `/admin/clients/${clientA}/budget`,
      prepare: edition('Commercial'),
      expected: clientUsers(200),
    },
    {
      name: 'set a client’s budget (Commercial)',
      method: 'PUT',
      path: () => `/admin/clients/${clientA}/budget`,
      body: () => ({ monthlySoftCapUsd: 50, monthlyHardCapUsd: 100 }),
      prepare: edition('Commercial'),
      expected: clientAdmins(200),
    },
    {
      name: 'set a client’s budget (Community)',
      method: 'PUT',
      path: () => `/admin/clients/${clientA}/budget`,
      body: () => ({ monthlyHardCapUsd: 100 }),
      prepare: edition('Community'),
      expected: clientAdmins(409),
    },
    {
      name: 'reset a client’s budget period (Commercial)',
      method: 'POST',
      path: () => `/admin/clients/${clientA}/budget/reset`,
      prepare: edition('Commercial'),
      expected: clientAdmins(200),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await checkMatrixRow(api, row);
  });

  it('covers every usage and spend endpoint', async () => {
    const { spendRoutes } = await import('./spend-routes.js');
    expectEveryRouteCovered(rows, spendRoutes);
  });
});
