import { describe, expect, it } from 'vitest';
import { branchMatches, filtersCoverRepository, matchRepoFilters, repositoriesToList } from './repo-filters.js';
import type { RepoFilter } from './trigger-records.js';

const filter = (value: string, targetBranchPatterns: string[] = []): RepoFilter => ({
  repositoryName: null,
  displayName: null,
  canonicalSourceRef: { provider: 'gitHostC', value },
  targetBranchPatterns,
});

describe('repository filters', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'refs/heads/main', true],
    ['main', 'maintenance', false],
    ['release/*', 'release/2026.1', true],
    ['release/*', 'release', false],
    ['release/*', 'hotfix/release/1', false],
    ['*', 'anything', true],
  ])('pattern %s against branch %s: %s', (pattern, branch, expected) => {
    expect(branchMatches(pattern, branch)).toBe(expected);
  });

  it('covers the whole scope without filters, and every branch of a filter without patterns', () => {
    expect(matchRepoFilters([], 'any', 'any')).toEqual({ inScope: true });
    expect(matchRepoFilters([filter('r1')], 'R1', 'feature/x')).toEqual({ inScope: true });
  });

  it('compares repository ids without case or Bitbucket braces', () => {
    const uuid = '5b7f0a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(matchRepoFilters([filter(`{${uuid}}`)], uuid.toUpperCase(), undefined).inScope).toBe(true);
    expect(filtersCoverRepository([filter(uuid)], `{${uuid}}`)).toBe(true);
  });

  it('refuses another repository, and a branch no pattern matches, saying why', () => {
    expect(matchRepoFilters([filter('r1', ['main'])], 'r2', 'main')).toMatchObject({
      inScope: false,
      reason: expect.stringMatching(/not among/),
    });
    expect(matchRepoFilters([filter('r1', ['release/*'])], 'r1', 'main')).toMatchObject({
      inScope: false,
      reason: expect.stringMatching(/'main' matches none/),
    });
    // Two filters on one repository: either may cover the branch.
    expect(matchRepoFilters([filter('r1', ['release/*']), filter('r1', ['main'])], 'r1', 'main').inScope).toBe(true);
    // Branch unknown yet: only the repository is checked.
    expect(matchRepoFilters([filter('r1', ['release/*'])], 'r1', undefined).inScope).toBe(true);
  });

  it('lists each filtered repository once, or the whole scope', () => {
    expect(repositoriesToList([])).toBeUndefined();
    expect(repositoriesToList([filter('R1', ['a']), filter('r1', ['b']), filter('r2')])).toEqual(['R1', 'r2']);
  });
});
