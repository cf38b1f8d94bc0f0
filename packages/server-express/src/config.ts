import { isIP } from 'node:net';
import { resolve } from 'node:path';
import {
  CALL_TIMEOUT_FIELDS,
  type CallTimeouts,
  callTimeoutsOf,
  flag,
  wholeNumber as int,
  optionalText,
  PROVIDER_STATUS_FIELDS,
  pluginSpecifiers,
  SPEND_CAP_FIELDS,
} from '@margin/cli';
import { type BackgroundSettings, DEFAULT_BACKGROUND_SETTINGS, MarginError } from '@margin/core';
import { z } from 'zod';

/** The per-IP limit on credential endpoints when `MARGIN_AUTH_RATELIMIT_*` are unset; embedders get it too. */
export const DEFAULT_AUTH_RATE_LIMIT = Object.freeze({ permits: 20, windowSeconds: 60 });

// The background work's defaults are the runtime's own (`@margin/core`), so embedders get the same.
const { worker, deliveries, crawler } = DEFAULT_BACKGROUND_SETTINGS;

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `MARGIN_TRUST_PROXY`: the proxies whose `X-Forwarded-For`/`-Proto` count, as Express takes them.
 * Unset means none: the bundled gateway is the edge and a client's headers say nothing. A number
 * trusts that many hops; otherwise a comma-separated list of addresses, CIDR ranges and the names
 * `loopback`, `linklocal`, `uniquelocal`. Trusting every proxy (`true`) is not offered.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): false | number | string[] => {
    const text = v?.trim() ?? '';
    if (text === '') return false;
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text.split(',').map((e) => e.trim());
    const bad = entries.find((e) => {
      if (PROXY_NAMES.has(e)) return false;
      const [address = '', prefix, extra] = e.split('/');
      const version = isIP(address);
      if (version === 0 || extra !== undefined) return true;
      return prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
    });
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a hop count or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal',
      });
      return z.NEVER;
    }
    return entries;
  });

/** `MARGIN_TLS_PORT`: the HTTPS port (default 8443), 0 for one the OS picks, or `off`. */
const tlsPort = z
  .string()
  .optional()
  .transform((v, ctx): number | 'off' => {
    const text = v?.trim().toLowerCase() ?? '';
    if (text === '') return 8443;
    if (text === 'off') return 'off';
    if (!/^\d+$/.test(text) || Number(text) > 65535) {
      ctx.addIssue({ code: 'custom', message: 'must be a port number (0–65535) or off' });
      return z.NEVER;
    }
    return Number(text);
  });

/**
 * `MARGIN_AI_TIMEOUT_SECONDS`, `MARGIN_SCM_TIMEOUT_SECONDS`: the deadline of one attempt of a call to
 * a model or a source-control provider, from connecting to the last byte of the answer. The host
 * and the CLI read the same two.
 */
/** The operator contract (ARCHITECTURE.md §6). The only place that reads `process.env`. */
const EnvFields = z.object({
  PORT: int(0, 65535, 8080),
  HOST: optionalText.transform((v) => v ?? '127.0.0.1'),
  MARGIN_DATA_DIR: optionalText.transform((v) => v ?? './data'),
  DATABASE_URL: optionalText,
  MARGIN_BOOTSTRAP_ADMIN_USER: optionalText.transform((v) => v ?? 'admin'),
  MARGIN_BOOTSTRAP_ADMIN_PASSWORD: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 8, 'must be at least 8 characters'),
  MARGIN_JWT_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 32, 'must be at least 32 characters'),
  MARGIN_SECRETS_KEY: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || v === '' || Buffer.from(v, 'base64').length === 32,
      'must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)',
    ),
  MARGIN_TLS_PORT: tlsPort,
  MARGIN_TLS_CERT_FILE: optionalText,
  MARGIN_TLS_KEY_FILE: optionalText,
  MARGIN_PUBLIC_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  MARGIN_ALLOW_PRIVATE_EGRESS: flag,
  ...PROVIDER_STATUS_FIELDS,
  ...CALL_TIMEOUT_FIELDS,
  WORKER_MAX_CONCURRENT_REVIEW_JOBS: int(1, 64, worker.maxConcurrentJobs),
  WORKER_POLL_INTERVAL_MILLISECONDS: int(10, 60_000, worker.pollIntervalMs),
  WORKER_LEASE_SECONDS: int(1, 3600, worker.leaseMs / 1000),
  MARGIN_REVIEW_MAX_CONCURRENT_MODEL_CALLS: int(1, 32, 4),
  ...SPEND_CAP_FIELDS,
  WORKER_ENABLED: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
  WEBHOOK_PROCESSOR_ENABLED: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
  WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS: int(10, 60_000, deliveries.pollIntervalMs),
  WEBHOOK_PROCESSOR_LEASE_SECONDS: int(1, 3600, deliveries.leaseMs / 1000),
  WEBHOOK_DELIVERY_RETENTION_DAYS: int(1, 3650, deliveries.retentionDays),
  MARGIN_USAGE_RETENTION_DAYS: int(1, 3650, worker.usageRetentionDays),
  CRAWL_SCHEDULER_INTERVAL_MILLISECONDS: int(10, 60_000, crawler.pollIntervalMs),
  CRAWL_LEASE_SECONDS: int(1, 3600, crawler.leaseMs / 1000),
  MARGIN_TRUST_PROXY: trustProxy,
  MARGIN_METRICS_TOKEN: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 16, 'must be at least 16 characters'),
  MARGIN_AUTH_RATELIMIT_PERMITS: int(1, 10_000, DEFAULT_AUTH_RATE_LIMIT.permits),
  MARGIN_AUTH_RATELIMIT_WINDOW_SECONDS: int(1, 3600, DEFAULT_AUTH_RATE_LIMIT.windowSeconds),
  MARGIN_CONSOLE_DIR: optionalText,
  MARGIN_PLUGINS: optionalText,
  NODE_ENV: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
});

const EnvSchema = EnvFields.superRefine((e, ctx) => {
  // A certificate without its key (or the reverse) cannot serve; half a pair is a typo, not a choice.
  if ((e.MARGIN_TLS_CERT_FILE === undefined) !== (e.MARGIN_TLS_KEY_FILE === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [e.MARGIN_TLS_CERT_FILE === undefined ? 'MARGIN_TLS_CERT_FILE' : 'MARGIN_TLS_KEY_FILE'],
      message: 'must be set too: MARGIN_TLS_CERT_FILE and MARGIN_TLS_KEY_FILE go together',
    });
  }
  // A soft cap above the hard one could never degrade a review before the stop.
  if (e.MARGIN_REVIEW_SOFT_CAP_USD !== undefined && e.MARGIN_REVIEW_HARD_CAP_USD !== undefined) {
    if (e.MARGIN_REVIEW_SOFT_CAP_USD > e.MARGIN_REVIEW_HARD_CAP_USD) {
      ctx.addIssue({
        code: 'custom',
        path: ['MARGIN_REVIEW_SOFT_CAP_USD'],
        message: 'must not exceed MARGIN_REVIEW_HARD_CAP_USD',
      });
    }
  }
});

export interface HostConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  bootstrapAdmin: { username: string; password: string | undefined };
  jwtSecret: string | undefined;
  /** base64 of 32 bytes. */
  secretsKey: string | undefined;
  publicBaseUrl: string | undefined;
  /** `MARGIN_PROVIDER_STATUS`: reviews set a status on the pull request's head commit, linking the job page. */
  providerStatus: boolean;
  /**
   * HTTPS beside HTTP; undefined when `MARGIN_TLS_PORT=off`. Without `certFile`/`keyFile` the host
   * uses a self-signed certificate it generates once into the data dir.
   */
  tls: { port: number; certFile: string | undefined; keyFile: string | undefined } | undefined;
  allowPrivateEgress: boolean;
  callTimeouts: CallTimeouts;
  /** `enabled: false` makes an API-only host: it queues jobs but never runs them. */
  worker: {
    enabled: boolean;
    maxConcurrentJobs: number;
    pollIntervalMs: number;
    leaseMs: number;
    /** Usage-ledger events (and their daily rollups) older than this are deleted, about hourly. */
    usageRetentionDays: number;
  };
  /**
   * The review engine: model conversations one job keeps in flight, and what one review may spend
   * (US$; enforced only while the `budgeting` capability is available).
   */
  review: {
    maxConcurrentModelCalls: number;
    spendCaps: { softUsd?: number | undefined; hardUsd?: number | undefined };
  };
  /** The webhook delivery processor and the crawl scheduler (they run on every host; leases share the work). */
  triggers: {
    /** False on intake-only hosts: deliveries are recorded here and turned into jobs by other hosts. */
    processDeliveries: boolean;
    deliveryPollIntervalMs: number;
    deliveryLeaseMs: number;
    /** Delivery history older than this is deleted (by the processor, about hourly). */
    deliveryRetentionDays: number;
    crawlPollIntervalMs: number;
    crawlLeaseMs: number;
  };
  authRateLimit: { permits: number; windowSeconds: number };
  /** Modules of provider plugins to register (`MARGIN_PLUGINS`, comma-separated package names or paths). */
  plugins: string[];
  /** The management console's build, served by the gateway at `/`; unset: no console. */
  consoleDir: string | undefined;
  /** Proxies whose forwarded headers count (Express `trust proxy`); false: none, the gateway is the edge. */
  trustProxy: false | number | string[];
  /** Lets non-loopback callers read `/metrics` with `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  development: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
}

/** The runtime's background settings from the host's configuration (`WORKER_*`, `WEBHOOK_*`, `CRAWL_*`). */
export function backgroundSettingsOf(config: Pick<HostConfig, 'worker' | 'triggers'>): BackgroundSettings {
  const t = config.triggers;
  return {
    worker: { ...config.worker },
    deliveries: {
      enabled: t.processDeliveries,
      pollIntervalMs: t.deliveryPollIntervalMs,
      leaseMs: t.deliveryLeaseMs,
      retentionDays: t.deliveryRetentionDays,
    },
    crawler: { enabled: true, pollIntervalMs: t.crawlPollIntervalMs, leaseMs: t.crawlLeaseMs },
    // Indexing is worker work: an API-only host (WORKER_ENABLED=false) leaves it to the others.
    knowledgeIndexer: {
      ...DEFAULT_BACKGROUND_SETTINGS.knowledgeIndexer,
      enabled: config.worker.enabled,
      pollIntervalMs: config.worker.pollIntervalMs,
    },
    // Mentions are answered where deliveries are processed: an intake-only process answers none.
    conversations: {
      enabled: t.processDeliveries,
      pollIntervalMs: t.deliveryPollIntervalMs,
      leaseMs: t.deliveryLeaseMs,
    },
  };
}

/** Reads and checks the environment. Errors name the variable and never echo its value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HostConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join('; ');
    throw MarginError.validation(`Invalid configuration: ${problems}.`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.MARGIN_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${resolve(dataDir, 'margin.db')}`,
    bootstrapAdmin: {
      username: e.MARGIN_BOOTSTRAP_ADMIN_USER,
      password: e.MARGIN_BOOTSTRAP_ADMIN_PASSWORD || undefined,
    },
    jwtSecret: e.MARGIN_JWT_SECRET || undefined,
    secretsKey: e.MARGIN_SECRETS_KEY || undefined,
    publicBaseUrl: e.MARGIN_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    providerStatus: e.MARGIN_PROVIDER_STATUS,
    tls:
      e.MARGIN_TLS_PORT === 'off'
        ? undefined
        : {
            port: e.MARGIN_TLS_PORT,
            certFile: e.MARGIN_TLS_CERT_FILE && resolve(e.MARGIN_TLS_CERT_FILE),
            keyFile: e.MARGIN_TLS_KEY_FILE && resolve(e.MARGIN_TLS_KEY_FILE),
          },
    allowPrivateEgress: e.MARGIN_ALLOW_PRIVATE_EGRESS,
    callTimeouts: callTimeoutsOf(e),
    worker: {
      enabled: e.WORKER_ENABLED,
      maxConcurrentJobs: e.WORKER_MAX_CONCURRENT_REVIEW_JOBS,
      pollIntervalMs: e.WORKER_POLL_INTERVAL_MILLISECONDS,
      leaseMs: e.WORKER_LEASE_SECONDS * 1000,
      usageRetentionDays: e.MARGIN_USAGE_RETENTION_DAYS,
    },
    review: {
      maxConcurrentModelCalls: e.MARGIN_REVIEW_MAX_CONCURRENT_MODEL_CALLS,
      spendCaps: { softUsd: e.MARGIN_REVIEW_SOFT_CAP_USD, hardUsd: e.MARGIN_REVIEW_HARD_CAP_USD },
    },
    triggers: {
      processDeliveries: e.WEBHOOK_PROCESSOR_ENABLED,
      deliveryPollIntervalMs: e.WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS,
      deliveryLeaseMs: e.WEBHOOK_PROCESSOR_LEASE_SECONDS * 1000,
      deliveryRetentionDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS,
      crawlPollIntervalMs: e.CRAWL_SCHEDULER_INTERVAL_MILLISECONDS,
      crawlLeaseMs: e.CRAWL_LEASE_SECONDS * 1000,
    },
    authRateLimit: { permits: e.MARGIN_AUTH_RATELIMIT_PERMITS, windowSeconds: e.MARGIN_AUTH_RATELIMIT_WINDOW_SECONDS },
    plugins: pluginSpecifiers(e.MARGIN_PLUGINS),
    consoleDir: e.MARGIN_CONSOLE_DIR ? resolve(e.MARGIN_CONSOLE_DIR) : undefined,
    trustProxy: e.MARGIN_TRUST_PROXY,
    metricsToken: e.MARGIN_METRICS_TOKEN || undefined,
    // `Development`, as other stacks spell it, means the same.
    development: e.NODE_ENV?.toLowerCase() === 'development',
    logLevel: e.LOG_LEVEL,
  };
}
