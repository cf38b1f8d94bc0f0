import type { MarginError } from '@margin/core/spec';
import type { Knex } from 'knex';
import { isUniqueViolation, writeJson } from './dialect.js';

/**
 * Row ↔ record idioms every repository shares and that are the same on both dialects. What differs
 * between SQLite and PostgreSQL (timestamps, booleans, JSON, raw results) is in `dialect.ts`.
 */

/** Where a repository reads and writes: the storage's connection, or the transaction it runs in. */
export type Db = Knex | Knex.Transaction;

/** A row as the driver hands it back, or as it is written. */
export type Row = Record<string, unknown>;

/** A nullable text column. */
export function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** A nullable number column (pg returns bigint and numeric columns as strings). */
export function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** The case-folded `*_key` column that makes a name unique regardless of case. */
export function lower(value: string): string {
  return value.toLowerCase();
}

/** Where a patch field goes: a plain column, or a JSON column. */
export type PatchColumn = string | { readonly json: string };

/** The columns a patch sets: `undefined` leaves a column alone, `null` clears it; unmapped fields are ignored. */
export function columnsOf<P extends object>(patch: P, columns: { readonly [K in keyof P]?: PatchColumn }): Row {
  const row: Row = {};
  for (const [field, value] of Object.entries(patch)) {
    const target = columns[field as keyof P];
    if (target === undefined || value === undefined) continue;
    if (typeof target === 'string') row[target] = value;
    else row[target.json] = writeJson(value);
  }
  return row;
}

/** Runs a write; a unique-constraint violation becomes the conflict `conflict` describes. */
export async function conflictOnDuplicate<T>(
  write: PromiseLike<T>,
  conflict: (error: unknown) => MarginError,
): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(error);
    throw error;
  }
}

/**
 * Writes a patch's columns (if it has any) to the row with this id and reads the row back:
 * `undefined` when there is no such row.
 */
export async function updateAndRead<T>(
  table: () => Knex.QueryBuilder,
  id: string,
  row: Row,
  fromRow: (row: Row) => T,
  conflict?: (error: unknown) => MarginError,
): Promise<T | undefined> {
  if (Object.keys(row).length > 0) {
    const write = table().where({ id }).update(row);
    await (conflict ? conflictOnDuplicate(write, conflict) : write);
  }
  const updated = await table().where({ id }).first();
  return updated && fromRow(updated);
}

/** Runs `fn` in the caller's transaction, or in a short one of its own for writes of several statements. */
export function atomically<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return (db as Knex.Transaction).isTransaction ? fn(db) : (db as Knex).transaction((trx) => fn(trx));
}

/** Rows per insert statement, well under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 50;

/** Inserts many rows in batches of a bounded number of bound parameters. */
export async function insertInChunks(db: Db, table: string, rows: readonly Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await db(table).insert(rows.slice(i, i + INSERT_CHUNK));
}
