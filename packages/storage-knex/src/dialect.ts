import type { Knex } from 'knex';

/**
 * Dialect differences, in one place. Timestamps are ISO-8601 UTC text on SQLite and timestamptz on
 * PostgreSQL (read back as Date); JSON is text on SQLite and jsonb on PostgreSQL; booleans are 0/1
 * on SQLite.
 */
export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(knex: Knex): Dialect {
  return knex.client.config.client === 'pg' ? 'postgres' : 'sqlite';
}

export function readTime(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

export function readTimeOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : readTime(value);
}

export function readBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** Always stringify: pg would turn a top-level JS array into a PostgreSQL array literal. */
export function writeJson(value: unknown): string {
  return JSON.stringify(value);
}

/** PostgreSQL hands jsonb back parsed; SQLite hands back the text. */
export function readJson<T = unknown>(value: unknown, dialect: Dialect): T {
  return (dialect === 'sqlite' ? JSON.parse(String(value)) : value) as T;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (e.code === '23505') return true;
  // better-sqlite3 reports SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY; the message names UNIQUE either way.
  return typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT') && String(e.message).includes('UNIQUE');
}

/** PostgreSQL serialization failure or deadlock: the transaction can simply be run again. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}
