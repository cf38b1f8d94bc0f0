import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { requireCapability } from '../licensing/index.js';
import type { ProviderFamily, ScmRepository } from '../scm-provider/index.js';
import { type OpenedScmScope, scopeWithConnection } from './open-scm-provider.js';
import {
  DiscoverBranchesQuery,
  DiscoverCrawlFiltersQuery,
  DiscoverProjectsQuery,
  DiscoverSourcesQuery,
} from './schemas.js';
import type { ScmDeps } from './scm-deps.js';
import { requireWikiSources } from './support-matrix.js';

/** Provider listings are read whole up to this many items; `truncated` says when more were left out. */
export const DISCOVERY_LIMIT = 2000;

const WIKI_LISTING_UNAVAILABLE =
  'Azure DevOps wikis cannot be listed: this source-control adapter offers no wiki listing. Enter the wiki’s repository id by hand.';

async function take<T>(items: AsyncIterable<T>): Promise<{ items: T[]; truncated: boolean }> {
  const out: T[] = [];
  for await (const item of items) {
    if (out.length === DISCOVERY_LIMIT) return { items: out, truncated: true };
    out.push(item);
  }
  return { items: out, truncated: false };
}

/** Validation is done by the caller; then authorization, licensing, and the scope with its adapter. */
async function openScope(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  scopeId: string,
  purpose?: string | undefined,
): Promise<OpenedScmScope> {
  await deps.authz.requireClient(actor, 'scm.discovery', clientId);
  if (purpose === 'crawl') await requireCapability(deps, 'crawl-configs');
  return scopeWithConnection(deps, clientId, scopeId);
}

const sourceRef = (family: ProviderFamily, repository: ScmRepository) => ({
  provider: family,
  value: repository.repositoryId,
});

/** Projects under the scope: ADO projects, the GitHub owner, GitLab groups, Bitbucket workspace and projects. */
export async function discoverProjects(deps: ScmDeps, actor: Actor, clientId: string, query: unknown) {
  const q = DiscoverProjectsQuery.parse(query);
  const { scope, provider } = await openScope(deps, actor, clientId, q.organizationScopeId, q.purpose);
  const { items, truncated } = await take(provider.listProjects(scope.scopePath));
  return {
    items: items.map((p) => ({ projectId: p.projectKey, providerProjectKey: p.projectKey, displayName: p.name })),
    truncated,
  };
}

/**
 * Repositories of a project, or for `adoWiki` its wikis: each named by its backing repository (what a
 * wiki source names) with the branch it is published from (a project wiki: `wikiMaster`).
 */
export async function discoverSources(deps: ScmDeps, actor: Actor, clientId: string, query: unknown) {
  const q = DiscoverSourcesQuery.parse(query);
  const opened = await openScope(deps, actor, clientId, q.organizationScopeId);
  const { scope, connection, provider } = opened;
  const family = connection.providerFamily;
  if (q.sourceKind === 'adoWiki') {
    requireWikiSources(opened.family);
    if (!provider.listWikis) return { items: [], truncated: false, warnings: [WIKI_LISTING_UNAVAILABLE] };
    const wikis = await take(provider.listWikis({ scopePath: scope.scopePath, projectKey: q.projectId }));
    return {
      items: wikis.items.map((w) => ({
        canonicalSourceRef: { provider: family, value: w.repositoryId },
        displayName: w.name,
        defaultBranch: w.branches[0] ?? null,
      })),
      truncated: wikis.truncated,
      warnings: [],
    };
  }
  const { items, truncated } = await take(
    provider.listRepositories({ scopePath: scope.scopePath, projectKey: q.projectId }),
  );
  return {
    items: items.map((r) => ({
      canonicalSourceRef: sourceRef(family, r),
      displayName: r.name,
      defaultBranch: r.defaultBranch ?? null,
      ...(r.webUrl ? { webUrl: r.webUrl } : {}),
    })),
    truncated,
    warnings: [],
  };
}

/** Branches of one repository (a wiki's branches are those of its backing repository). */
export async function discoverBranches(deps: ScmDeps, actor: Actor, clientId: string, query: unknown) {
  const q = DiscoverBranchesQuery.parse(query);
  const opened = await openScope(deps, actor, clientId, q.organizationScopeId);
  const { scope, connection, provider } = opened;
  const family = connection.providerFamily;
  if (q.sourceKind === 'adoWiki') requireWikiSources(opened.family);
  if (q.canonicalSourceProvider !== family) {
    throw MarginError.validation(
      `canonicalSourceProvider '${q.canonicalSourceProvider}' does not match the scope's provider family '${family}'.`,
      [{ path: 'canonicalSourceProvider', message: `must be ${family}` }],
    );
  }
  const { items, truncated } = await take(
    provider.listBranches({
      scopePath: scope.scopePath,
      projectKey: q.projectId,
      repositoryId: q.canonicalSourceValue,
    }),
  );
  return { items: items.map((branchName) => ({ branchName })), truncated };
}

/**
 * The project's repositories as ready-made `repoFilters` entries for crawl and webhook
 * configurations, each suggesting its default branch as the target branch pattern.
 */
export async function discoverCrawlFilters(deps: ScmDeps, actor: Actor, clientId: string, query: unknown) {
  const q = DiscoverCrawlFiltersQuery.parse(query);
  const { scope, connection, provider } = await openScope(deps, actor, clientId, q.organizationScopeId, q.purpose);
  const { items, truncated } = await take(
    provider.listRepositories({ scopePath: scope.scopePath, projectKey: q.projectId }),
  );
  return {
    items: items.map((r) => ({
      repositoryName: r.name,
      displayName: r.name,
      canonicalSourceRef: sourceRef(connection.providerFamily, r),
      targetBranchPatterns: r.defaultBranch ? [r.defaultBranch] : [],
    })),
    truncated,
  };
}
