import type { Repositories, StorageV1 } from '../storage-v1.js';
import {
  memoryAiConnections,
  memoryAiLogicalModels,
  memoryAiModelCatalog,
  memoryTenantAiPolicies,
} from './memory-ai.js';
import { memoryAuditEntries } from './memory-audit.js';
import { memoryConversations } from './memory-conversations.js';
import {
  memoryMemberships,
  memoryPersonalAccessTokens,
  memoryRefreshTokens,
  memorySignInFailures,
} from './memory-identity.js';
import { memoryKnowledgeIndex, memoryKnowledgeIndexJobs } from './memory-knowledge.js';
import {
  memoryBlockedPullRequests,
  memoryDismissals,
  memoryProtocol,
  memoryReviewFindings,
  memoryReviewJobs,
  memoryReviewPublications,
} from './memory-reviewing.js';
import { memoryProviderConnections, memoryProviderScopes, memoryReviewerIdentities } from './memory-scm.js';
import { memorySettings } from './memory-settings.js';
import { memoryClientBudgets, memoryInFlightSpend, memoryUsageEvents } from './memory-spend.js';
import { memoryIdentityProviders, memoryUserIdentities } from './memory-sso.js';
import { emptyMemoryState, type MemoryState } from './memory-state.js';
import { memoryClients, memoryTenants } from './memory-tenancy.js';
import { memoryThreadMemories } from './memory-thread-memories.js';
import {
  memoryCrawlConfigurations,
  memoryKnowledgeSources,
  memoryWebhookConfigurations,
  memoryWebhookDeliveries,
} from './memory-triggers.js';
import { memoryUsers } from './memory-users.js';

function repositoriesOver(state: () => MemoryState): Repositories {
  return {
    users: memoryUsers(state),
    refreshTokens: memoryRefreshTokens(state),
    personalAccessTokens: memoryPersonalAccessTokens(state),
    signInFailures: memorySignInFailures(state),
    identityProviders: memoryIdentityProviders(state),
    userIdentities: memoryUserIdentities(state),
    memberships: memoryMemberships(state),
    tenants: memoryTenants(state),
    clients: memoryClients(state),
    settings: memorySettings(state),
    reviewJobs: memoryReviewJobs(state),
    blockedPullRequests: memoryBlockedPullRequests(state),
    dismissals: memoryDismissals(state),
    reviewPublications: memoryReviewPublications(state),
    reviewFindings: memoryReviewFindings(state),
    threadMemories: memoryThreadMemories(state),
    protocol: memoryProtocol(state),
    providerConnections: memoryProviderConnections(state),
    providerScopes: memoryProviderScopes(state),
    reviewerIdentities: memoryReviewerIdentities(state),
    aiConnections: memoryAiConnections(state),
    aiLogicalModels: memoryAiLogicalModels(state),
    aiModelCatalog: memoryAiModelCatalog(state),
    tenantAiPolicies: memoryTenantAiPolicies(state),
    knowledgeSources: memoryKnowledgeSources(state),
    knowledgeIndex: memoryKnowledgeIndex(state),
    knowledgeIndexJobs: memoryKnowledgeIndexJobs(state),
    webhookConfigurations: memoryWebhookConfigurations(state),
    webhookDeliveries: memoryWebhookDeliveries(state),
    crawlConfigurations: memoryCrawlConfigurations(state),
    auditEntries: memoryAuditEntries(state),
    usageEvents: memoryUsageEvents(state),
    clientBudgets: memoryClientBudgets(state),
    conversations: memoryConversations(state),
    inFlightSpend: memoryInFlightSpend(state),
  };
}

/**
 * The reference storage: every operation runs one at a time (serializable), and a transaction works
 * on a copy of the state that replaces it only when the transaction succeeds.
 */
export function createMemoryStorage(): StorageV1 {
  let state = emptyMemoryState();
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };

  const live = repositoriesOver(() => state);
  const serialized = Object.fromEntries(
    Object.entries(live).map(([name, repository]) => [name, serializeMethods(repository, exclusive)]),
  ) as unknown as Repositories;

  return {
    specificationVersion: 'v1',
    dialect: 'memory',
    ...serialized,
    // Every transaction already runs alone here, so a lock adds nothing.
    transaction: (fn) =>
      exclusive(async () => {
        const draft = structuredClone(state);
        const result = await fn(repositoriesOver(() => draft));
        state = draft;
        return result;
      }),
    ping: async () => undefined,
    close: async () => undefined,
  };
}

function serializeMethods(repository: object, exclusive: <T>(fn: () => Promise<T>) => Promise<T>): object {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(repository)) {
    wrapped[name] =
      typeof method === 'function' ? (...args: unknown[]) => exclusive(() => method.apply(repository, args)) : method;
  }
  return wrapped;
}
