import type { UsersRepository } from '../identity/user-record.js';
import type { SettingsRepository } from './settings-repository.js';

/** Every repository, one per aggregate. Inside `transaction` the same shape is bound to the transaction. */
export interface Repositories {
  users: UsersRepository;
  settings: SettingsRepository;
}

/**
 * The storage port. `storage-knex` implements it on SQLite and PostgreSQL; core ships a memory one.
 * Both must pass `describeStorageContract` from `@margin/core/testing`.
 */
export interface StorageV1 extends Repositories {
  readonly specificationVersion: 'v1';
  readonly dialect: string;
  /**
   * Runs `fn` atomically: all of its writes land or none do. Use only `tx` inside; calling the outer
   * storage from within a transaction may wait on the transaction itself.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Resolves when the database answers; used by health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
