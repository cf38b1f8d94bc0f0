import { MarginError, type Repositories, type SecretBox, type StorageV1 } from '@margin/core/spec';
import knexFactory, { type Knex } from 'knex';
import { type DatabaseTarget, parseDatabaseUrl } from './database-url.js';
import { type Dialect, dialectOf, isLockTimeout, isRetryableTransactionError } from './dialect.js';
import { migrationSource } from './migrations/index.js';
import { repositoriesOn } from './repositories/index.js';

export interface KnexStorageOptions {
  /**
   * `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. A PostgreSQL schema other than `public`
   * goes in the URL: `?options=-c%20search_path%3D<schema>`.
   */
  url: string;
  /** Apply pending migrations while opening. Default true. */
  migrate?: boolean | undefined;
  /** PostgreSQL pool size. Default 10. */
  poolSize?: number | undefined;
  /** The secrets key's box, for migrations that re-seal stored credentials (needed once unbound values exist). */
  secrets?: SecretBox | undefined;
  /**
   * PostgreSQL: how long a transaction naming a lock waits for it (and for any row lock after it)
   * before giving up as busy. Default 5000 ms.
   */
  lockTimeoutMs?: number | undefined;
}

export interface KnexStorage extends StorageV1 {
  readonly dialect: Dialect;
  readonly knex: Knex;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
}

// Serializable transactions retried on conflict give the same guarantee as SQLite's single writer.
// Full-jitter exponential backoff (10 ms doubling to 320 ms, about 1.2 s in all at worst) spreads
// the retries of transactions that collided so they do not collide again.
const MAX_TRANSACTION_ATTEMPTS = 10;
const BACKOFF_BASE_MS = 10;
const BACKOFF_CAP_MS = 320;
const BUSY = 'The database is too busy to complete this request now; try again shortly.';
const LOCK_TIMEOUT_MS = 5000;

export async function openKnexStorage(options: KnexStorageOptions): Promise<KnexStorage> {
  const knex = knexFactory(knexConfig(parseDatabaseUrl(options.url), options));
  const dialect = dialectOf(knex);
  const lockTimeoutMs = Math.max(1, Math.floor(options.lockTimeoutMs ?? LOCK_TIMEOUT_MS));
  const storage: KnexStorage = {
    specificationVersion: 'v1',
    dialect,
    knex,
    ...repositoriesOn(knex, dialect),
    async transaction(fn, txOptions) {
      const lock = dialect === 'postgres' ? txOptions?.lock : undefined;
      for (let attempt = 1; ; attempt++) {
        try {
          return await knex.transaction((trx) => runLocked(trx, dialect, lock, lockTimeoutMs, fn), {
            // A locked transaction is serialized by its lock: read committed, it conflicts with no other.
            isolationLevel: dialect === 'postgres' && lock === undefined ? 'serializable' : undefined,
          });
        } catch (error) {
          // Waiting longer for a lock would only hold the caller longer: busy now, try later.
          if (isLockTimeout(error)) throw MarginError.unavailable(BUSY, 1);
          if (!isRetryableTransactionError(error)) throw error;
          if (attempt >= MAX_TRANSACTION_ATTEMPTS) throw MarginError.unavailable(BUSY, 1);
          const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
          await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
        }
      }
    },
    async ping() {
      await knex.raw('select 1');
    },
    async close() {
      await knex.destroy();
    },
    async migrate() {
      const source = migrationSource({ secrets: options.secrets });
      const [, applied] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
      return applied;
    },
  };
  if (options.migrate !== false) {
    try {
      await storage.migrate();
    } catch (error) {
      await knex.destroy();
      throw error;
    }
  }
  return storage;
}

/**
 * Takes the named lock (PostgreSQL only: SQLite has one writer) until the transaction ends, then runs
 * `fn`. Names are hashed to the lock's 64-bit key; two names sharing a key merely wait for each other.
 */
async function runLocked<T>(
  trx: Knex.Transaction,
  dialect: Dialect,
  lock: string | undefined,
  lockTimeoutMs: number,
  fn: (tx: Repositories) => Promise<T>,
): Promise<T> {
  if (lock !== undefined) {
    await trx.raw(`set local lock_timeout = ${lockTimeoutMs}`);
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [lock]);
  }
  return fn(repositoriesOn(trx, dialect));
}

function knexConfig(target: DatabaseTarget, options: KnexStorageOptions): Knex.Config {
  if (target.dialect === 'postgres') {
    return {
      client: 'pg',
      connection: { connectionString: target.connectionString },
      pool: { min: 0, max: options.poolSize ?? 10 },
    };
  }
  return {
    client: 'better-sqlite3',
    connection: { filename: target.filename },
    useNullAsDefault: true,
    // One connection: SQLite has one writer anyway, and `:memory:` must keep its only connection.
    // better-sqlite3 answers in-process without a thread-pool round trip, which keeps the hot reads
    // (job status) to tens of microseconds.
    pool: {
      min: 1,
      max: 1,
      idleTimeoutMillis: Number.MAX_SAFE_INTEGER,
      afterCreate(conn: SqliteConnection, done: (error: Error | null, conn: SqliteConnection) => void) {
        try {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          // synchronous=FULL: a commit is on disk before it is acknowledged (webhook deliveries rely on it).
          conn.pragma('synchronous = FULL');
          reusePreparedStatements(conn);
          done(null, conn);
        } catch (error) {
          done(error as Error, conn);
        }
      },
    },
  };
}

interface SqliteConnection {
  pragma(statement: string): unknown;
  prepare(sql: string): unknown;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Knex prepares every statement afresh, and preparing costs more than running a small query. The
 * same SQL text always yields an equivalent statement, and better-sqlite3 statements can be run
 * again and again, so the connection keeps the most recent ones.
 */
function reusePreparedStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const statements = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
    } else {
      statements.delete(sql); // re-insert: most recently used last
    }
    statements.set(sql, statement);
    return statement;
  };
}
