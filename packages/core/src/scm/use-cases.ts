import type { Actor } from '../kernel/index.js';
import * as connections from './connections.js';
import * as discovery from './discovery.js';
import {
  type OpenedScmConnection,
  type OpenedScmScope,
  openScmProvider,
  scopeWithConnection,
} from './open-scm-provider.js';
import * as reviewerIdentity from './reviewer-identity.js';
import type {
  DiscoveredBranchListBody,
  DiscoveredProjectListBody,
  DiscoveredSourceListBody,
  ProviderConnectionListBody,
  ProviderConnectionViewBody,
  ProviderScopeListBody,
  ProviderScopeViewBody,
  ReviewerIdentityCandidatesBody,
  ReviewerIdentityViewBody,
  SuggestedRepoFilterListBody,
} from './schemas.js';
import type { ScmDeps } from './scm-deps.js';
import * as scopes from './scopes.js';

/** Source-control connections, their scopes, the reviewer identity, and discovery through them. */
export interface ScmUseCases {
  createProviderConnection(actor: Actor, clientId: string, input: unknown): Promise<ProviderConnectionViewBody>;
  listProviderConnections(actor: Actor, clientId: string, query: unknown): Promise<ProviderConnectionListBody>;
  getProviderConnection(actor: Actor, clientId: string, connectionId: string): Promise<ProviderConnectionViewBody>;
  patchProviderConnection(
    actor: Actor,
    clientId: string,
    connectionId: string,
    input: unknown,
  ): Promise<ProviderConnectionViewBody>;
  deleteProviderConnection(actor: Actor, clientId: string, connectionId: string): Promise<void>;
  verifyProviderConnection(actor: Actor, clientId: string, connectionId: string): Promise<ProviderConnectionViewBody>;
  createProviderScope(
    actor: Actor,
    clientId: string,
    connectionId: string,
    input: unknown,
  ): Promise<ProviderScopeViewBody>;
  listProviderScopes(
    actor: Actor,
    clientId: string,
    connectionId: string,
    query: unknown,
  ): Promise<ProviderScopeListBody>;
  patchProviderScope(
    actor: Actor,
    clientId: string,
    connectionId: string,
    scopeId: string,
    input: unknown,
  ): Promise<ProviderScopeViewBody>;
  deleteProviderScope(actor: Actor, clientId: string, connectionId: string, scopeId: string): Promise<void>;
  resolveReviewerIdentities(
    actor: Actor,
    clientId: string,
    connectionId: string,
    query: unknown,
  ): Promise<ReviewerIdentityCandidatesBody>;
  putReviewerIdentity(
    actor: Actor,
    clientId: string,
    connectionId: string,
    input: unknown,
  ): Promise<ReviewerIdentityViewBody>;
  getReviewerIdentity(actor: Actor, clientId: string, connectionId: string): Promise<ReviewerIdentityViewBody>;
  discoverProjects(actor: Actor, clientId: string, query: unknown): Promise<DiscoveredProjectListBody>;
  discoverSources(actor: Actor, clientId: string, query: unknown): Promise<DiscoveredSourceListBody>;
  discoverBranches(actor: Actor, clientId: string, query: unknown): Promise<DiscoveredBranchListBody>;
  discoverCrawlFilters(actor: Actor, clientId: string, query: unknown): Promise<SuggestedRepoFilterListBody>;
  /** For hosts and workers: no authorization, see `openScmProvider`. */
  openProvider(connectionId: string, options?: Parameters<typeof openScmProvider>[2]): Promise<OpenedScmConnection>;
  /** For hosts and workers: no authorization, see `scopeWithConnection`. */
  scopeWithConnection(
    clientId: string,
    scopeId: string,
    options?: Parameters<typeof scopeWithConnection>[3],
  ): Promise<OpenedScmScope>;
}

export function createScmUseCases(deps: ScmDeps): ScmUseCases {
  return {
    createProviderConnection: (actor, clientId, input) =>
      connections.createProviderConnection(deps, actor, clientId, input),
    listProviderConnections: (actor, clientId, query) =>
      connections.listProviderConnections(deps, actor, clientId, query),
    getProviderConnection: (actor, clientId, connectionId) =>
      connections.getProviderConnection(deps, actor, clientId, connectionId),
    patchProviderConnection: (actor, clientId, connectionId, input) =>
      connections.patchProviderConnection(deps, actor, clientId, connectionId, input),
    deleteProviderConnection: (actor, clientId, connectionId) =>
      connections.deleteProviderConnection(deps, actor, clientId, connectionId),
    verifyProviderConnection: (actor, clientId, connectionId) =>
      connections.verifyProviderConnection(deps, actor, clientId, connectionId),
    createProviderScope: (actor, clientId, connectionId, input) =>
      scopes.createProviderScope(deps, actor, clientId, connectionId, input),
    listProviderScopes: (actor, clientId, connectionId, query) =>
      scopes.listProviderScopes(deps, actor, clientId, connectionId, query),
    patchProviderScope: (actor, clientId, connectionId, scopeId, input) =>
      scopes.patchProviderScope(deps, actor, clientId, connectionId, scopeId, input),
    deleteProviderScope: (actor, clientId, connectionId, scopeId) =>
      scopes.deleteProviderScope(deps, actor, clientId, connectionId, scopeId),
    resolveReviewerIdentities: (actor, clientId, connectionId, query) =>
      reviewerIdentity.resolveReviewerIdentities(deps, actor, clientId, connectionId, query),
    putReviewerIdentity: (actor, clientId, connectionId, input) =>
      reviewerIdentity.putReviewerIdentity(deps, actor, clientId, connectionId, input),
    getReviewerIdentity: (actor, clientId, connectionId) =>
      reviewerIdentity.getReviewerIdentity(deps, actor, clientId, connectionId),
    discoverProjects: (actor, clientId, query) => discovery.discoverProjects(deps, actor, clientId, query),
    discoverSources: (actor, clientId, query) => discovery.discoverSources(deps, actor, clientId, query),
    discoverBranches: (actor, clientId, query) => discovery.discoverBranches(deps, actor, clientId, query),
    discoverCrawlFilters: (actor, clientId, query) => discovery.discoverCrawlFilters(deps, actor, clientId, query),
    openProvider: (connectionId, options) => openScmProvider(deps, connectionId, options),
    scopeWithConnection: (clientId, scopeId, options) => scopeWithConnection(deps, clientId, scopeId, options),
  };
}
