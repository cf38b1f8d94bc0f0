import type { CommitStatusInput, CommitStatusState, PullRequestRef } from '@margin/core/spec';
import { encodeSegment } from '../../utils/index.js';
import { statusCommit, statusDescription } from '../shared/index.js';
import type { GitLabClient } from './gitlab-client.js';

/**
 * GitLab's commit-status states are a pipeline's: a review under way is `running` (a `pending` status
 * reads as "waiting to start"), and GitLab has no `error`, so both ends that are not a success are
 * `failed`.
 */
const GITLAB_STATE: Record<CommitStatusState, string> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  error: 'failed',
};

/** Kept as short as GitHub's, which GitLab shows in the same narrow pipeline widget. */
const DESCRIPTION_LIMIT = 140;

/**
 * `POST /projects/:id/statuses/:sha`. The status's `name` tells it apart from CI jobs, and a later
 * status of the same name on the same commit replaces the earlier one.
 */
export async function setGitLabCommitStatus(
  client: GitLabClient,
  ref: PullRequestRef,
  input: CommitStatusInput,
  signal: AbortSignal | undefined,
): Promise<void> {
  await client.request({
    method: 'POST',
    path: `/projects/${encodeSegment(ref.repositoryId)}/statuses/${statusCommit(input.revision.headSha)}`,
    json: {
      state: GITLAB_STATE[input.state],
      name: input.name,
      description: statusDescription(input.description, DESCRIPTION_LIMIT),
      ...(input.targetUrl ? { target_url: input.targetUrl } : {}),
    },
    signal,
  });
}
