import type {
  AiConnectionRecord,
  CatalogModelRecord,
  LogicalModelRecord,
  PriceOverrideRecord,
  PurposeMappingRecord,
  TenantAiPolicyRecord,
} from '../../ai/index.js';
import type { AuditEntryRecord } from '../../audit/index.js';
import type { ConversationRecord } from '../../conversations/index.js';
import type {
  IdentityProviderRecord,
  PersonalAccessTokenRecord,
  RefreshTokenRecord,
  SignInFailureRecord,
  UserIdentityRecord,
  UserRecord,
} from '../../identity/index.js';
import { decodeCursor, type Page, SYSTEM_TENANT_ID, toPage } from '../../kernel/index.js';
import type { KnowledgeSourceRecord } from '../../knowledge/index.js';
import type {
  BlockedPullRequestRecord,
  DismissalRecord,
  ProtocolEventRecord,
  ProtocolPassRecord,
  PublicationRecord,
  ReviewJobRecord,
  StoredFindingRecord,
  ThreadMemoryRecord,
} from '../../reviewing/index.js';
import type { ProviderConnectionRecord, ProviderScopeRecord, ReviewerIdentityRecord } from '../../scm/index.js';
import type { ClientBudgetRecord, InFlightSpendRecord, UsageEventRecord } from '../../spend/index.js';
import type { ClientMemberRecord, ClientRecord, TenantMemberRecord, TenantRecord } from '../../tenancy/index.js';
import type {
  CrawlConfigurationRecord,
  WebhookConfigurationRecord,
  WebhookDeliveryRecord,
} from '../../triggers/index.js';
import { emptyMemoryKnowledgeIndex, type MemoryKnowledgeIndex } from './memory-knowledge.js';

/** All rows of the memory storage. Plain Maps, so a transaction can work on a structured clone. */
export interface MemoryState {
  users: Map<string, UserRecord>;
  refreshTokens: Map<string, RefreshTokenRecord>;
  personalAccessTokens: Map<string, PersonalAccessTokenRecord>;
  identityProviders: Map<string, IdentityProviderRecord>;
  /** Keyed by `<issuer> <subject>`. */
  userIdentities: Map<string, UserIdentityRecord>;
  /** Keyed `usernameKey NUL source`. */
  signInFailures: Map<string, SignInFailureRecord>;
  /** Keyed `clientId/userId`. */
  clientMembers: Map<string, ClientMemberRecord>;
  /** Keyed `tenantId/userId`. */
  tenantMembers: Map<string, TenantMemberRecord>;
  tenants: Map<string, TenantRecord>;
  clients: Map<string, ClientRecord>;
  settings: Map<string, unknown>;
  reviewJobs: Map<string, ReviewJobRecord>;
  /** Keyed `clientId/repositoryId/pullRequestId`. */
  blockedPullRequests: Map<string, BlockedPullRequestRecord>;
  dismissals: Map<string, DismissalRecord>;
  /** By `pullRequestKey`, then marker. */
  reviewPublications: Map<string, Map<string, PublicationRecord>>;
  reviewFindings: Map<string, StoredFindingRecord>;
  threadMemories: Map<string, ThreadMemoryRecord>;
  protocolPasses: Map<string, ProtocolPassRecord>;
  protocolEvents: Map<string, ProtocolEventRecord>;
  providerConnections: Map<string, ProviderConnectionRecord>;
  providerScopes: Map<string, ProviderScopeRecord>;
  /** Keyed by connection id: one identity per connection. */
  reviewerIdentities: Map<string, ReviewerIdentityRecord>;
  aiConnections: Map<string, AiConnectionRecord>;
  aiLogicalModels: Map<string, LogicalModelRecord>;
  /** Keyed `clientId/purpose`. */
  aiPurposeMappings: Map<string, PurposeMappingRecord>;
  aiCatalogModels: Map<string, CatalogModelRecord>;
  aiPriceOverrides: Map<string, PriceOverrideRecord>;
  /** Keyed by tenant id. */
  tenantAiPolicies: Map<string, TenantAiPolicyRecord>;
  knowledgeSources: Map<string, KnowledgeSourceRecord>;
  knowledgeIndex: MemoryKnowledgeIndex;
  webhookConfigurations: Map<string, WebhookConfigurationRecord>;
  webhookDeliveries: Map<string, WebhookDeliveryRecord>;
  crawlConfigurations: Map<string, CrawlConfigurationRecord>;
  auditEntries: Map<string, AuditEntryRecord>;
  usageEvents: Map<string, UsageEventRecord>;
  clientBudgets: Map<string, ClientBudgetRecord>;
  conversations: Map<string, ConversationRecord>;
  inFlightSpend: Map<string, InFlightSpendRecord>;
}

export const SYSTEM_TENANT_SEED: TenantRecord = {
  id: SYSTEM_TENANT_ID,
  displayName: 'System',
  slug: 'system',
  isActive: true,
  loginPolicy: 'localAndSso',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

export function emptyMemoryState(): MemoryState {
  return {
    users: new Map(),
    refreshTokens: new Map(),
    personalAccessTokens: new Map(),
    identityProviders: new Map(),
    userIdentities: new Map(),
    signInFailures: new Map(),
    clientMembers: new Map(),
    tenantMembers: new Map(),
    tenants: new Map([[SYSTEM_TENANT_ID, { ...SYSTEM_TENANT_SEED }]]),
    clients: new Map(),
    settings: new Map(),
    reviewJobs: new Map(),
    blockedPullRequests: new Map(),
    dismissals: new Map(),
    reviewPublications: new Map(),
    reviewFindings: new Map(),
    threadMemories: new Map(),
    protocolPasses: new Map(),
    protocolEvents: new Map(),
    providerConnections: new Map(),
    providerScopes: new Map(),
    reviewerIdentities: new Map(),
    aiConnections: new Map(),
    aiLogicalModels: new Map(),
    aiPurposeMappings: new Map(),
    aiCatalogModels: new Map(),
    aiPriceOverrides: new Map(),
    tenantAiPolicies: new Map(),
    knowledgeSources: new Map(),
    knowledgeIndex: emptyMemoryKnowledgeIndex(),
    webhookConfigurations: new Map(),
    webhookDeliveries: new Map(),
    crawlConfigurations: new Map(),
    auditEntries: new Map(),
    usageEvents: new Map(),
    clientBudgets: new Map(),
    conversations: new Map(),
    inFlightSpend: new Map(),
  };
}

/** Records leave and enter the store as copies, so callers never alias stored rows. */
export const copy = <T>(value: T): T => structuredClone(value);

/** Keyset page over rows sorted by (createdAt, id). */
export function pageByCreatedAt<T extends { createdAt: string; id: string }>(
  rows: Iterable<T>,
  after: { key: string; id: string } | undefined,
  limit: number,
): T[] {
  return [...rows]
    .filter((r) => !after || r.createdAt > after.key || (r.createdAt === after.key && r.id > after.id))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .slice(0, limit + 1)
    .map(copy);
}

/** A keyset page over rows sorted by (key, id) in one direction, as the SQL storages page. */
export function keysetPage<T>(
  rows: Iterable<T>,
  positionOf: (row: T) => { key: string; id: string },
  order: 'asc' | 'desc',
  page: { limit: number; cursor?: string | null | undefined },
): Page<T> {
  const after = decodeCursor(page.cursor);
  const sign = order === 'asc' ? 1 : -1;
  const compare = (a: { key: string; id: string }, b: { key: string; id: string }) =>
    sign * (a.key.localeCompare(b.key) || a.id.localeCompare(b.id));
  const sorted = [...rows]
    .filter((r) => !after || compare(positionOf(r), after) > 0)
    .sort((a, b) => compare(positionOf(a), positionOf(b)))
    .slice(0, page.limit + 1)
    .map(copy);
  return toPage(sorted, page.limit, positionOf);
}
