/**
 * The number an address of a family's shape ends in, or the refusal of one that ends in none (a
 * list page, `pull/x`). Refusing rather than claiming lets another family whose shape really is
 * the address's read it: a GitLab project named `pull` has `GROUP/SUBGROUP/pull/-/merge_requests/7`.
 */
export function pullRequestNumber(segment: string | undefined): number | { refused: string } {
  return segment !== undefined && /^\d+$/.test(segment)
    ? Number(segment)
    : { refused: 'does not end in a pull request number' };
}
