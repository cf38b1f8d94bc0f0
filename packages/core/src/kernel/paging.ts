import { z } from 'zod';
import { MarginError } from './errors.js';

export interface PageRequest {
  limit: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string | null | undefined;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Where a keyset page starts: after the row with this sort key and id. */
export interface CursorPosition {
  key: string;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): CursorPosition | undefined {
  if (!cursor) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string'
    ) {
      return { key: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through to the validation error
  }
  throw MarginError.validation('The cursor is not valid.', [
    { path: 'cursor', message: 'Not a cursor from this API.' },
  ]);
}

/**
 * Builds a page from `limit + 1` rows fetched in order: the extra row only tells whether more exist.
 */
export function toPage<T>(rows: T[], limit: number, positionOf: (row: T) => CursorPosition): Page<T> {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as T;
  return { items, nextCursor: encodeCursor(positionOf(last)) };
}

/** The query every list endpoint takes: a page size and the cursor a previous page answered. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});
