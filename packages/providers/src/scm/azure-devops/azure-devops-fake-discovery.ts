import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import type { FakeRequest } from '../../testing/fake-http-server.js';
import { ADO_ORG, type AzureDevOpsFakeContext, adoFixture, P, R } from './azure-devops-fake-context.js';

/** Who the credentials act as, the organization's projects, repositories, refs, identities and active pull requests. */
export function serveDiscovery(fake: AzureDevOpsFakeContext): void {
  const { route, top } = fake;
  const smallPage = fake.options.smallPage ?? 2;

  route('GET', `/${ADO_ORG}/_apis/connectionData`, () => ({ json: adoFixture('connection-data') }), false);

  route('GET', `/${ADO_ORG}/_apis/projects`, (req) => {
    const all = adoFixture<{ value: unknown[] }>('projects').value;
    const start = Number(req.query.get('continuationToken') ?? 0);
    const size = top(req, smallPage);
    const value = all.slice(start, start + size);
    const headers: Record<string, string> = {};
    if (start + size < all.length) headers['x-ms-continuationtoken'] = String(start + size);
    return { headers, json: { count: value.length, value } };
  });

  route('GET', `${P}/repositories`, () => ({ json: adoFixture('repositories') }));

  const listPullRequests = (req: FakeRequest, repositoryId?: string) => {
    const status = req.query.get('searchCriteria.status') ?? 'active';
    const all = [...fake.pullRequests.values()].filter(
      (p) => p.status === status && (!repositoryId || p.repository.id === repositoryId),
    );
    const skip = Number(req.query.get('$skip') ?? 0);
    const value = all.slice(skip, skip + top(req, 100));
    return { json: { value, count: value.length } };
  };
  route('GET', `${R}/pullrequests`, (req) => listPullRequests(req, req.params.repo));
  route('GET', `${P}/pullrequests`, (req) => listPullRequests(req));

  route('GET', `${R}/refs`, (req) => {
    const filter = req.query.get('filter') ?? '';
    const heads: Record<string, string> = SCM_CONTRACT_SCENARIO.branchHeads;
    // A prefix match, as Azure DevOps filters.
    const all = SCM_CONTRACT_SCENARIO.branches
      .map((b) => `refs/heads/${b}`)
      .filter((name) => name.startsWith(`refs/${filter}`));
    const start = Number(req.query.get('continuationToken') ?? 0);
    const size = top(req, smallPage);
    const value = all
      .slice(start, start + size)
      .map((name) => ({ name, objectId: heads[name.slice('refs/heads/'.length)] ?? '9'.repeat(40) }));
    const headers: Record<string, string> = {};
    if (start + size < all.length) headers['x-ms-continuationtoken'] = String(start + size);
    return { headers, json: { value, count: value.length } };
  });

  route('GET', `/${ADO_ORG}/_apis/identities`, (req) => {
    const needle = (req.query.get('filterValue') ?? '').toLowerCase();
    const all = adoFixture<{
      value: Array<{ providerDisplayName: string; properties: { Account: { $value: string } } }>;
    }>('identities').value;
    const value = all.filter(
      (i) =>
        i.providerDisplayName.toLowerCase().includes(needle) ||
        i.properties.Account.$value.toLowerCase().includes(needle),
    );
    return { json: { count: value.length, value } };
  });
}
