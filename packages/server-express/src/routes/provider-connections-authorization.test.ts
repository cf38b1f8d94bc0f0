import { SYSTEM_TENANT_ID } from '@margin/core';
import { GITLAB_PROJECT_ID } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from './scm-test-support.js';

type Persona = 'anonymous' | 'clientUser' | 'clientAdmin' | 'otherClientAdmin' | 'tenantAdmin' | 'platformAdmin';
const PERSONAS: Persona[] = [
  'anonymous',
  'clientUser',
  'clientAdmin',
  'otherClientAdmin',
  'tenantAdmin',
  'platformAdmin',
];

interface Row {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  /** Runs as the platform admin before each persona's call, so every call meets the same state. */
  prepare?: () => Promise<void>;
  expected: Record<Persona, number>;
}

/**
 * Who may call each endpoint of provider connections, scopes, reviewer identity and discovery.
 * Commercial edition, so repeated creates are not refused for the license; the GitLab fake answers
 * the provider calls, so an allowed call really succeeds.
 */
describe('authorization matrix: provider connections and discovery', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  const api = {} as Record<Persona, TestApi>;
  const ids = { clientA: '', clientB: '', connection: '', scope: '', doomedConnection: '', doomedScope: '' };
  let made = 0;

  const asAdmin = () => host.admin();
  const connections = () => `/clients/${ids.clientA}/provider-connections`;
  const connection = () => `${connections()}/${ids.connection}`;
  const discovery = (what: string, query: Record<string, string>) =>
    `/admin/clients/${ids.clientA}/devops/discovery/${what}?${new URLSearchParams({ organizationScopeId: ids.scope, ...query })}`;
  const created = async (pending: Promise<{ status: number; body: any }>) => {
    const res = await pending;
    if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({ providers: fakes.providers });
    const admin = await host.admin();
    api.anonymous = host.api;
    api.platformAdmin = admin;
    await admin.patch('/admin/licensing', { edition: 'Commercial' });
    ids.clientA = await created(admin.post('/clients', { displayName: 'Client A', tenantId: SYSTEM_TENANT_ID }));
    ids.clientB = await created(admin.post('/clients', { displayName: 'Client B', tenantId: SYSTEM_TENANT_ID }));
    const cu = await host.createUser('client-user');
    const ca = await host.createUser('client-admin');
    const oca = await host.createUser('other-client-admin');
    const ta = await host.createUser('tenant-admin');
    await admin.put(`/clients/${ids.clientA}/members/${cu.id}`, { role: 'ClientUser' });
    await admin.put(`/clients/${ids.clientA}/members/${ca.id}`, { role: 'ClientAdministrator' });
    await admin.put(`/clients/${ids.clientB}/members/${oca.id}`, { role: 'ClientAdministrator' });
    await admin.put(`/admin/tenants/${SYSTEM_TENANT_ID}/members/${ta.id}`, { role: 'TenantAdministrator' });
    Object.assign(api, { clientUser: cu.api, clientAdmin: ca.api, otherClientAdmin: oca.api, tenantAdmin: ta.api });

    ids.connection = await created(admin.post(connections(), fakes.bodies.gitlab()));
    ids.scope = await created(
      admin.post(`${connection()}/scopes`, { scopeType: 'organization', scopePath: fakes.scopePaths.gitlab }),
    );
    await admin.put(`${connection()}/reviewer-identity`, { externalUserId: '99', login: 'margin-bot' });
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  const all = (status: number): Record<Persona, number> => ({
    anonymous: 401,
    clientUser: status,
    clientAdmin: status,
    otherClientAdmin: 404,
    tenantAdmin: status,
    platformAdmin: status,
  });
  /** ClientAdministrator and above; a ClientUser is refused, another client's administrator sees nothing. */
  const administrators = (status: number): Record<Persona, number> => ({ ...all(status), clientUser: 403 });

  const rows: Row[] = [
    { name: 'list connections', method: 'GET', path: connections, expected: all(200) },
    {
      name: 'create a connection',
      method: 'POST',
      path: connections,
      body: () => fakes.bodies.gitlab({ hostBaseUrl: `https://gitlab-${++made}.example` }),
      expected: administrators(201),
    },
    { name: 'read a connection', method: 'GET', path: connection, expected: all(200) },
    {
      name: 'change a connection',
      method: 'PATCH',
      path: connection,
      body: () => ({ displayName: 'GitLab' }),
      expected: administrators(200),
    },
    {
      name: 'delete a connection',
      method: 'DELETE',
      path: () => `${connections()}/${ids.doomedConnection}`,
      prepare: async () => {
        ids.doomedConnection = await created(
          (await asAdmin()).post(connections(), fakes.bodies.gitlab({ hostBaseUrl: `https://gone-${++made}.example` })),
        );
      },
      expected: administrators(204),
    },
    {
      name: 'verify a connection',
      method: 'POST',
      path: () => `${connection()}/verify`,
      expected: administrators(200),
    },
    { name: 'list scopes', method: 'GET', path: () => `${connection()}/scopes`, expected: all(200) },
    {
      name: 'create a scope',
      method: 'POST',
      path: () => `${connection()}/scopes`,
      body: () => ({ scopeType: 'organization', scopePath: `${fakes.scopePaths.gitlab}-${++made}` }),
      expected: administrators(201),
    },
    {
      name: 'change a scope',
      method: 'PATCH',
      path: () => `${connection()}/scopes/${ids.scope}`,
      body: () => ({ displayName: 'Acme' }),
      expected: administrators(200),
    },
    {
      name: 'delete a scope',
      method: 'DELETE',
      path: () => `${connection()}/scopes/${ids.doomedScope}`,
      prepare: async () => {
        ids.doomedScope = await created(
          (await asAdmin()).post(`${connection()}/scopes`, {
            scopeType: 'project',
            scopePath: `${fakes.scopePaths.gitlab}/doomed-${++made}`,
          }),
        );
      },
      expected: administrators(204),
    },
    {
      name: 'resolve reviewer identities',
      method: 'GET',
      path: () => `${connection()}/reviewer-identities/resolve?search=ad`,
      expected: administrators(200),
    },
    {
      name: 'set the reviewer identity',
      method: 'PUT',
      path: () => `${connection()}/reviewer-identity`,
      body: () => ({ externalUserId: '99', login: 'margin-bot', isBot: true }),
      expected: administrators(200),
    },
    {
      name: 'read the reviewer identity',
      method: 'GET',
      path: () => `${connection()}/reviewer-identity`,
      expected: all(200),
    },
    { name: 'discover projects', method: 'GET', path: () => discovery('projects', {}), expected: all(200) },
    {
      name: 'discover projects for crawling',
      method: 'GET',
      path: () => discovery('projects', { purpose: 'crawl' }),
      expected: all(200),
    },
    {
      name: 'discover sources',
      method: 'GET',
      path: () => discovery('sources', { projectId: 'acme', sourceKind: 'repository' }),
      expected: all(200),
    },
    {
      name: 'discover branches',
      method: 'GET',
      path: () =>
        discovery('branches', {
          projectId: 'acme',
          sourceKind: 'repository',
          canonicalSourceProvider: 'gitHostB',
          canonicalSourceValue: String(GITLAB_PROJECT_ID),
        }),
      expected: all(200),
    },
    {
      name: 'discover crawl filters',
      method: 'GET',
      path: () => discovery('crawl-filters', { projectId: 'acme', purpose: 'crawl' }),
      expected: all(200),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const got: Record<string, number> = {};
    for (const persona of PERSONAS) {
      await row.prepare?.();
      const res = await api[persona].request(row.method, row.path(), row.body?.());
      got[persona] = res.status;
      if (res.status >= 400)
        expect(res.body, `${persona}: error shape`).toMatchObject({
          error: expect.any(String),
          code: expect.any(String),
        });
    }
    expect(got).toEqual(row.expected);
  });

  it('covers every endpoint of provider connections and discovery', async () => {
    const { providerConnectionsRoutes } = await import('./provider-connections-routes.js');
    const { discoveryRoutes } = await import('./discovery-routes.js');
    const covered = new Set(
      rows.map((r) => `${r.method} ${new URL(r.path(), 'http://x').pathname.replace(/[0-9a-f-]{36}/g, '{id}')}`),
    );
    for (const spec of [...providerConnectionsRoutes, ...discoveryRoutes]) {
      const path = spec.path.replace(/\{(?:clientId|connectionId|scopeId)\}/g, '{id}');
      expect(covered, `${spec.method.toUpperCase()} ${spec.path}`).toContain(`${spec.method.toUpperCase()} ${path}`);
    }
  });
});
