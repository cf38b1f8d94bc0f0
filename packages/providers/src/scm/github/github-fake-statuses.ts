import { type CommitStatusBoard, createCommitStatusBoard } from '../../testing/commit-statuses.js';
import { type GitHubFakeContext, ghFixture, R, unprocessable } from './github-fake-context.js';

const STATES = new Set(['pending', 'success', 'failure', 'error']);

/**
 * Commit statuses (`POST /repositories/{id}/statuses/{sha}`): checked as GitHub checks them (a known
 * state, a SHA, at most 140 characters of description) and recorded; refused with GitHub's 403 for a
 * token without the statuses permission while `refuseStatuses()` holds.
 */
export function serveStatuses(fake: GitHubFakeContext): CommitStatusBoard {
  const board = createCommitStatusBoard(() => ({ status: 403, json: ghFixture('error-resource-not-accessible') }));
  fake.route('POST', `${R}/statuses/:sha`, (req) => {
    const body = (req.json ?? {}) as { state?: string; context?: string; description?: string; target_url?: string };
    if (!/^[0-9a-f]{40}$/.test(req.params.sha ?? '') || !STATES.has(body.state ?? '')) return unprocessable();
    if ((body.description?.length ?? 0) > 140) return unprocessable();
    return board.receive(
      {
        commit: req.params.sha ?? '',
        name: body.context ?? 'default',
        state: body.state ?? '',
        description: body.description,
        targetUrl: body.target_url,
        body: req.json,
      },
      () => ({
        status: 201,
        json: {
          ...ghFixture<object>('commit-status'),
          id: fake.nextId(),
          state: body.state,
          context: body.context ?? 'default',
          description: body.description ?? null,
          target_url: body.target_url ?? null,
        },
      }),
    );
  });
  return board;
}
