import type { AiRepositories } from '../ai/index.js';
import type { AuditRepositories } from '../audit/index.js';
import type { ConversationsRepositories } from '../conversations/index.js';
import type { IdentityRepositories } from '../identity/index.js';
import type { TransactionOptions } from '../kernel/index.js';
import type { KnowledgeRepositories } from '../knowledge/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { ReviewingRepositories } from '../reviewing/index.js';
import type { ScmRepositories } from '../scm/index.js';
import type { SpendRepositories } from '../spend/index.js';
import type { TenancyRepositories } from '../tenancy/index.js';
import type { TriggersRepositories } from '../triggers/index.js';

/**
 * Every repository, one per aggregate: each capability's part of the port. Inside `transaction` the
 * same shape is bound to the transaction.
 */
export interface Repositories
  extends AuditRepositories,
    IdentityRepositories,
    TenancyRepositories,
    LicensingRepositories,
    ScmRepositories,
    AiRepositories,
    KnowledgeRepositories,
    SpendRepositories,
    ReviewingRepositories,
    ConversationsRepositories,
    TriggersRepositories {}

/**
 * The storage port. `storage-knex` implements it on SQLite and PostgreSQL; core ships a memory one.
 * Both must pass `describeStorageContract` from `@margin/core/testing`.
 */
export interface StorageV1 extends Repositories {
  readonly specificationVersion: 'v1';
  readonly dialect: string;
  /**
   * Runs `fn` atomically and serializably: all of its writes land or none do. `fn` may run more than
   * once (a conflicting transaction is retried), so it must do nothing but storage work: emit events
   * and call providers after it returns. Use only `tx` inside. A conflict that outlasts the retries
   * is a `service_unavailable` error carrying `retryAfterSeconds`.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Resolves when the database answers; used by health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
