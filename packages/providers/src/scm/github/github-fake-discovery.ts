import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { GH_OWNER, type GitHubFakeContext, ghFixture, notFound, R, V3 } from './github-fake-context.js';

/** The account, the owner, its repositories (one archived) and branches, user search and open pull requests. */
export function serveDiscovery(fake: GitHubFakeContext): void {
  const { route, paged, repository, pullRequests } = fake;
  const smallPage = fake.options.smallPage ?? 2;

  route('GET', `${V3}/user`, () => ({ json: ghFixture('user') }));
  route('GET', `${V3}/users/:login`, (req) =>
    req.params.login === GH_OWNER ? { json: ghFixture('organization-user') } : notFound(),
  );
  route('GET', R, () => ({ json: repository }));

  route('GET', `${R}/pulls`, (req) => {
    const state = req.query.get('state') ?? 'open';
    return paged(
      req,
      [...pullRequests.values()].filter((p) => state === 'all' || p.state === state),
    );
  });

  const repositories = [
    repository,
    { ...repository, id: 987654322, node_id: 'R_kgDOOt1Ws2', name: 'old-uploader', archived: true },
  ];
  route('GET', `${V3}/orgs/:org/repos`, (req) =>
    req.params.org === GH_OWNER ? paged(req, repositories, smallPage) : notFound(),
  );
  route('GET', `${V3}/installation/repositories`, (req) => {
    const page = paged(req, repositories, smallPage);
    return {
      ...page,
      json: { total_count: repositories.length, repository_selection: 'selected', repositories: page.json },
    };
  });
  route('GET', `${R}/branches`, (req) =>
    paged(
      req,
      SCM_CONTRACT_SCENARIO.branches.map((name) => ({ ...ghFixture<object>('branch'), name })),
      smallPage,
    ),
  );
  route('GET', `${V3}/search/users`, (req) => {
    const q = (req.query.get('q') ?? '').split(' ')[0]?.toLowerCase() ?? '';
    const all = ghFixture<{ items: Array<{ login: string }> }>('search-users').items.filter((u) => u.login.includes(q));
    return { json: { total_count: all.length, incomplete_results: false, items: all } };
  });
}
