import { type CursorPosition, decodeCursor, type Page, type PageRequest, toPage } from '@margin/core/spec';
import type { Knex } from 'knex';
import type { Row } from './rows.js';

/**
 * A keyset order: rows sorted by (key, id) in one direction, `id` a unique tie-breaker. Every
 * listing's index leads with its filter columns and then these two, so a page is one index range.
 */
export interface KeysetOrder<T> {
  readonly key: string;
  readonly id: string;
  readonly direction: 'asc' | 'desc';
  /** A record's place in the order: the cursor of the page after it. */
  positionOf(record: T): CursorPosition;
}

/** An order on `key` (then `id`) in one direction; `positionOf` reads both back from a record. */
export function keyset<T>(
  key: string,
  direction: 'asc' | 'desc',
  positionOf: (record: T) => CursorPosition,
  id = 'id',
): KeysetOrder<T> {
  return { key, id, direction, positionOf };
}

/**
 * By creation time, the order most listings use (oldest first unless told otherwise). `alias`
 * qualifies the columns when the query joins (`'t.'`).
 */
export function byCreatedAt<T extends { createdAt: string; id: string }>(
  direction: 'asc' | 'desc' = 'asc',
  alias = '',
): KeysetOrder<T> {
  return keyset(`${alias}created_at`, direction, (r) => ({ key: r.createdAt, id: r.id }), `${alias}id`);
}

/** Sorts a query by (key, id) in one direction: an unpaged listing, or a keyset order's whole range. */
export function inOrder<Q extends Knex.QueryBuilder>(
  query: Q,
  order: Pick<KeysetOrder<never>, 'key' | 'id' | 'direction'>,
): Q {
  return query.orderBy([
    { column: order.key, order: order.direction },
    { column: order.id, order: order.direction },
  ]) as Q;
}

/**
 * One keyset page: the rows after the cursor's position, in the order, `limit + 1` of them so
 * `toPage` knows whether another page follows. `query` carries the listing's own filters.
 */
export async function keysetPage<T>(
  query: Knex.QueryBuilder,
  order: KeysetOrder<NoInfer<T>>,
  page: PageRequest,
  fromRow: (row: Row) => T,
): Promise<Page<T>> {
  return keysetPageOfRows(query, order, page, (rows) => rows.map(fromRow));
}

/** As `keysetPage`, for records built from the page's rows together (e.g. with their children). */
export async function keysetPageOfRows<T>(
  query: Knex.QueryBuilder,
  order: KeysetOrder<NoInfer<T>>,
  page: PageRequest,
  fromRows: (rows: Row[]) => T[] | Promise<T[]>,
): Promise<Page<T>> {
  const after = decodeCursor(page.cursor);
  if (after) {
    const beyond = order.direction === 'asc' ? '>' : '<';
    query.where((q) =>
      q
        .where(order.key, beyond, after.key)
        .orWhere((q2) => q2.where(order.key, after.key).andWhere(order.id, beyond, after.id)),
    );
  }
  const rows = (await inOrder(query, order).limit(page.limit + 1)) as Row[];
  return toPage(await fromRows(rows), page.limit, order.positionOf);
}
