import { type QueryKey, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';

export const PAGE_SIZE = 25;

interface PagerProps {
  label: string;
  page: number;
  hasNext: boolean;
  onFirst(): void;
  onNext(): void;
  onPrevious?: () => void;
  pageCount?: number;
}

/** The one pager: every list pages, and the page is in the URL so it can be linked and reloaded. */
export function Pager({ label, page, hasNext, onFirst, onNext, onPrevious, pageCount }: PagerProps) {
  if (page === 1 && !hasNext) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={onFirst} disabled={page === 1}>
        First page
      </button>
      {onPrevious && (
        <button type="button" onClick={onPrevious} disabled={page === 1}>
          Previous page
        </button>
      )}
      <span>
        Page {page}
        {pageCount ? ` of ${pageCount}` : ''}
      </span>
      <button type="button" onClick={onNext} disabled={!hasNext}>
        Next page
      </button>
    </nav>
  );
}

interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A list the API pages with a cursor. The cursor (and how many pages in) is in the query string under
 * `name`, so two lists on one page keep their own place; each page is a query under `queryKey` plus
 * its cursor.
 */
export function useCursorList<T>(
  name: string,
  queryKey: QueryKey,
  load: (query: { limit: number; cursor?: string }) => Promise<CursorPage<T>>,
  options: { refetchInterval?: number } = {},
) {
  const [params, setParams] = useSearchParams();
  const cursor = params.get(`${name}Cursor`) ?? undefined;
  const page = Number(params.get(`${name}Page`) ?? '1') || 1;
  const query = useQuery({
    queryKey: [...queryKey, { cursor: cursor ?? null }],
    queryFn: () => load(cursor ? { limit: PAGE_SIZE, cursor } : { limit: PAGE_SIZE }),
    ...options,
  });
  const go = (next: string | undefined, nextPage: number) =>
    setParams((p) => {
      const copy = new URLSearchParams(p);
      if (next) {
        copy.set(`${name}Cursor`, next);
        copy.set(`${name}Page`, String(nextPage));
      } else {
        copy.delete(`${name}Cursor`);
        copy.delete(`${name}Page`);
      }
      return copy;
    });
  const nextCursor = query.data?.nextCursor ?? null;
  return {
    query,
    /** How many pages in (1 for the first), for numbering that runs on across pages. */
    page,
    pager: (label: string) => (
      <Pager
        label={label}
        page={page}
        hasNext={nextCursor !== null}
        onFirst={() => go(undefined, 1)}
        onNext={() => nextCursor && go(nextCursor, page + 1)}
      />
    ),
  };
}

/** A list the API answers whole: paged here, the page number in the query string under `name`. */
export function useLocalPage<T>(name: string, items: readonly T[] | undefined) {
  const [params, setParams] = useSearchParams();
  const all = items ?? [];
  const pageCount = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const page = Math.min(pageCount, Number(params.get(`${name}Page`) ?? '1') || 1);
  const go = (n: number) =>
    setParams((p) => {
      const copy = new URLSearchParams(p);
      if (n > 1) copy.set(`${name}Page`, String(n));
      else copy.delete(`${name}Page`);
      return copy;
    });
  return {
    items: all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    pager: (label: string) => (
      <Pager
        label={label}
        page={page}
        pageCount={pageCount}
        hasNext={page < pageCount}
        onFirst={() => go(1)}
        onPrevious={() => go(page - 1)}
        onNext={() => go(page + 1)}
      />
    ),
  };
}
