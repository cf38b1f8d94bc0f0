import type { PullRequestSummary, ScmProject, ScmProviderV1, ScmRepository, ScmUser } from '@margin/core/spec';
import { continuationToken, paginate } from '../../utils/index.js';
import { branchName } from '../shared/index.js';
import { type AzureDevOpsConnection, getJson, PAGE, projectUrl, repositoryUrl } from './azure-devops-connection.js';
import { pullRequestSummaryOf } from './azure-devops-pull-requests.js';
import { type AdoIdentity, type AdoList, type AdoPullRequest, identityToUser } from './azure-devops-wire.js';

interface AdoRepositoryWithState {
  id: string;
  name: string;
  project?: { name: string };
  defaultBranch?: string;
  webUrl?: string;
  remoteUrl?: string;
  isDisabled?: boolean;
}

/**
 * What a connection can see: the organization's (or collection's) projects, their repositories and
 * branches, its identities, and the open pull requests a crawl starts from.
 */
export function azureDevOpsDiscovery(
  ado: AzureDevOpsConnection,
): Pick<ScmProviderV1, 'listOpenPullRequests' | 'listProjects' | 'listRepositories' | 'listBranches' | 'searchUsers'> {
  const { client } = ado;
  return {
    async *listOpenPullRequests(scope, options): AsyncGenerator<PullRequestSummary> {
      const signal = options?.signal;
      const url = scope.repositoryId
        ? `${repositoryUrl(ado, { ...scope, repositoryId: scope.repositoryId })}/pullrequests`
        : `${projectUrl(ado, scope)}/_apis/git/pullrequests`;
      const prs = paginate<AdoPullRequest, number>(0, async (skip) => {
        const { value } = await getJson<AdoList<AdoPullRequest>>(ado, url, signal, {
          'searchCriteria.status': 'active',
          $top: PAGE,
          $skip: skip ?? 0,
        });
        return { items: value, next: value.length < PAGE ? undefined : (skip ?? 0) + value.length };
      });
      // One more call per pull request: the summary's revision is the newest iteration, as in getPullRequest.
      for await (const pr of prs) yield await pullRequestSummaryOf(ado, scope, pr, signal);
    },

    async *listProjects(scopePath, options): AsyncGenerator<ScmProject> {
      const url = `${client.organizationUrl(scopePath)}/_apis/projects`;
      yield* paginate<ScmProject, string>(undefined, async (token) => {
        const response = await client.request<AdoList<{ id: string; name: string }>>({
          url,
          query: { $top: PAGE, continuationToken: token },
          signal: options?.signal,
        });
        return {
          items: response.data.value.map((p) => ({ projectKey: p.name, name: p.name })),
          next: continuationToken(response.headers),
        };
      });
    },

    async *listRepositories(scope, options): AsyncGenerator<ScmRepository> {
      const { value } = await getJson<AdoList<AdoRepositoryWithState>>(
        ado,
        `${projectUrl(ado, scope)}/_apis/git/repositories`,
        options?.signal,
      );
      for (const repo of value) {
        // A disabled repository answers every call with an error; it cannot be reviewed.
        if (repo.isDisabled) continue;
        yield {
          repositoryId: repo.id,
          name: repo.name,
          projectKey: repo.project?.name ?? scope.projectKey,
          defaultBranch: repo.defaultBranch ? branchName(repo.defaultBranch) : undefined,
          webUrl: repo.webUrl ?? repo.remoteUrl,
        };
      }
    },

    async *listBranches(ref, options): AsyncGenerator<string> {
      const url = `${repositoryUrl(ado, ref)}/refs`;
      yield* paginate<string, string>(undefined, async (token) => {
        const response = await client.request<AdoList<{ name: string }>>({
          url,
          query: { filter: 'heads/', $top: PAGE, continuationToken: token },
          signal: options?.signal,
        });
        return { items: response.data.value.map((r) => branchName(r.name)), next: continuationToken(response.headers) };
      });
    },

    async searchUsers(scopePath, search, options): Promise<ScmUser[]> {
      const base = client.identityUrl(client.organizationUrl(scopePath));
      const { value } = await getJson<AdoList<AdoIdentity>>(ado, `${base}/_apis/identities`, options?.signal, {
        searchFilter: 'General',
        filterValue: search,
        queryMembership: 'None',
      });
      return value.filter((identity) => identity.isActive !== false).map(identityToUser);
    },
  };
}
