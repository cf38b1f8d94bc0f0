import { diffOf, type LoadedPullRequest, type ScenarioRevision } from '../../testing/scenario-history.js';
import { type GitHubFakeContext, ghFixture, notFound, R } from './github-fake-context.js';
import type { GhPullRequest } from './github-wire.js';

/** A pull request and its commits: the contract scenario's from recorded shapes, a loaded scenario's from its pushes. */
export function servePullRequests(fake: GitHubFakeContext): void {
  const { route, paged, pr, history } = fake;

  route('GET', `${R}/pulls/:n`, (req) => {
    const found = pr(req);
    return found ? { json: found } : notFound();
  });
  route('GET', `${R}/pulls/:n/commits`, (req) => {
    const scenario = history.pullRequests.get(Number(req.params.n));
    if (scenario) {
      const commits = scenario.revisions.map((r, i) => ({
        sha: r.headSha,
        commit: {
          message: `Push ${i + 1}`,
          committer: { date: new Date(Date.UTC(2026, 4, 5, 12, i)).toISOString().replace(/\.\d+Z$/, 'Z') },
        },
        parents: [{ sha: i === 0 ? r.mergeBaseSha : (scenario.revisions[i - 1]?.headSha ?? r.mergeBaseSha) }],
      }));
      return paged(req, commits);
    }
    return pr(req) ? paged(req, ghFixture<unknown[]>('pull-request-commits')) : notFound();
  });
}

/** A loaded scenario as GitHub shows the pull request at its newest push. */
export async function scenarioPullRequest(basePr: GhPullRequest, pull: LoadedPullRequest): Promise<GhPullRequest> {
  const { scenario } = pull;
  const latest = pull.revisions.at(-1) as ScenarioRevision;
  const status = scenario.status ?? 'open';
  const diffs = await Promise.all(latest.changes.map(diffOf));
  return {
    ...basePr,
    number: scenario.number,
    node_id: `PR_fake${scenario.number}`,
    title: scenario.title,
    body: scenario.description,
    state: status === 'open' ? 'open' : 'closed',
    merged: status === 'merged',
    merged_at: status === 'merged' ? '2026-05-06T10:00:00Z' : null,
    draft: scenario.isDraft ?? false,
    html_url: `https://github.com/acme/uploader/pull/${scenario.number}`,
    head: { ...basePr.head, ref: scenario.sourceBranch, sha: latest.headSha },
    base: { ...basePr.base, ref: scenario.targetBranch, sha: latest.baseSha },
    requested_reviewers: [],
    ...({
      commits: pull.revisions.length,
      additions: diffs.reduce((n, d) => n + d.additions, 0),
      deletions: diffs.reduce((n, d) => n + d.deletions, 0),
      changed_files: latest.changes.length,
    } as object),
  };
}
