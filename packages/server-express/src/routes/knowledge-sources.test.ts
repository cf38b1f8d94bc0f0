import { ADO_REPOSITORY_ID, GH_REPOSITORY_ID } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { scopedClient } from '../testing/triggers-test-support.js';

describe('code-knowledge sources', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;
  let github: Awaited<ReturnType<typeof scopedClient>>;
  let ado: Awaited<ReturnType<typeof scopedClient>>;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({ providers: fakes.providers, env: { WORKER_ENABLED: 'false' } });
    admin = await host.admin();
    github = await scopedClient(admin, fakes, 'github', 'Knowledge GitHub');
    ado = await scopedClient(admin, fakes, 'ado', 'Knowledge ADO');
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  const sources = (clientId: string) => `/admin/clients/${clientId}/knowledge/sources`;
  const body = (overrides: Record<string, unknown> = {}) => ({
    displayName: 'Uploader',
    sourceKind: 'repository',
    organizationScopeId: github.scopeId,
    providerProjectKey: 'acme',
    canonicalSourceRef: { provider: 'gitHostA', value: GH_REPOSITORY_ID },
    defaultBranch: 'main',
    ...overrides,
  });

  it('creates with defaults, lists and reads', async () => {
    const res = await admin.post(sources(github.clientId), body({ unknownField: 1 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      clientId: github.clientId,
      displayName: 'Uploader',
      sourceKind: 'repository',
      organizationScopeId: github.scopeId,
      providerProjectKey: 'acme',
      canonicalSourceRef: { provider: 'gitHostA', value: GH_REPOSITORY_ID },
      sourceDisplayName: 'Uploader',
      defaultBranch: 'main',
      rootPath: '/',
      symbolMode: 'auto',
      trackedBranches: [{ branchName: 'main', refreshTriggerMode: 'manual', miniIndexEnabled: false }],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await admin.get(`${sources(github.clientId)}/${res.body.id}`)).body).toEqual(res.body);
    expect((await admin.get(sources(github.clientId))).body).toEqual({ items: [res.body], nextCursor: null });
    // Another client's source is not found through this client.
    expect((await admin.get(`${sources(ado.clientId)}/${res.body.id}`)).status).toBe(404);
    // The same repository twice is a duplicate.
    expect((await admin.post(sources(github.clientId), body())).status).toBe(409);
  });

  it('takes an ADO wiki on a suiteDevOps scope, with tracked branches and text-only symbols', async () => {
    const res = await admin.post(
      sources(ado.clientId),
      body({
        sourceKind: 'adoWiki',
        organizationScopeId: ado.scopeId,
        providerProjectKey: 'Web Platform',
        canonicalSourceRef: { provider: 'suiteDevOps', value: ADO_REPOSITORY_ID },
        symbolMode: 'textOnly',
        rootPath: '/docs',
        trackedBranches: [
          { branchName: 'main', refreshTriggerMode: 'branchUpdate', miniIndexEnabled: true },
          { branchName: 'release/2026' },
        ],
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      sourceKind: 'adoWiki',
      symbolMode: 'textOnly',
      rootPath: '/docs',
      trackedBranches: [
        { branchName: 'main', refreshTriggerMode: 'branchUpdate', miniIndexEnabled: true },
        { branchName: 'release/2026', refreshTriggerMode: 'manual', miniIndexEnabled: false },
      ],
    });
  });

  it.each([
    ['a wiki on a GitHub scope', { sourceKind: 'adoWiki' }, 'sourceKind'],
    ['an unknown source kind', { sourceKind: 'confluence' }, 'sourceKind'],
    ['an unknown symbol mode', { symbolMode: 'deep' }, 'symbolMode'],
    [
      'a provider other than the scope’s',
      { canonicalSourceRef: { provider: 'gitHostB', value: '1' } },
      'canonicalSourceRef.provider',
    ],
    ['another client’s scope', { organizationScopeId: 'someone-elses' }, 'organizationScopeId'],
    ['a missing default branch', { defaultBranch: undefined }, 'defaultBranch'],
    ['a blank display name', { displayName: '  ' }, 'displayName'],
    [
      'a branch pattern as tracked branch',
      { trackedBranches: [{ branchName: 'release/*' }] },
      'trackedBranches[0].branchName',
    ],
    [
      'a tracked branch twice',
      { trackedBranches: [{ branchName: 'main' }, { branchName: 'main' }] },
      'trackedBranches[1].branchName',
    ],
    [
      'an unknown refresh mode',
      { trackedBranches: [{ branchName: 'main', refreshTriggerMode: 'hourly' }] },
      'trackedBranches[0].refreshTriggerMode',
    ],
  ])('refuses %s with 400 naming the field', async (_name, overrides, path) => {
    const res = await admin.post(sources(github.clientId), body({ ...overrides, providerProjectKey: `p-${path}` }));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('refuses the ADO scope of another client', async () => {
    const res = await admin.post(sources(github.clientId), body({ organizationScopeId: ado.scopeId }));
    expect(res.status).toBe(400);
  });
});
