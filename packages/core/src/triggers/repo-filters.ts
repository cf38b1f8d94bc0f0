import type { ScmProviderFamilyV1 } from '../scm-provider/index.js';
import type { RepoFilter, TriggerConfigurationBase } from './trigger-records.js';

/**
 * Repository ids compare without case, and Bitbucket's braces around a UUID are optional: the same
 * repository may be written `{8c0e…}` in a payload and `8c0e…` by hand.
 */
export function sameRepositoryId(a: string, b: string): boolean {
  return repositoryKey(a) === repositoryKey(b);
}

function repositoryKey(id: string): string {
  return id
    .trim()
    .replace(/^\{(.*)\}$/, '$1')
    .toLowerCase();
}

/** `release/*` matches by prefix; anything else matches the branch exactly. `refs/heads/` is ignored. */
export function branchMatches(pattern: string, branch: string): boolean {
  const strip = (b: string) => b.trim().replace(/^refs\/heads\//, '');
  const p = strip(pattern);
  const name = strip(branch);
  if (p === '*') return true;
  return p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p;
}

export type ScopeDecision = { inScope: true } | { inScope: false; reason: string };

/**
 * Whether a configuration's stored scope covers a pull request. No filters: the whole scope. A filter
 * with no patterns: every target branch of its repository. `targetBranch` undefined when it is not
 * known yet (only the repository is checked then; the branch is checked once it is read).
 */
export function matchRepoFilters(
  filters: readonly RepoFilter[],
  repositoryId: string,
  targetBranch: string | undefined,
): ScopeDecision {
  if (filters.length === 0) return { inScope: true };
  const mine = filters.filter((f) => sameRepositoryId(f.canonicalSourceRef.value, repositoryId));
  if (mine.length === 0) {
    return { inScope: false, reason: 'The repository is not among the configuration’s repository filters.' };
  }
  if (targetBranch === undefined) return { inScope: true };
  const covered = mine.some(
    (f) => f.targetBranchPatterns.length === 0 || f.targetBranchPatterns.some((p) => branchMatches(p, targetBranch)),
  );
  return covered
    ? { inScope: true }
    : {
        inScope: false,
        reason: `The target branch '${targetBranch}' matches none of the repository filter’s branch patterns.`,
      };
}

/** Whether a filter list names a repository (by-coordinates: listed repositories bound the request). */
export function filtersCoverRepository(filters: readonly RepoFilter[], repositoryId: string): boolean {
  return filters.length === 0 || filters.some((f) => sameRepositoryId(f.canonicalSourceRef.value, repositoryId));
}

/**
 * The repositories a crawl lists open pull requests of: each filtered repository once, or undefined
 * for the whole scope.
 */
export function repositoriesToList(filters: readonly RepoFilter[]): string[] | undefined {
  if (filters.length === 0) return undefined;
  const seen = new Map<string, string>();
  for (const f of filters) {
    const key = repositoryKey(f.canonicalSourceRef.value);
    if (!seen.has(key)) seen.set(key, f.canonicalSourceRef.value.trim());
  }
  return [...seen.values()];
}

/** GitLab projects may sit in subgroups of the configured group; elsewhere the key must be equal. */
export function withinProject(configured: string, claimed: string): boolean {
  const a = configured.toLowerCase();
  const b = claimed.toLowerCase();
  return a === b || b.startsWith(`${a}/`);
}

/**
 * Why a repository is outside the configuration's owner (GitHub) or group (GitLab, subgroups
 * included), or undefined when it is inside. Checked before any job is queued, whatever triggered it.
 */
export function outsideConfiguredOwner(
  family: ScmProviderFamilyV1,
  config: Pick<TriggerConfigurationBase, 'providerProjectKey'>,
  repositoryOwner: string | undefined,
): string | undefined {
  // Families that name the project or workspace in every path (Azure DevOps, Bitbucket) are bounded
  // by it already; only those reading a repository by its id alone need the provider's word on its owner.
  if (!family.capabilities.repositoriesById) return undefined;
  const key = config.providerProjectKey;
  if (repositoryOwner === undefined) {
    return `The provider did not say who owns the repository, so it cannot be matched to the configuration's owner or group '${key}'.`;
  }
  if (withinProject(key, repositoryOwner)) return undefined;
  return `The repository belongs to '${repositoryOwner.slice(0, 200)}', outside the configuration's owner or group '${key}'.`;
}
