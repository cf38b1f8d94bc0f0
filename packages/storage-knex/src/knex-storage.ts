import type { Repositories, StorageV1 } from '@margin/core';
import knexFactory, { type Knex } from 'knex';
import { type DatabaseTarget, parseDatabaseUrl } from './database-url.js';
import { type Dialect, dialectOf, isRetryableTransactionError } from './dialect.js';
import { migrationSource } from './migrations/index.js';
import { knexAiConnections, knexAiLogicalModels, knexAiModelCatalog } from './repositories/ai.js';
import { knexMemberships, knexPersonalAccessTokens, knexRefreshTokens } from './repositories/identity.js';
import { knexSettings } from './repositories/settings.js';
import { knexClients, knexTenants } from './repositories/tenancy.js';
import { knexUsers } from './repositories/users.js';

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
}

export interface KnexStorage extends StorageV1 {
  readonly dialect: Dialect;
  readonly knex: Knex;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
}

// Serializable transactions retried on conflict give the same guarantee as SQLite's single writer.
const MAX_TRANSACTION_ATTEMPTS = 8;

function repositoriesOn(db: Knex | Knex.Transaction, dialect: Dialect): Repositories {
  return {
    users: knexUsers(db),
    refreshTokens: knexRefreshTokens(db),
    personalAccessTokens: knexPersonalAccessTokens(db),
    memberships: knexMemberships(db),
    tenants: knexTenants(db),
    clients: knexClients(db),
    settings: knexSettings(db, dialect),
    aiConnections: knexAiConnections(db, dialect),
    aiLogicalModels: knexAiLogicalModels(db),
    aiModelCatalog: knexAiModelCatalog(db, dialect),
  };
}

export async function openKnexStorage(options: KnexStorageOptions): Promise<KnexStorage> {
  const knex = knexFactory(knexConfig(parseDatabaseUrl(options.url), options));
  const dialect = dialectOf(knex);
  const storage: KnexStorage = {
    specificationVersion: 'v1',
    dialect,
    knex,
    ...repositoriesOn(knex, dialect),
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await knex.transaction((trx) => fn(repositoriesOn(trx, dialect)), {
            isolationLevel: dialect === 'postgres' ? 'serializable' : undefined,
          });
        } catch (error) {
          if (!isRetryableTransactionError(error) || attempt >= MAX_TRANSACTION_ATTEMPTS) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
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
      const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
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

function knexConfig(target: DatabaseTarget, options: KnexStorageOptions): Knex.Config {
  if (target.dialect === 'postgres') {
    return {
      client: 'pg',
      connection: { connectionString: target.connectionString },
      pool: { min: 0, max: options.poolSize ?? 10 },
    };
  }
  return {
    client: 'sqlite3',
    connection: { filename: target.filename },
    useNullAsDefault: true,
    // One connection: SQLite has one writer anyway, and `:memory:` must keep its only connection.
    // synchronous=FULL: a commit is on disk before it is acknowledged (webhook deliveries rely on it).
    pool: {
      min: 1,
      max: 1,
      idleTimeoutMillis: Number.MAX_SAFE_INTEGER,
      afterCreate(conn: SqliteConnection, done: (error: Error | null, conn: SqliteConnection) => void) {
        conn.exec(
          'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = FULL;',
          (error) => done(error, conn),
        );
      },
    },
  };
}

interface SqliteConnection {
  exec(sql: string, callback: (error: Error | null) => void): void;
}
