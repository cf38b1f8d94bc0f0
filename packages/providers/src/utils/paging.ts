/**
 * Page iteration helpers. Every list an adapter streams goes through `paginate`, which asks for one
 * page at a time and yields its items before asking for the next, so a 5,000-file pull request never
 * sits in memory whole.
 */

export interface Page<T, C> {
  items: readonly T[];
  /** Where the next page starts; `undefined` when this was the last page. */
  next: C | undefined;
}

/** Streams items page by page, starting from `first` (e.g. `undefined`, `0`, or a first URL). */
export async function* paginate<T, C>(
  first: C | undefined,
  fetchPage: (cursor: C | undefined) => Promise<Page<T, C>>,
  /** A provider that keeps handing back the same cursor must not loop forever. */
  maxPages = 10_000,
): AsyncGenerator<T> {
  let cursor = first;
  for (let page = 0; page < maxPages; page++) {
    const { items, next } = await fetchPage(cursor);
    yield* items;
    if (next === undefined || next === cursor) return;
    cursor = next;
  }
}

/**
 * The URLs of an RFC 8288 `Link` header by relation: `<https://…?page=2>; rel="next", <…>; rel="last"`
 * gives `{ next: 'https://…?page=2', last: '…' }`. Used by GitHub and GitLab.
 */
export function parseLinkHeader(header: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!match?.[1] || match[2] === undefined) continue;
    const rel = /\brel\s*=\s*"?([^";]+)"?/i.exec(match[2])?.[1];
    if (!rel) continue;
    for (const name of rel.trim().split(/\s+/)) out[name.toLowerCase()] = match[1];
  }
  return out;
}

/** A continuation token from a response header (Azure DevOps `x-ms-continuationtoken`), if non-empty. */
export function continuationToken(headers: Headers, name = 'x-ms-continuationtoken'): string | undefined {
  const value = headers.get(name);
  return value ? value : undefined;
}
