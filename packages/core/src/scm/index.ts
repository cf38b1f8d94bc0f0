export {
  type ProviderConnectionPatch,
  type ProviderConnectionRecord,
  type ProviderConnectionsRepository,
  type ProviderScopePatch,
  type ProviderScopeRecord,
  type ProviderScopesRepository,
  type ReviewerIdentitiesRepository,
  type ReviewerIdentityRecord,
  SCOPE_TYPES,
  type ScopeType,
} from './connection-records.js';
export { DISCOVERY_LIMIT } from './discovery.js';
export {
  connectScmProvider,
  type OpenedScmConnection,
  type OpenedScmScope,
  openScmProvider,
  scmConnectionConfig,
  scopeWithConnection,
} from './open-scm-provider.js';
export { PROVIDER_FAILURES } from './provider-failures.js';
export {
  CanonicalSourceRef,
  CreateProviderConnectionInput,
  CreateProviderScopeInput,
  DISCOVERY_PURPOSES,
  DiscoverBranchesQuery,
  DiscoverCrawlFiltersQuery,
  DiscoveredBranchList,
  DiscoveredProjectList,
  DiscoveredSourceList,
  DiscoverProjectsQuery,
  DiscoverSourcesQuery,
  PatchProviderConnectionInput,
  PatchProviderScopeInput,
  ProviderConnectionList,
  ProviderConnectionView,
  ProviderScopeList,
  ProviderScopeView,
  PutReviewerIdentityInput,
  providerFamily,
  ResolveReviewerIdentityQuery,
  ReviewerIdentityCandidates,
  ReviewerIdentityView,
  ScmUserView,
  SOURCE_KINDS,
  SuggestedRepoFilterList,
} from './schemas.js';
export type { ScmConnectDeps, ScmDeps, ScmRepositories } from './scm-deps.js';
export { requireWikiSources } from './support-matrix.js';
export { createScmUseCases, type ScmUseCases } from './use-cases.js';
