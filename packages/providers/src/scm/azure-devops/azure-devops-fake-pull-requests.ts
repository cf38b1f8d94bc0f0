import type { LoadedPullRequest, ScenarioRevision } from '../../testing/scenario-history.js';
import { type AzureDevOpsFakeContext, adoFixture, notFound, R } from './azure-devops-fake-context.js';
import type { AdoIteration, AdoPullRequest } from './azure-devops-wire.js';

/** A pull request and its iterations: the contract scenario's recorded, a loaded scenario's one per push. */
export function servePullRequests(fake: AzureDevOpsFakeContext): void {
  const { route, pr, history } = fake;

  route('GET', `${R}/pullRequests/:id`, (req) => {
    const found = pr(req);
    return found ? { json: found } : notFound('error-pull-request-not-found');
  });

  route('GET', `${R}/pullRequests/:id/iterations`, (req) => {
    const found = pr(req);
    if (!found) return notFound('error-pull-request-not-found');
    const scenario = history.pullRequests.get(found.pullRequestId);
    if (scenario) {
      const value = iterationsOf(fake.basePr, scenario);
      return { json: { value, count: value.length } };
    }
    const fixture = adoFixture<{ value: Array<{ sourceRefCommit: { commitId: string } }> }>('iterations');
    const last = fixture.value.at(-1);
    if (last && found.lastMergeSourceCommit) last.sourceRefCommit.commitId = found.lastMergeSourceCommit.commitId;
    return { json: fixture };
  });
}

/** A loaded scenario as Azure DevOps shows the pull request at its newest push. */
export function scenarioPullRequest(basePr: AdoPullRequest, pull: LoadedPullRequest): AdoPullRequest {
  const { scenario } = pull;
  const latest = pull.revisions.at(-1) as ScenarioRevision;
  const status = { open: 'active', closed: 'abandoned', merged: 'completed' }[scenario.status ?? 'open'];
  return {
    ...basePr,
    pullRequestId: scenario.number,
    title: scenario.title,
    description: scenario.description,
    status,
    isDraft: scenario.isDraft ?? false,
    sourceRefName: `refs/heads/${scenario.sourceBranch}`,
    targetRefName: `refs/heads/${scenario.targetBranch}`,
    lastMergeSourceCommit: { commitId: latest.headSha },
    lastMergeTargetCommit: { commitId: latest.baseSha },
    reviewers: [],
  };
}

function iterationsOf(basePr: AdoPullRequest, pull: LoadedPullRequest): AdoIteration[] {
  return pull.revisions.map((r, i) => {
    const date = new Date(Date.UTC(2026, 4, 5, 12, i)).toISOString();
    return {
      id: i + 1,
      description: pull.scenario.title,
      author: basePr.createdBy,
      createdDate: date,
      updatedDate: date,
      sourceRefCommit: { commitId: r.headSha },
      targetRefCommit: { commitId: r.baseSha },
      commonRefCommit: { commitId: r.mergeBaseSha },
      hasMoreCommits: false,
      reason: i === 0 ? 'create' : r.rewritten ? 'forcePush' : 'push',
    } as AdoIteration;
  });
}
