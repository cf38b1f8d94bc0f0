/** The review worker's settings (`WORKER_*` in the reference host). */
export interface WorkerSettings {
  /** False on API-only processes: jobs are queued here and run elsewhere. */
  enabled: boolean;
  /** Reviews run at once; one without `parallel-review-execution`. */
  maxConcurrentJobs: number;
  pollIntervalMs: number;
  /** How long a claim holds without a heartbeat; a crashed process's jobs return to the queue after it. */
  leaseMs: number;
  /** Usage-ledger events older than this are deleted, about once an hour (`MARGIN_USAGE_RETENTION_DAYS`). */
  usageRetentionDays: number;
}

/** The webhook delivery processor's settings (`WEBHOOK_PROCESSOR_*`, `WEBHOOK_DELIVERY_RETENTION_DAYS`). */
export interface DeliverySettings {
  /** False on intake-only processes: deliveries are recorded here and turned into jobs elsewhere. */
  enabled: boolean;
  pollIntervalMs: number;
  /** How long a claimed delivery is this process's; a crashed process's go to another after it. */
  leaseMs: number;
  /** Delivery history older than this is deleted, about once an hour. */
  retentionDays: number;
}

/** The crawl scheduler's settings (`CRAWL_SCHEDULER_INTERVAL_MILLISECONDS`, `CRAWL_LEASE_SECONDS`). */
export interface CrawlerSettings {
  /** False: this process never crawls (others sharing the database may). */
  enabled: boolean;
  /** How often due configurations are looked for (each has its own `crawlIntervalSeconds`). */
  pollIntervalMs: number;
  /** How long a crawl holds its configuration; another process takes it only after this. */
  leaseMs: number;
}

/** The code-knowledge index worker's settings (`KNOWLEDGE_INDEX_*` in the reference host). */
export interface KnowledgeIndexerSettings {
  /** False: this process never indexes (others sharing the database may). */
  enabled: boolean;
  /** Index jobs at once on this process, apart from the review worker's slots. */
  maxConcurrentJobs: number;
  pollIntervalMs: number;
  /** How long a claimed index job holds without a heartbeat. */
  leaseMs: number;
}

/** The conversation worker's settings: it answers mentions of Margin in pull request comments. */
export interface ConversationSettings {
  /** False: this process answers no mentions (others sharing the database may). */
  enabled: boolean;
  pollIntervalMs: number;
  /** How long a conversation is this process's; a crashed process's go to another after it. */
  leaseMs: number;
}

/** What runs besides answering requests. Several processes on one database share the work by leases. */
export interface BackgroundSettings {
  worker: WorkerSettings;
  deliveries: DeliverySettings;
  crawler: CrawlerSettings;
  knowledgeIndexer: KnowledgeIndexerSettings;
  conversations: ConversationSettings;
}

/** The defaults, the reference host's too (docs/operations.md): every part runs. */
export const DEFAULT_BACKGROUND_SETTINGS: BackgroundSettings = Object.freeze({
  worker: Object.freeze({
    enabled: true,
    maxConcurrentJobs: 4,
    pollIntervalMs: 2000,
    leaseMs: 120_000,
    usageRetentionDays: 400,
  }),
  deliveries: Object.freeze({ enabled: true, pollIntervalMs: 2000, leaseMs: 120_000, retentionDays: 30 }),
  crawler: Object.freeze({ enabled: true, pollIntervalMs: 5000, leaseMs: 300_000 }),
  knowledgeIndexer: Object.freeze({ enabled: true, maxConcurrentJobs: 2, pollIntervalMs: 2000, leaseMs: 120_000 }),
  conversations: Object.freeze({ enabled: true, pollIntervalMs: 2000, leaseMs: 120_000 }),
});

/** Each part's settings, overridden one field at a time; `false` disables every part (an API-only process). */
export type BackgroundSettingsInput =
  | false
  | {
      worker?: Partial<WorkerSettings> | undefined;
      deliveries?: Partial<DeliverySettings> | undefined;
      crawler?: Partial<CrawlerSettings> | undefined;
      knowledgeIndexer?: Partial<KnowledgeIndexerSettings> | undefined;
      conversations?: Partial<ConversationSettings> | undefined;
    };

export function resolveBackgroundSettings(input: BackgroundSettingsInput | undefined): BackgroundSettings {
  const d = DEFAULT_BACKGROUND_SETTINGS;
  if (input === false) {
    return {
      worker: { ...d.worker, enabled: false },
      deliveries: { ...d.deliveries, enabled: false },
      crawler: { ...d.crawler, enabled: false },
      knowledgeIndexer: { ...d.knowledgeIndexer, enabled: false },
      conversations: { ...d.conversations, enabled: false },
    };
  }
  return {
    worker: { ...d.worker, ...defined(input?.worker) },
    deliveries: { ...d.deliveries, ...defined(input?.deliveries) },
    crawler: { ...d.crawler, ...defined(input?.crawler) },
    knowledgeIndexer: { ...d.knowledgeIndexer, ...defined(input?.knowledgeIndexer) },
    conversations: { ...d.conversations, ...defined(input?.conversations) },
  };
}

/** `{ leaseMs: undefined }` keeps the default rather than erasing it. */
function defined<T extends object>(partial: T | undefined): Partial<T> {
  if (!partial) return {};
  return Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<T>;
}
