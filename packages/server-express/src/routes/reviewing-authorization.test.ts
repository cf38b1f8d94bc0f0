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

/**
 * Who may call each reviewing endpoint. The worker is off so jobs stay where the test puts them;
 * Commercial, so several jobs may be queued at once.
 */
describe('authorization matrix: reviewing', () => {
  let host: TestHost;
  let api: Record<Persona, TestApi>;
  let clientA = '';
  let pr = 0;
  const submission = () => {
    const number = ++pr;
    return {
      provider: 'gitHostA',
      hostBaseUrl: 'https://github.com',
      repository: { externalRepositoryId: '42', ownerOrNamespace: 'acme', projectPath: 'acme/app' },
      codeReview: { platform: 'pullRequest', externalReviewId: String(number), number },
    };
  };
  const jobs = () => `/clients/${clientA}/reviewing/jobs`;
  /** A fresh job in the given state, made by the platform admin. */
  const jobIn = async (state: 'queued' | 'failed') => {
    const id = (await api.platformAdmin.post(jobs(), submission())).body.jobId as string;
    if (state === 'failed') {
      await host.storage.reviewJobs.transition(id, ['queued'], 'failed', { error: 'test failure' });
    }
    return id;
  };
  let current = '';
  const block = {
    providerScopePath: 'https://github.com/acme',
    providerProjectKey: 'acme',
    repositoryId: '42',
    pullRequestId: 9999,
  };
  let dismissal = '';
  let memory = '';

  beforeAll(async () => {
    host = await startTestHost({ env: { WORKER_ENABLED: 'false' } });
    await (await host.admin()).patch('/admin/licensing', { edition: 'Commercial' });
    const personas = await setUpPersonas(host);
    api = personas.api;
    clientA = personas.clientA;
    current = await jobIn('queued');
  });
  afterAll(async () => {
    await host.close();
  });

  const rows: MatrixRow[] = [
    { name: 'submit a job', method: 'POST', path: jobs, body: submission, expected: clientAdmins(202) },
    { name: 'list jobs', method: 'GET', path: jobs, expected: clientUsers(200) },
    {
      name: 'read a job’s status',
      method: 'GET',
      path: () => `/reviewing/jobs/${current}/status`,
      expected: clientUsers(200),
    },
    {
      name: 'read a job’s protocol',
      method: 'GET',
      path: () => `/jobs/${current}/protocol`,
      expected: clientUsers(200),
    },
    {
      name: 'restart a failed job',
      method: 'POST',
      path: () => `/reviewing/jobs/${current}/restart`,
      prepare: async () => {
        current = await jobIn('failed');
      },
      expected: clientUsers(202),
    },
    {
      name: 'stop a queued job',
      method: 'POST',
      path: () => `/reviewing/jobs/${current}/stop`,
      prepare: async () => {
        current = await jobIn('queued');
      },
      expected: clientAdmins(200),
    },
    {
      name: 'list conversations',
      method: 'GET',
      path: () => `/clients/${clientA}/reviewing/conversations`,
      expected: clientUsers(200),
    },
    {
      name: 'list blocked pull requests',
      method: 'GET',
      path: () => `/clients/${clientA}/reviewing/blocked-prs`,
      expected: clientUsers(200),
    },
    {
      name: 'block a pull request',
      method: 'POST',
      path: () => `/clients/${clientA}/reviewing/blocked-prs`,
      body: () => ({ ...block, reason: 'Freeze' }),
      expected: clientAdmins(200),
    },
    {
      name: 'unblock a pull request',
      method: 'POST',
      path: () => `/clients/${clientA}/reviewing/blocked-prs/unblock`,
      body: () => block,
      expected: clientAdmins(200),
    },
    {
      name: 'dismiss a finding',
      method: 'POST',
      path: () => `/clients/${clientA}/reviewing/dismiss-finding`,
      body: () => ({ findingMessage: 'Prefer const.' }),
      expected: clientAdmins(201),
    },
    {
      name: 'list dismissals',
      method: 'GET',
      path: () => `/clients/${clientA}/reviewing/dismissals`,
      expected: clientUsers(200),
    },
    {
      name: 'forget a dismissal',
      method: 'DELETE',
      path: () => `/clients/${clientA}/reviewing/dismissals/${dismissal}`,
      prepare: async () => {
        dismissal = (
          await api.platformAdmin.post(`/clients/${clientA}/reviewing/dismiss-finding`, { findingMessage: 'x' })
        ).body.id;
      },
      expected: clientAdmins(204),
    },
    {
      name: 'list thread memory',
      method: 'GET',
      path: () => `/clients/${clientA}/reviewing/memory?source=adminDismissed`,
      expected: clientUsers(200),
    },
    {
      name: 'forget a thread memory record',
      method: 'DELETE',
      path: () => `/clients/${clientA}/reviewing/memory/${memory}`,
      prepare: async () => {
        await api.platformAdmin.post(`/clients/${clientA}/reviewing/dismiss-finding`, { findingMessage: 'y' });
        memory = (await api.platformAdmin.get(`/clients/${clientA}/reviewing/memory?source=adminDismissed&limit=1`))
          .body.items[0].id;
      },
      expected: clientAdmins(204),
    },
    {
      name: 'list findings across pushes',
      method: 'GET',
      path: () => `/clients/${clientA}/reviewing/findings?state=open`,
      expected: clientUsers(200),
    },
    {
      name: 'read where a pull request stands',
      method: 'GET',
      path: () => `/clients/${clientA}/reviewing/pull-requests/findings?repositoryId=4242&pullRequestId=7`,
      expected: clientUsers(200),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await checkMatrixRow(api, row);
  });

  it('covers every reviewing endpoint', async () => {
    const { reviewingRoutes } = await import('./reviewing-routes.js');
    expectEveryRouteCovered(rows, reviewingRoutes);
  });
});
