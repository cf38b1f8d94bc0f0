import type { PullRequestSummary, ScmProject, ScmProviderV1, ScmRepository, ScmUser } from '@margin/core/spec';
import { BoundedCache } from '../../utils/index.js';
import { type GitHubConnection, repositoryPath, type Signal } from './github-connection.js';
import { pullRequestSummaryOf } from './github-pull-requests.js';
import { type GhPullRequest, type GhRepository, type GhUser, toUser } from './github-wire.js';

type DiscoveryPart = Pick<
  ScmProviderV1,
  'listOpenPullRequests' | 'listProjects' | 'listRepositories' | 'listBranches' | 'searchUsers'
>;

/**
 * What a connection can see: owners (as projects), their repositories and branches, users, and the
 * open pull requests a crawl starts from. A GitHub App sees its installation's account and repositories.
 */
export function gitHubDiscovery(github: GitHubConnection): DiscoveryPart {
  const { client } = github;
  const ownerTypes = new BoundedCache<string, string>(256);

  const ownerType = async (owner: string, signal: Signal) => {
    const known = ownerTypes.get(owner.toLowerCase());
    if (known) return known;
    const { data } = await client.rest<GhUser>({ path: `/users/${encodeURIComponent(owner)}`, signal });
    ownerTypes.set(owner.toLowerCase(), data.type ?? 'User');
    return data.type ?? 'User';
  };

  const part: DiscoveryPart = {
    async *listOpenPullRequests(scope, options): AsyncGenerator<PullRequestSummary> {
      const signal = options?.signal;
      const repositories: Iterable<{ repositoryId: string }> | AsyncIterable<{ repositoryId: string }> =
        scope.repositoryId ? [{ repositoryId: scope.repositoryId }] : part.listRepositories(scope, options);
      for await (const { repositoryId } of repositories) {
        const path = `${repositoryPath({ ...scope, repositoryId })}/pulls`;
        for await (const pr of client.pages<GhPullRequest>(
          path,
          { state: 'open', sort: 'created', direction: 'asc' },
          { signal },
        )) {
          yield pullRequestSummaryOf(scope, pr);
        }
      }
    },

    async *listProjects(scopePath, options): AsyncGenerator<ScmProject> {
      const signal = options?.signal;
      const owner = ownerOf(scopePath);
      if (owner) {
        const { data } = await client.rest<GhUser>({ path: `/users/${encodeURIComponent(owner)}`, signal });
        yield { projectKey: data.login, name: data.name ?? data.login };
        return;
      }
      if (client.isApp) {
        const installation = await client.asApp<{ account?: GhUser }>(
          `/app/installations/${github.config.hostedAppInstallationId}`,
          signal,
        );
        if (installation.account) yield { projectKey: installation.account.login, name: installation.account.login };
        return;
      }
      // No owner in the scope path: the token's own account and every organization it belongs to.
      const login = (await github.account.get()).login;
      yield { projectKey: login, name: login };
      for await (const org of client.pages<GhUser>('/user/orgs', {}, { signal })) {
        yield { projectKey: org.login, name: org.login };
      }
    },

    async *listRepositories(scope, options): AsyncGenerator<ScmRepository> {
      const signal = options?.signal;
      const owner = scope.projectKey;
      const sameOwner = (r: GhRepository) => r.owner.login.toLowerCase() === owner.toLowerCase();
      let source: AsyncIterable<GhRepository>;
      if (client.isApp) {
        source = client.pages<GhRepository, { repositories: GhRepository[] }>(
          '/installation/repositories',
          {},
          { signal, pick: (data) => data.repositories },
        );
      } else if ((await ownerType(owner, signal)) === 'Organization') {
        source = client.pages<GhRepository>(`/orgs/${encodeURIComponent(owner)}/repos`, { type: 'all' }, { signal });
      } else if (owner.toLowerCase() === (await github.account.get()).login.toLowerCase()) {
        source = client.pages<GhRepository>('/user/repos', { affiliation: 'owner', visibility: 'all' }, { signal });
      } else {
        source = client.pages<GhRepository>(`/users/${encodeURIComponent(owner)}/repos`, { type: 'owner' }, { signal });
      }
      for await (const r of source) {
        // Archived and disabled repositories are read-only: nothing there can be reviewed.
        if (sameOwner(r) && !r.archived && !r.disabled) yield toRepository(r);
      }
    },

    async *listBranches(ref, options): AsyncGenerator<string> {
      for await (const branch of client.pages<{ name: string }>(
        `${repositoryPath(ref)}/branches`,
        {},
        { signal: options?.signal },
      )) {
        yield branch.name;
      }
    },

    async searchUsers(_scopePath, search, options): Promise<ScmUser[]> {
      const { data } = await client.rest<{ items: GhUser[] }>({
        path: '/search/users',
        query: { q: `${search} in:login`, per_page: 30 },
        signal: options?.signal,
      });
      return data.items.map(toUser);
    },
  };
  return part;
}

function toRepository(r: GhRepository): ScmRepository {
  return {
    repositoryId: String(r.id),
    name: r.name,
    projectKey: r.owner.login,
    defaultBranch: r.default_branch,
    webUrl: r.html_url,
  };
}

/** `https://github.com/acme` → `acme`; a scope path without an owner gives `undefined`. */
export function ownerOf(scopePath: string): string | undefined {
  if (!URL.canParse(scopePath)) return scopePath && !scopePath.includes('/') ? scopePath : undefined;
  const first = new URL(scopePath).pathname.split('/').filter(Boolean)[0];
  return first ? decodeURIComponent(first) : undefined;
}
