import {
  DiscoverBranchesQuery,
  DiscoverCrawlFiltersQuery,
  DiscoveredBranchList,
  DiscoveredProjectList,
  DiscoveredSourceList,
  DiscoverProjectsQuery,
  DiscoverSourcesQuery,
  SuggestedRepoFilterList,
} from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { ClientParams } from './params.js';

const TAG = 'Discovery';
const BASE = '/admin/clients/{clientId}/devops/discovery';

/** Read from the provider through the connection of the scope named by `organizationScopeId`. */
export const discoveryRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: `${BASE}/projects`,
    group: 'scm',
    operationId: 'discoverProjects',
    summary: 'Projects under a scope (ClientUser; `purpose=crawl` needs crawl-configs)',
    tag: TAG,
    params: ClientParams,
    query: DiscoverProjectsQuery,
    responses: { 200: { description: 'Projects.', schema: DiscoveredProjectList }, ...errors(403, 404, 409, 502) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.scm.discoverProjects(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/sources`,
    group: 'scm',
    operationId: 'discoverSources',
    summary: 'Repositories (or Azure DevOps wikis) of a project (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: DiscoverSourcesQuery,
    responses: { 200: { description: 'Sources.', schema: DiscoveredSourceList }, ...errors(403, 404, 502) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.scm.discoverSources(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/branches`,
    group: 'scm',
    operationId: 'discoverBranches',
    summary: 'Branches of one repository (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: DiscoverBranchesQuery,
    responses: { 200: { description: 'Branches.', schema: DiscoveredBranchList }, ...errors(403, 404, 502) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.scm.discoverBranches(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: `${BASE}/crawl-filters`,
    group: 'scm',
    operationId: 'discoverCrawlFilters',
    summary:
      'A project’s repositories as ready-made repoFilters with their default branch (ClientUser; `purpose=crawl` needs crawl-configs)',
    tag: TAG,
    params: ClientParams,
    query: DiscoverCrawlFiltersQuery,
    responses: {
      200: { description: 'Suggested repository filters.', schema: SuggestedRepoFilterList },
      ...errors(403, 404, 409, 502),
    },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.scm.discoverCrawlFilters(actor, params.clientId, query),
    }),
  }),
];
