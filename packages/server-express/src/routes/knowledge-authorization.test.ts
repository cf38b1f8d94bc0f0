import { GH_REPOSITORY_ID } from '@margin/providers/testing';
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
 * Who may edit, delete and refresh knowledge sources, read their index, search and list symbols.
 * Writes need ClientAdministrator, reads ClientUser; another client's administrator never reaches them.
 */
describe('authorization matrix: the code-knowledge index', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let api: Record<Persona, TestApi>;
  const ids = { clientA: '', scope: '', source: '', doomed: '' };
  let made = 0;

  const created = async (pending: Promise<{ status: number; body: any }>) => {
    const res = await pending;
    if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const newSource = async () =>
    created(
      (await host.admin()).post(`/admin/clients/${ids.clientA}/knowledge/sources`, {
        displayName: 'Uploader',
        sourceKind: 'repository',
        organizationScopeId: ids.scope,
        providerProjectKey: 'acme',
        canonicalSourceRef: { provider: 'gitHostA', value: made++ === 0 ? GH_REPOSITORY_ID : `repo-${made}` },
        defaultBranch: 'main',
      }),
    );

  beforeAll(async () => {
    fakes = await startScmFakes();
    // No worker: refreshes stay queued, which is all these rows need.
    host = await startTestHost({ providers: fakes.providers, env: { WORKER_ENABLED: 'false' } });
    const admin = await host.admin();
    const personas = await setUpPersonas(host);
    api = personas.api;
    ids.clientA = personas.clientA;
    const connection = await created(admin.post(`/clients/${ids.clientA}/provider-connections`, fakes.bodies.github()));
    ids.scope = await created(
      admin.post(`/clients/${ids.clientA}/provider-connections/${connection}/scopes`, {
        scopeType: 'organization',
        scopePath: fakes.scopePaths.github,
      }),
    );
    ids.source = await newSource();
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  const base = () => `/admin/clients/${ids.clientA}/knowledge`;
  const rows: MatrixRow[] = [
    {
      name: 'edit a knowledge source',
      method: 'PATCH',
      path: () => `${base()}/sources/${ids.source}`,
      body: () => ({ displayName: `Renamed ${made++}` }),
      expected: clientAdmins(200),
    },
    {
      name: 'delete a knowledge source',
      method: 'DELETE',
      path: () => `${base()}/sources/${ids.doomed}`,
      prepare: async () => {
        ids.doomed = await newSource();
      },
      expected: clientAdmins(204),
    },
    {
      name: 'refresh a knowledge source',
      method: 'POST',
      path: () => `${base()}/sources/${ids.source}/refresh`,
      body: () => ({}),
      expected: clientAdmins(202),
    },
    {
      name: 'read a knowledge index',
      method: 'GET',
      path: () => `${base()}/sources/${ids.source}/index`,
      expected: clientUsers(200),
    },
    {
      name: 'search knowledge',
      method: 'POST',
      path: () => `${base()}/search`,
      body: () => ({ query: 'upload', mode: 'lexical' }),
      expected: clientUsers(200),
    },
    {
      name: 'list knowledge symbols',
      method: 'GET',
      path: () => `${base()}/symbols?name=upload`,
      expected: clientUsers(200),
    },
    {
      name: 'read knowledge token usage',
      method: 'GET',
      path: () => `${base()}/token-usage?groupBy=model`,
      expected: clientUsers(200),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await checkMatrixRow(api, row);
  });

  it('covers every endpoint of the knowledge routes', async () => {
    const { knowledgeRoutes } = await import('./knowledge-routes.js');
    expectEveryRouteCovered(rows, knowledgeRoutes);
  });
});
