import { GITLAB_PROJECT_ID } from '@margin/providers/testing';
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
} from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';

/**
 * Who may call each endpoint of provider connections, scopes, reviewer identity and discovery.
 * Commercial edition, so repeated creates are not refused for the license; the GitLab fake answers
 * the provider calls, so an allowed call really succeeds.
 */
describe('authorization matrix: provider connections and discovery', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let api: Record<Persona, TestApi>;
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
    await admin.patch('/admin/licensing', { edition: 'Commercial' });
    const personas = await setUpPersonas(host);
    api = personas.api;
    ids.clientA = personas.clientA;
    ids.clientB = personas.clientB;

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

  const rows: MatrixRow[] = [
    { name: 'list connections', method: 'GET', path: connections, expected: clientUsers(200) },
    {
      name: 'create a connection',
      method: 'POST',
      path: connections,
      body: () => fakes.bodies.gitlab({ hostBaseUrl: `https://gitlab-${++made}.example` }),
      expected: clientAdmins(201),
    },
    { name: 'read a connection', method: 'GET', path: connection, expected: clientUsers(200) },
    {
      name: 'change a connection',
      method: 'PATCH',
      path: connection,
      body: () => ({ displayName: 'GitLab' }),
      expected: clientAdmins(200),
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
      expected: clientAdmins(204),
    },
    {
      name: 'verify a connection',
      method: 'POST',
      path: () => `${connection()}/verify`,
      expected: clientAdmins(200),
    },
    { name: 'list scopes', method: 'GET', path: () => `${connection()}/scopes`, expected: clientUsers(200) },
    {
      name: 'create a scope',
      method: 'POST',
      path: () => `${connection()}/scopes`,
      body: () => ({ scopeType: 'organization', scopePath: `${fakes.scopePaths.gitlab}-${++made}` }),
      expected: clientAdmins(201),
    },
    {
      name: 'change a scope',
      method: 'PATCH',
      path: () => `${connection()}/scopes/${ids.scope}`,
      body: () => ({ displayName: 'Acme' }),
      expected: clientAdmins(200),
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
      expected: clientAdmins(204),
    },
    {
      name: 'resolve reviewer identities',
      method: 'GET',
      path: () => `${connection()}/reviewer-identities/resolve?search=ad`,
      expected: clientAdmins(200),
    },
    {
      name: 'set the reviewer identity',
      method: 'PUT',
      path: () => `${connection()}/reviewer-identity`,
      body: () => ({ externalUserId: '99', login: 'margin-bot', isBot: true }),
      expected: clientAdmins(200),
    },
    {
      name: 'read the reviewer identity',
      method: 'GET',
      path: () => `${connection()}/reviewer-identity`,
      expected: clientUsers(200),
    },
    { name: 'discover projects', method: 'GET', path: () => discovery('projects', {}), expected: clientUsers(200) },
    {
      name: 'discover projects for crawling',
      method: 'GET',
      path: () => discovery('projects', { purpose: 'crawl' }),
      expected: clientUsers(200),
    },
    {
      name: 'discover sources',
      method: 'GET',
      path: () => discovery('sources', { projectId: 'acme', sourceKind: 'repository' }),
      expected: clientUsers(200),
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
      expected: clientUsers(200),
    },
    {
      name: 'discover crawl filters',
      method: 'GET',
      path: () => discovery('crawl-filters', { projectId: 'acme', purpose: 'crawl' }),
      expected: clientUsers(200),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await checkMatrixRow(api, row);
  });

  it('covers every endpoint of provider connections and discovery', async () => {
    const { providerConnectionsRoutes } = await import('./provider-connections-routes.js');
    const { discoveryRoutes } = await import('./discovery-routes.js');
    expectEveryRouteCovered(rows, [...providerConnectionsRoutes, ...discoveryRoutes]);
  });
});
