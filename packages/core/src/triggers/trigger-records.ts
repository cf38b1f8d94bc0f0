import type { ConversationRecord } from '../conversations/index.js';
import type { Page, PageRequest } from '../kernel/index.js';
import type { ProviderFamily, WebhookEventKind } from '../scm-provider/index.js';
import type { ClientListFilter } from '../tenancy/index.js';

export const KNOWLEDGE_SCOPE_MODES = ['allClientSources', 'selectedSources', 'none'] as const;
export type KnowledgeScopeMode = (typeof KNOWLEDGE_SCOPE_MODES)[number];

/**
 * One repository a configuration covers. `canonicalSourceRef.value` is the repository id in the
 * family's coordinates; `targetBranchPatterns` empty means every branch.
 */
export interface RepoFilter {
  repositoryName: string | null;
  displayName: string | null;
  canonicalSourceRef: { provider: ProviderFamily; value: string };
  targetBranchPatterns: string[];
}

/** What crawl and webhook configurations share: where they apply and what their jobs run under. */
export interface TriggerConfigurationBase {
  id: string;
  clientId: string;
  provider: ProviderFamily;
  organizationScopeId: string;
  /** The scope's `scopePath` when the configuration was saved; by-coordinates matches it exactly. */
  providerScopePath: string;
  providerProjectKey: string;
  reviewTemperature: number | null;
  repoFilters: RepoFilter[];
  knowledgeSourceScopeMode: KnowledgeScopeMode;
  knowledgeSourceIds: string[];
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookConfigurationRecord extends TriggerConfigurationBase {
  /** 32 hex characters: the last segment of the listener URL. */
  pathKey: string;
  /** `SecretBox.seal` of the generated secret. */
  sealedSecret: string;
  enabledEvents: WebhookEventKind[];
}

export const CRAWL_OUTCOMES = ['succeeded', 'failed', 'skipped'] as const;
export type CrawlOutcome = (typeof CRAWL_OUTCOMES)[number];

export interface CrawlCounts {
  pullRequestsSeen: number;
  inScope: number;
  queued: number;
  skipped: number;
}

export interface CrawlConfigurationRecord extends TriggerConfigurationBase {
  crawlIntervalSeconds: number;
  /** When the next crawl is due; a host takes it only then, and only with the lease. */
  nextCrawlAt: string;
  lastCrawledAt: string | null;
  lastCrawlOutcome: CrawlOutcome | null;
  lastCrawlError: string | null;
  lastCrawlCounts: CrawlCounts | null;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
}

export type WebhookConfigurationPatch = Partial<
  Pick<
    WebhookConfigurationRecord,
    | 'isActive'
    | 'reviewTemperature'
    | 'enabledEvents'
    | 'repoFilters'
    | 'knowledgeSourceScopeMode'
    | 'knowledgeSourceIds'
    | 'updatedAt'
  >
>;

export type CrawlConfigurationPatch = Partial<
  Pick<
    CrawlConfigurationRecord,
    | 'isActive'
    | 'reviewTemperature'
    | 'repoFilters'
    | 'knowledgeSourceScopeMode'
    | 'knowledgeSourceIds'
    | 'crawlIntervalSeconds'
    | 'nextCrawlAt'
    | 'updatedAt'
  >
>;

/** Which configurations a caller may list: one client, or those of the clients the caller can see. */
export interface TriggerListFilter extends ClientListFilter {
  clientId?: string | undefined;
}

export const DELIVERY_OUTCOMES = ['accepted', 'ignored', 'rejected', 'failed'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Where an accepted delivery is on its way to a job; null for deliveries that need no processing. */
export const PROCESSING_STATES = ['pending', 'processing', 'done'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];

/**
 * One received delivery: a sanitized summary (never the body, headers or secret), the outcome, the
 * HTTP status answered and what was done about it.
 */
export interface WebhookDeliveryRecord {
  id: string;
  configurationId: string;
  clientId: string;
  receivedAt: string;
  eventType: string | null;
  eventKind: WebhookEventKind | null;
  /** The provider's delivery id (or a digest); accepted deliveries are unique per configuration by it. */
  idempotencyKey: string | null;
  outcome: DeliveryOutcome;
  httpStatus: number;
  repositoryId: string | null;
  pullRequestId: number | null;
  sourceBranch: string | null;
  targetBranch: string | null;
  headSha: string | null;
  actions: string[];
  failureReason: string | null;
  processingState: ProcessingState | null;
  /** Pending: when it may be taken; processing: when the lease runs out. */
  processAfter: string | null;
  leaseOwner: string | null;
  attempts: number;
  /**
   * The conversation a comment mentioning Margin opened: written with the delivery, in its
   * transaction, unless the client already has that comment (then nothing). Never read back.
   */
  conversation?: ConversationRecord | undefined;
}

export interface DeliveryClaimRequest {
  owner: string;
  now: string;
  leaseMs: number;
  limit: number;
}

export interface DeliveryProcessingResult {
  outcome: DeliveryOutcome;
  actions: string[];
  failureReason: string | null;
  /** `pending` with a later `processAfter` tries again; `done` ends processing. */
  processingState: 'pending' | 'done';
  processAfter: string | null;
  /** The try waited rather than failed (one review at a time): it does not count against the attempts. */
  refundAttempt?: boolean | undefined;
}

export interface WebhookConfigurationsRepository {
  /** Throws `conflict` when the path key is taken. */
  insert(configuration: WebhookConfigurationRecord): Promise<void>;
  findById(id: string): Promise<WebhookConfigurationRecord | undefined>;
  findByPathKey(pathKey: string): Promise<WebhookConfigurationRecord | undefined>;
  /** Oldest first. */
  list(filter: TriggerListFilter, page: PageRequest): Promise<Page<WebhookConfigurationRecord>>;
  /** The client's configurations at exactly this scope path and project key, active or not. */
  findByCoordinates(
    clientId: string,
    providerScopePath: string,
    providerProjectKey: string,
  ): Promise<WebhookConfigurationRecord[]>;
  update(id: string, patch: WebhookConfigurationPatch): Promise<WebhookConfigurationRecord | undefined>;
  /** Removes the configuration with its delivery history. */
  delete(id: string): Promise<boolean>;
}

export interface WebhookDeliveriesRepository {
  /**
   * Records a delivery. An accepted one whose idempotency key the configuration already accepted is
   * stored as an ignored duplicate instead (decided by the database, so concurrent retries agree):
   * the answer says which.
   */
  record(delivery: WebhookDeliveryRecord): Promise<'recorded' | 'duplicate'>;
  /**
   * Records several deliveries atomically, in one transaction (one commit, one flush to disk), with
   * the same duplicate rule as `record`; the answers are in order.
   */
  recordMany(deliveries: readonly WebhookDeliveryRecord[]): Promise<Array<'recorded' | 'duplicate'>>;
  findById(id: string): Promise<WebhookDeliveryRecord | undefined>;
  /** Newest first, at most `take`. */
  listForConfiguration(configurationId: string, take: number): Promise<WebhookDeliveryRecord[]>;
  /**
   * Leases up to `limit` deliveries that wait for processing (or whose lease ran out) to `owner`,
   * oldest first; each is handed to one claimer only, and its `attempts` goes up by one.
   */
  claimPending(request: DeliveryClaimRequest): Promise<WebhookDeliveryRecord[]>;
  /** Stores what processing did; false when the delivery is no longer this owner's. */
  finishProcessing(id: string, owner: string, result: DeliveryProcessingResult): Promise<boolean>;
  /**
   * Deletes up to `limit` deliveries received before `before`, oldest first, leaving those that wait
   * for or are in processing; answers how many went.
   */
  deleteReceivedBefore(before: string, limit: number): Promise<number>;
}

export interface CrawlClaimRequest {
  owner: string;
  now: string;
  leaseMs: number;
  limit: number;
}

export interface CrawlFinish {
  at: string;
  nextCrawlAt: string;
  outcome: CrawlOutcome;
  error: string | null;
  counts: CrawlCounts | null;
}

export interface CrawlConfigurationsRepository {
  insert(configuration: CrawlConfigurationRecord): Promise<void>;
  findById(id: string): Promise<CrawlConfigurationRecord | undefined>;
  /** Oldest first. */
  list(filter: TriggerListFilter, page: PageRequest): Promise<Page<CrawlConfigurationRecord>>;
  findByCoordinates(
    clientId: string,
    providerScopePath: string,
    providerProjectKey: string,
  ): Promise<CrawlConfigurationRecord[]>;
  update(id: string, patch: CrawlConfigurationPatch): Promise<CrawlConfigurationRecord | undefined>;
  delete(id: string): Promise<boolean>;
  /**
   * Leases up to `limit` active configurations of active clients that are due (`nextCrawlAt <= now`)
   * and not leased by anyone else (or whose lease ran out), soonest due first. Each goes to one
   * claimer only.
   */
  claimDue(request: CrawlClaimRequest): Promise<CrawlConfigurationRecord[]>;
  /** Records the crawl and schedules the next; false when the lease is no longer this owner's. */
  finishCrawl(id: string, owner: string, finish: CrawlFinish): Promise<boolean>;
}

/** The row an accepted delivery becomes when its idempotency key was accepted before. */
export function duplicateOf(delivery: WebhookDeliveryRecord): WebhookDeliveryRecord {
  return {
    ...delivery,
    outcome: 'ignored',
    failureReason: DUPLICATE_DELIVERY,
    actions: ['skipped: duplicate delivery'],
    processingState: null,
    processAfter: null,
    leaseOwner: null,
  };
}

export const DUPLICATE_DELIVERY = 'Duplicate delivery: this delivery id was already accepted.';
