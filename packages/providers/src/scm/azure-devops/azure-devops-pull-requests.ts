import {
  MarginError,
  type PullRequestRef,
  type PullRequestSnapshot,
  type PullRequestSummary,
  type Revision,
  type ScmProviderV1,
  type ScmScopeRef,
} from '@margin/core/spec';
import { branchName } from '../shared/index.js';
import {
  type AzureDevOpsConnection,
  getJson,
  projectUrl,
  pullRequestUrl,
  type Signal,
} from './azure-devops-connection.js';
import {
  type AdoIteration,
  type AdoList,
  type AdoPullRequest,
  iterationIdOf,
  pullRequestStatus,
  toRevision,
  toUser,
} from './azure-devops-wire.js';

/** A pull request and its revisions, which are its iterations (one per push). */
export function azureDevOpsPullRequests(
  ado: AzureDevOpsConnection,
): Pick<ScmProviderV1, 'getPullRequest' | 'listRevisions'> {
  return {
    async getPullRequest(ref, options) {
      const signal = options?.signal;
      const pr = await getJson<AdoPullRequest>(ado, pullRequestUrl(ado, ref), signal);
      const snapshot: PullRequestSnapshot = {
        ref: { ...ref, repositoryId: pr.repository.id, pullRequestId: pr.pullRequestId },
        title: pr.title,
        description: pr.description ?? '',
        status: pullRequestStatus(pr.status),
        isDraft: pr.isDraft ?? false,
        sourceBranch: branchName(pr.sourceRefName),
        targetBranch: branchName(pr.targetRefName),
        author: toUser(pr.createdBy),
        revision: await newestRevision(ado, ref, pr, signal),
        repositoryName: pr.repository.name,
        webUrl: webUrl(ado, ref, pr),
        reviewers: pr.reviewers?.map(toUser),
      };
      return snapshot;
    },

    async listRevisions(ref, options) {
      const signal = options?.signal;
      const [pr, list] = await Promise.all([
        getJson<AdoPullRequest>(ado, pullRequestUrl(ado, ref), signal),
        iterations(ado, ref, signal),
      ]);
      return revisionsOf(pr, list);
    },
  };
}

/** A listed pull request as the port summarizes it; its revision is the newest iteration, as in `getPullRequest`. */
export async function pullRequestSummaryOf(
  ado: AzureDevOpsConnection,
  scope: ScmScopeRef,
  pr: AdoPullRequest,
  signal: Signal,
): Promise<PullRequestSummary> {
  const ref: PullRequestRef = { ...scope, repositoryId: pr.repository.id, pullRequestId: pr.pullRequestId };
  return {
    ref,
    title: pr.title,
    status: pullRequestStatus(pr.status),
    isDraft: pr.isDraft ?? false,
    sourceBranch: branchName(pr.sourceRefName),
    targetBranch: branchName(pr.targetRefName),
    revision: await newestRevision(ado, ref, pr, signal),
    repositoryName: pr.repository.name,
    reviewers: pr.reviewers?.map(toUser),
  };
}

/** The iteration a revision names; one keyed by head SHA (e.g. from a webhook) is the iteration that ends there. */
export async function resolveIterationId(
  ado: AzureDevOpsConnection,
  ref: PullRequestRef,
  revision: Revision,
  signal: Signal,
): Promise<number | undefined> {
  const direct = iterationIdOf(revision.revisionId);
  if (direct !== undefined) return direct;
  const list = await iterations(ado, ref, signal);
  return list.findLast((it) => it.sourceRefCommit?.commitId === revision.headSha)?.id ?? list.at(-1)?.id;
}

async function iterations(ado: AzureDevOpsConnection, ref: PullRequestRef, signal: Signal) {
  const { value } = await getJson<AdoList<AdoIteration>>(ado, `${pullRequestUrl(ado, ref)}/iterations`, signal);
  return value.sort((a, b) => a.id - b.id);
}

function revisionsOf(pr: AdoPullRequest, list: AdoIteration[]): Revision[] {
  const fallback = { head: pr.lastMergeSourceCommit?.commitId ?? '', base: pr.lastMergeTargetCommit?.commitId ?? '' };
  if (list.length === 0) return [{ revisionId: fallback.head, headSha: fallback.head, baseSha: fallback.base }];
  return list.map((iteration) => toRevision(iteration, fallback));
}

async function newestRevision(
  ado: AzureDevOpsConnection,
  ref: PullRequestRef,
  pr: AdoPullRequest,
  signal: Signal,
): Promise<Revision> {
  const newest = revisionsOf(pr, await iterations(ado, ref, signal)).at(-1);
  if (!newest) throw MarginError.provider('invalidResponse', 'Azure DevOps listed no iterations.');
  return newest;
}

function webUrl(ado: AzureDevOpsConnection, scope: ScmScopeRef, pr: AdoPullRequest): string {
  return `${projectUrl(ado, scope)}/_git/${encodeURIComponent(pr.repository.name)}/pullrequest/${pr.pullRequestId}`;
}
