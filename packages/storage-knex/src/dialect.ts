import type { Knex } from 'knex';
import type { Row } from './rows.js';

/**
 * Dialect differences, in one place. Timestamps are ISO-8601 UTC text on SQLite and timestamptz on
 * PostgreSQL (read back as Date); JSON is text on SQLite and jsonb on PostgreSQL; booleans are 0/1
 * on SQLite; raw statements answer with rows on SQLite and with `{ rows }` on PostgreSQL; claiming
 * rows is one statement on each, written differently.
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

/** A boolean bound into raw SQL (the query builder converts its own). */
export function bindBool(value: boolean, dialect: Dialect): boolean | number {
  if (dialect === 'postgres') return value;
  return value ? 1 : 0;
}

/** Always stringify: pg would turn a top-level JS array into a PostgreSQL array literal. */
export function writeJson(value: unknown): string {
  return JSON.stringify(value);
}

export function writeJsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : writeJson(value);
}

/** PostgreSQL hands jsonb back parsed; SQLite hands back the text. */
export function readJson<T = unknown>(value: unknown, dialect: Dialect): T {
  return (dialect === 'sqlite' ? JSON.parse(String(value)) : value) as T;
}

export function readJsonOrNull<T = unknown>(value: unknown, dialect: Dialect): T | null {
  return value === null || value === undefined ? null : readJson<T>(value, dialect);
}

/** The rows of a raw statement's answer. */
export function rowsOf(result: unknown, dialect: Dialect): Row[] {
  return (dialect === 'postgres' ? (result as { rows: Row[] }).rows : result) as Row[];
}

export interface Claim {
  table: string;
  /** `select id from <table> where … order by … limit ?`: the rows to claim, in claim order. */
  pick: string;
  pickBindings: readonly Knex.RawBinding[];
  /** The assignments that claim a row (`col = ?, …`). */
  set: string;
  setBindings: readonly Knex.RawBinding[];
  /** PostgreSQL only: a condition a picked row must still meet when it is updated. */
  recheck?: string;
}

/**
 * Claims rows in one statement and returns them as updated. On PostgreSQL a materialized CTE picks
 * the rows once (inside `IN (...)` PostgreSQL may re-run a `LIMIT ... SKIP LOCKED` subquery and
 * claim more rows than asked for), and SKIP LOCKED lets hosts claiming at once pass each other's
 * rows instead of waiting on their locks. SQLite has one writer: the statement runs alone.
 */
export async function claimRows(db: Knex | Knex.Transaction, dialect: Dialect, claim: Claim): Promise<Row[]> {
  const { table, pick, set } = claim;
  if (dialect === 'postgres') {
    const recheck = claim.recheck ? ` and ${claim.recheck}` : '';
    const result = await db.raw(
      `with candidates as materialized (${pick} for update skip locked)
       update ${table} set ${set} from candidates
       where ${table}.id = candidates.id${recheck} returning ${table}.*`,
      [...claim.pickBindings, ...claim.setBindings],
    );
    return rowsOf(result, dialect);
  }
  const result = await db.raw(`update ${table} set ${set} where id in (${pick}) returning *`, [
    ...claim.setBindings,
    ...claim.pickBindings,
  ]);
  return rowsOf(result, dialect);
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

/** PostgreSQL gave up waiting for a lock (`lock_timeout`). */
export function isLockTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '55P03';
}
