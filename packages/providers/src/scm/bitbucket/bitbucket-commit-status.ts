import type { CommitStatusInput, CommitStatusState } from '@margin/core/spec';
import { statusCommit, statusDescription } from '../shared/index.js';

/** Bitbucket build states; it has no `error`, so both ends that are not a success are `FAILED`. */
const BITBUCKET_STATE: Record<CommitStatusState, string> = {
  pending: 'INPROGRESS',
  success: 'SUCCESSFUL',
  failure: 'FAILED',
  error: 'FAILED',
};

const DESCRIPTION_LIMIT = 140;

/**
 * The build status body for `POST {repo}/commit/{sha}/statuses/build`. The `key` identifies the
 * status on the commit (a later one of the same key replaces it), so it is derived from the name;
 * `url` is required by Bitbucket, so without a target the pull request's own page stands in.
 */
export function bitbucketBuildStatus(input: CommitStatusInput, fallbackUrl: string) {
  return {
    path: `/commit/${statusCommit(input.revision.headSha)}/statuses/build`,
    json: {
      key: statusKey(input.name),
      name: input.name,
      state: BITBUCKET_STATE[input.state],
      description: statusDescription(input.description, DESCRIPTION_LIMIT),
      url: input.targetUrl ?? fallbackUrl,
    },
  };
}

/** `Margin review` → `margin-review`: Bitbucket keys are short identifiers, names are for people. */
export function statusKey(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'margin'
  );
}
