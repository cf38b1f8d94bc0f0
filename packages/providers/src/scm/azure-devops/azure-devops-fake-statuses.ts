import { type CommitStatusBoard, createCommitStatusBoard } from '../../testing/commit-statuses.js';
import { type AzureDevOpsFakeContext, adoFixture, notFound, R } from './azure-devops-fake-context.js';

const STATES = new Set(['notSet', 'pending', 'succeeded', 'failed', 'error', 'notApplicable']);

/**
 * Pull request statuses (`POST .../pullRequests/{id}/statuses`), recorded as `pr:<id>`: a known
 * state and a context name are required; refused with Azure DevOps' permission error (403) while
 * `refuseStatuses()` holds.
 */
export function serveStatuses(fake: AzureDevOpsFakeContext): CommitStatusBoard {
  const board = createCommitStatusBoard(() => ({ status: 403, json: adoFixture('error-status-forbidden') }));
  let nextId = 1;
  fake.route('POST', `${R}/pullRequests/:id/statuses`, (req) => {
    const found = fake.pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    const body = (req.json ?? {}) as {
      state?: string;
      description?: string;
      targetUrl?: string;
      context?: { name?: string; genre?: string };
      iterationId?: number;
    };
    if (!STATES.has(body.state ?? '') || !body.context?.name) {
      return {
        status: 400,
        json: { ...adoFixture<object>('error-thread-refused'), message: 'The status context and state are required.' },
      };
    }
    return board.receive(
      {
        commit: `pr:${found.pullRequestId}`,
        name: body.context.name,
        state: body.state ?? '',
        description: body.description,
        targetUrl: body.targetUrl,
        body: req.json,
      },
      () => ({ json: { ...adoFixture<object>('pull-request-status'), ...body, id: nextId++ } }),
    );
  });
  return board;
}
