import { decodeCursor, type Page, type PageRequest, toPage } from '@margin/core';
import type { Knex } from 'knex';

/**
 * One keyset page: `limit + 1` rows ordered by (key, id) in one direction, starting after the
 * cursor's row. `positionOf` gives a record's cursor position, so the next page starts after it.
 */
export async function keysetPage<T>(
  query: Knex.QueryBuilder,
  columns: { key: string; id: string; order: 'asc' | 'desc' },
  page: PageRequest,
  fromRow: (row: Record<string, unknown>) => T,
  positionOf: (record: T) => { key: string; id: string },
): Promise<Page<T>> {
  const after = decodeCursor(page.cursor);
  const beyond = columns.order === 'asc' ? '>' : '<';
  if (after) {
    query.where((q) =>
      q
        .where(columns.key, beyond, after.key)
        .orWhere((q2) => q2.where(columns.key, after.key).andWhere(columns.id, beyond, after.id)),
    );
  }
  const rows = await query
    .orderBy([
      { column: columns.key, order: columns.order },
      { column: columns.id, order: columns.order },
    ])
    .limit(page.limit + 1);
  return toPage((rows as Array<Record<string, unknown>>).map(fromRow), page.limit, positionOf);
}
