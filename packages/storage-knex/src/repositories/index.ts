import type { Repositories } from '@margin/core/spec';
import type { Dialect } from '../dialect.js';
import type { Db } from '../rows.js';
import { knexAiConnections } from './ai-connections.js';
import { knexAiLogicalModels } from './ai-logical-models.js';
import { knexAiModelCatalog } from './ai-model-catalog.js';
import { knexAuditEntries } from './audit-entries.js';
import { knexBlockedPullRequests } from './blocked-pull-requests.js';
import { knexClientBudgets } from './client-budgets.js';
import { knexClients } from './clients.js';
import { knexConversations } from './conversations.js';
import { knexCrawlConfigurations } from './crawl-configurations.js';
import { knexDismissals } from './dismissals.js';
import { knexIdentityProviders, knexUserIdentities } from './identity-providers.js';
import { knexInFlightSpend } from './in-flight-spend.js';
import { knexKnowledgeIndex } from './knowledge-index.js';
import { knexKnowledgeIndexJobs } from './knowledge-index-jobs.js';
import { knexKnowledgeSources } from './knowledge-sources.js';
import { knexMemberships } from './memberships.js';
import { knexPersonalAccessTokens } from './personal-access-tokens.js';
import { knexProtocol } from './protocol.js';
import { knexProviderConnections } from './provider-connections.js';
import { knexProviderScopes } from './provider-scopes.js';
import { knexRefreshTokens } from './refresh-tokens.js';
import { knexReviewFindings } from './review-findings.js';
import { knexReviewJobs } from './review-jobs.js';
import { knexReviewPublications } from './review-publications.js';
import { knexReviewerIdentities } from './reviewer-identities.js';
import { knexSettings } from './settings.js';
import { knexSignInFailures } from './sign-in-failures.js';
import { knexTenantAiPolicies } from './tenant-ai-policies.js';
import { knexTenants } from './tenants.js';
import { knexThreadMemories } from './thread-memories.js';
import { knexUsageEvents } from './usage-events.js';
import { knexUsers } from './users.js';
import { knexWebhookConfigurations } from './webhook-configurations.js';
import { knexWebhookDeliveries } from './webhook-deliveries.js';

/** Every repository of the Storage port, on the storage's connection or on one transaction. */
export function repositoriesOn(db: Db, dialect: Dialect): Repositories {
  return {
    users: knexUsers(db),
    refreshTokens: knexRefreshTokens(db),
    personalAccessTokens: knexPersonalAccessTokens(db),
    signInFailures: knexSignInFailures(db),
    identityProviders: knexIdentityProviders(db, dialect),
    userIdentities: knexUserIdentities(db),
    memberships: knexMemberships(db),
    tenants: knexTenants(db),
    clients: knexClients(db),
    settings: knexSettings(db, dialect),
    reviewJobs: knexReviewJobs(db, dialect),
    blockedPullRequests: knexBlockedPullRequests(db),
    dismissals: knexDismissals(db),
    reviewPublications: knexReviewPublications(db),
    reviewFindings: knexReviewFindings(db, dialect),
    threadMemories: knexThreadMemories(db, dialect),
    protocol: knexProtocol(db, dialect),
    providerConnections: knexProviderConnections(db),
    providerScopes: knexProviderScopes(db),
    reviewerIdentities: knexReviewerIdentities(db),
    aiConnections: knexAiConnections(db, dialect),
    aiLogicalModels: knexAiLogicalModels(db),
    aiModelCatalog: knexAiModelCatalog(db, dialect),
    tenantAiPolicies: knexTenantAiPolicies(db, dialect),
    knowledgeSources: knexKnowledgeSources(db, dialect),
    knowledgeIndex: knexKnowledgeIndex(db, dialect),
    knowledgeIndexJobs: knexKnowledgeIndexJobs(db, dialect),
    webhookConfigurations: knexWebhookConfigurations(db, dialect),
    webhookDeliveries: knexWebhookDeliveries(db, dialect),
    crawlConfigurations: knexCrawlConfigurations(db, dialect),
    auditEntries: knexAuditEntries(db),
    usageEvents: knexUsageEvents(db),
    clientBudgets: knexClientBudgets(db),
    conversations: knexConversations(db, dialect),
    inFlightSpend: knexInFlightSpend(db),
  };
}
