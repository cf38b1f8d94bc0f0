import type { CommitStatusState, ScmProviderV1 } from '@margin/core/spec';
import { statusDescription } from '../shared/index.js';
import { type AzureDevOpsConnection, pullRequestUrl } from './azure-devops-connection.js';

/** `GitStatusState` values (camelCase on the wire). */
const ADO_STATE: Record<CommitStatusState, string> = {
  pending: 'pending',
  success: 'succeeded',
  failure: 'failed',
  error: 'error',
};

/** The genre groups Margin's statuses in the pull request's checks; the name tells them apart. */
const GENRE = 'margin';
const DESCRIPTION_LIMIT = 140;

/**
 * Azure DevOps keeps statuses on the pull request, not the commit
 * (`POST .../pullRequests/{id}/statuses`); pinned to the revision's iteration when it has one, so a
 * push shows the status as belonging to the iteration it was about. The newest status of a
 * `{genre, name}` is the one the pull request shows.
 */
export function azureDevOpsCommitStatus(ado: AzureDevOpsConnection): Required<Pick<ScmProviderV1, 'setCommitStatus'>> {
  return {
    async setCommitStatus(ref, input, options) {
      const iterationId = Number(input.revision.revisionId);
      await ado.client.request({
        method: 'POST',
        url: `${pullRequestUrl(ado, ref)}/statuses`,
        json: {
          state: ADO_STATE[input.state],
          description: statusDescription(input.description, DESCRIPTION_LIMIT),
          context: { name: input.name, genre: GENRE },
          ...(input.targetUrl ? { targetUrl: input.targetUrl } : {}),
          ...(Number.isSafeInteger(iterationId) && iterationId > 0 ? { iterationId } : {}),
        },
        signal: options?.signal,
      });
    },
  };
}
