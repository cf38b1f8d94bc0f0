import type { CommitStatusInput, CommitStatusState } from '@margin/core/spec';

/** Forgejo's commit-status states include the port's four as they are (and `warning`, unused). */
const FORGEJO_STATE: Record<CommitStatusState, string> = {
  pending: 'pending',
  success: 'success',
  failure: 'failure',
  error: 'error',
};

/** Forgejo keeps descriptions in a short column; one line of at most this many characters. */
const DESCRIPTION_LIMIT = 140;

/**
 * The request for `POST /repos/{owner}/{repo}/statuses/{sha}`: `context` is the status's name, and a
 * later status of the same context on the commit replaces the earlier one.
 */
export function forgejoCommitStatus(repoPath: string, input: CommitStatusInput) {
  const line = input.description.replace(/\s+/g, ' ').trim();
  return {
    path: `${repoPath}/statuses/${encodeURIComponent(input.revision.headSha)}`,
    json: {
      state: FORGEJO_STATE[input.state],
      context: input.name,
      description: line.length <= DESCRIPTION_LIMIT ? line : `${line.slice(0, DESCRIPTION_LIMIT - 1).trimEnd()}…`,
      ...(input.targetUrl ? { target_url: input.targetUrl } : {}),
    },
  };
}
