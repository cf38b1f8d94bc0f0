import { beforeEach, describe, expect, it } from 'vitest';
import {
  connectionBody,
  issuesOf,
  PLATFORM_ADMIN,
  refusalOf,
  SCM_HOST,
  SCM_SCOPE_PATH,
  SCM_SECRET,
  startUseCases,
  type UseCaseHarness,
} from '../use-case-harness.js';

let h: UseCaseHarness;
let clientId: string;
let connectionId: string;
let scopeId: string;
type What = 'projects' | 'sources' | 'branches' | 'crawl-filters';
const discover = (what: What, query: Record<string, unknown>, client = clientId) => {
  const q = { organizationScopeId: scopeId, ...query };
  switch (what) {
    case 'projects':
      return h.core.scm.discoverProjects(PLATFORM_ADMIN, client, q);
    case 'sources':
      return h.core.scm.discoverSources(PLATFORM_ADMIN, client, q);
    case 'branches':
      return h.core.scm.discoverBranches(PLATFORM_ADMIN, client, q);
    case 'crawl-filters':
      return h.core.scm.discoverCrawlFilters(PLATFORM_ADMIN, client, q);
  }
};
const issues = async (what: What, query: Record<string, unknown>) => issuesOf(await refusalOf(discover(what, query)));
const UPLOADER = { provider: 'gitHostA', value: '4242' };

beforeEach(async () => {
  h = await startUseCases();
  ({ clientId, connectionId, scopeId } = await h.scopedClient());
});

describe('discovery', () => {
  it('lists the scope’s projects', async () => {
    expect(await discover('projects', {})).toEqual({
      items: [{ projectId: 'acme', providerProjectKey: 'acme', displayName: 'Acme' }],
      truncated: false,
    });
  });

  it('lists a project’s repositories as sources of the scope’s family', async () => {
    expect(await discover('sources', { projectId: 'acme', sourceKind: 'repository' })).toEqual({
      items: [
        {
          canonicalSourceRef: UPLOADER,
          displayName: 'uploader',
          defaultBranch: 'main',
          webUrl: `${SCM_SCOPE_PATH}/uploader`,
        },
        { canonicalSourceRef: { provider: 'gitHostA', value: '4343' }, displayName: 'empty', defaultBranch: null },
      ],
      truncated: false,
      warnings: [],
    });
  });

  it('lists a repository’s branches', async () => {
    const query = { projectId: 'acme', canonicalSourceProvider: 'gitHostA', canonicalSourceValue: '4242' };
    expect(await discover('branches', query)).toEqual({
      items: [{ branchName: 'main' }, { branchName: 'feature/retries' }],
      truncated: false,
    });
    expect(await issues('branches', { ...query, canonicalSourceProvider: 'gitHostB' })).toEqual([
      { path: 'canonicalSourceProvider', message: 'must be gitHostA' },
    ]);
    expect(await issues('branches', { projectId: 'acme', canonicalSourceProvider: 'gitHostA' })).toEqual([
      { path: 'canonicalSourceValue', message: 'is required' },
    ]);
  });

  it('suggests repository filters for crawl and webhook configurations, targeting each default branch', async () => {
    await h.setEdition('Commercial');
    expect(await discover('crawl-filters', { projectId: 'acme', purpose: 'crawl' })).toEqual({
      items: [
        {
          repositoryName: 'uploader',
          displayName: 'uploader',
          canonicalSourceRef: UPLOADER,
          targetBranchPatterns: ['main'],
        },
        {
          repositoryName: 'empty',
          displayName: 'empty',
          canonicalSourceRef: { provider: 'gitHostA', value: '4343' },
          targetBranchPatterns: [],
        },
      ],
      truncated: false,
    });
  });

  it('refuses purpose=crawl without crawl-configs (409 license_required); other purposes need no license', async () => {
    for (const what of ['projects', 'crawl-filters'] as const) {
      const refused = await refusalOf(discover(what, { projectId: 'acme', purpose: 'crawl' }));
      expect(refused.code).toBe('license_required');
      expect(refused.message).toBe('Scheduled crawling of pull requests needs a Commercial license (crawl-configs).');
      expect(refused.details).toEqual({ capability: 'crawl-configs' });
    }
    expect((await discover('projects', { purpose: 'webhook' })).items).toHaveLength(1);
    expect(await issues('projects', { purpose: 'teleport' })).toEqual([
      { path: 'purpose', message: 'must be one of crawl, webhook, knowledge' },
    ]);
    await h.setEdition('Commercial');
    expect((await discover('projects', { purpose: 'crawl' })).items).toHaveLength(1);
  });

  it('offers wiki sources only on a family that has them, and says so where the adapter cannot list wikis', async () => {
    expect(await issues('sources', { projectId: 'acme', sourceKind: 'adoWiki' })).toEqual([
      { path: 'sourceKind', message: 'must be repository for gitHostA' },
    ]);
    const ado = await h.newClient();
    const connection = await h.core.scm.createProviderConnection(
      PLATFORM_ADMIN,
      ado,
      connectionBody({ providerFamily: 'suiteDevOps', hostBaseUrl: SCM_HOST }),
    );
    const scope = await h.core.scm.createProviderScope(PLATFORM_ADMIN, ado, connection.id, {
      scopeType: 'organization',
      scopePath: SCM_SCOPE_PATH,
    });
    const wikis = await h.core.scm.discoverSources(PLATFORM_ADMIN, ado, {
      organizationScopeId: scope.id,
      projectId: 'acme',
      sourceKind: 'adoWiki',
    });
    expect(wikis).toEqual({
      items: [],
      truncated: false,
      warnings: [expect.stringContaining('wikis cannot be listed')],
    });
  });

  it('validates the query (400)', async () => {
    expect(await issues('projects', { organizationScopeId: undefined })).toEqual([
      { path: 'organizationScopeId', message: 'is required' },
    ]);
    expect(await issues('sources', {})).toEqual([{ path: 'projectId', message: 'is required' }]);
    expect(await issues('sources', { projectId: 'acme', sourceKind: 'wiki' })).toEqual([
      { path: 'sourceKind', message: 'must be one of repository, adoWiki' },
    ]);
  });

  it('answers 404 for an unknown scope and another client’s', async () => {
    const other = await h.scopedClient();
    for (const organizationScopeId of ['00000000-0000-4000-8000-00000000beef', other.scopeId]) {
      const refused = await refusalOf(discover('projects', { organizationScopeId }));
      expect([refused.code, refused.message]).toEqual(['not_found', 'Provider scope not found.']);
    }
  });

  it('refuses a disabled scope and an inactive connection (400, saying which)', async () => {
    await h.core.scm.patchProviderScope(PLATFORM_ADMIN, clientId, connectionId, scopeId, { isEnabled: false });
    const disabled = await refusalOf(discover('projects', {}));
    expect(disabled.message).toBe('The provider scope is disabled; enable it to use it.');
    expect(issuesOf(disabled)).toEqual([{ path: 'organizationScopeId', message: 'names a disabled scope' }]);
    await h.core.scm.patchProviderScope(PLATFORM_ADMIN, clientId, connectionId, scopeId, { isEnabled: true });
    await h.core.scm.patchProviderConnection(PLATFORM_ADMIN, clientId, connectionId, { isActive: false });
    const inactive = await refusalOf(discover('projects', {}));
    expect(inactive.message).toBe('The scope’s provider connection is inactive; activate it to use it.');
    expect(issuesOf(inactive)).toEqual([
      { path: 'organizationScopeId', message: 'belongs to an inactive provider connection' },
    ]);
  });

  it('answers provider failures with their error: a refusal 502 without the secret, a missing scope 404', async () => {
    const wrong = 'scm-canary-wrong-secret-3b9d2f';
    await h.core.scm.patchProviderConnection(PLATFORM_ADMIN, clientId, connectionId, { secret: wrong });
    const refused = await refusalOf(discover('projects', {}));
    expect(refused.code).toBe('provider_unavailable');
    expect(refused.details).toMatchObject({ providerFailure: 'credentials' });
    expect(JSON.stringify(refused.toBody())).not.toContain(wrong);

    await h.core.scm.patchProviderConnection(PLATFORM_ADMIN, clientId, connectionId, { secret: SCM_SECRET });
    const gone = await h.core.scm.createProviderScope(PLATFORM_ADMIN, clientId, connectionId, {
      scopeType: 'organization',
      scopePath: `${SCM_HOST}/no-such-group`,
    });
    expect((await refusalOf(discover('projects', { organizationScopeId: gone.id }))).code).toBe('not_found');
  });
});
