import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { type KnexStorage, openKnexStorage } from '../knex-storage.js';

export type TestDialect = 'sqlite' | 'postgres';

/** Where PostgreSQL tests run; `off` skips them outside CI. */
export const TEST_PG_URL = process.env.MARGIN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The dialects a test run covers. In CI PostgreSQL can never be switched off. */
export function testDialects(): TestDialect[] {
  if (TEST_PG_URL === 'off') {
    if (process.env.CI) throw new Error('MARGIN_TEST_PG_URL=off is not allowed in CI: the PostgreSQL tests must run.');
    return ['sqlite'];
  }
  return ['sqlite', 'postgres'];
}

export interface TestDatabase {
  dialect: TestDialect;
  /** A DATABASE_URL for this database (for PostgreSQL it selects the run's own schema). */
  url: string;
  /** Removes the database file or schema. Close every storage on it first. */
  drop(): Promise<void>;
}

/** A fresh, empty database: a SQLite file in a temp dir, or a PostgreSQL schema of its own. */
export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'margin-test-'));
    return { dialect, url: `sqlite:${join(dir, 'margin.db')}`, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const schema = `margin_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.raw(`create schema "${schema}"`));
  return {
    dialect,
    url: `${TEST_PG_URL}${TEST_PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => withAdmin((admin) => admin.raw(`drop schema if exists "${schema}" cascade`)),
  };
}

/** A migrated storage on a fresh database; `dispose` closes it and drops the database. */
export async function openTestStorage(
  dialect: TestDialect,
): Promise<{ storage: KnexStorage; dispose(): Promise<void> }> {
  const db = await createTestDatabase(dialect);
  const storage = await openKnexStorage({ url: db.url, poolSize: 4 });
  return {
    storage,
    async dispose() {
      await storage.close();
      await db.drop();
    },
  };
}

async function withAdmin<T>(fn: (admin: Knex) => Promise<T>): Promise<T> {
  const admin = knexFactory({ client: 'pg', connection: TEST_PG_URL, pool: { min: 0, max: 1 } });
  try {
    return await fn(admin);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`PostgreSQL for tests is not usable at ${redact(TEST_PG_URL)}: ${reason}`);
  } finally {
    await admin.destroy();
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
