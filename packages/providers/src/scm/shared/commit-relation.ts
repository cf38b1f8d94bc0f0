import type { CommitComparison } from '@margin/core/spec';

/**
 * How `toSha` relates to `fromSha`, read from their merge base as the provider names it (GitLab
 * `repository/merge_base`, Bitbucket `merge-base/{a}..{b}`); `null` when the provider says the two
 * have no common ancestor, which only a rewritten history produces.
 */
export function relationFromMergeBase(
  fromSha: string,
  toSha: string,
  mergeBaseSha: string | null,
): CommitComparison['relation'] {
  if (sameCommit(fromSha, toSha)) return 'identical';
  if (mergeBaseSha === null) return 'diverged';
  if (sameCommit(mergeBaseSha, fromSha)) return 'ahead';
  if (sameCommit(mergeBaseSha, toSha)) return 'behind';
  return 'diverged';
}

/** Full SHAs compare equal; an abbreviated one (at least 7 characters) matches the SHA it starts. */
export function sameCommit(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return true;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length >= 7 && short.length < long.length && long.startsWith(short);
}
