import { PAGE_LIMIT_MAX } from '@fsm/contracts';
import { infiniteQueryOptions, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';

/*
 * Keyset pages (issue #19): the long lists load page by page through
 * useInfiniteQuery, the cursor of each page being the previous page's
 * `next_cursor` (null for the first page).
 */

export type PageCursor = string | null;
type LoadedPages<TPage> = InfiniteData<TPage, PageCursor>;

/**
 * The infinite query of one keyset-paged list: each page asks for the one
 * after the previous page's `next_cursor`. Never stale by time: live changes
 * refresh the loaded pages they concern (`refreshLoadedPages`) and a
 * reconnection invalidates everything, while a refetch on focus or remount
 * would reload every loaded page one after the other.
 */
export function keysetPagesQuery<TPage extends { next_cursor: string | null }, TRow extends { id: string }, TKey extends QueryKey>(
  queryKey: TKey,
  list: PagedList<TPage, TRow>,
  pageSize: number,
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) => list.fetchPage(pageParam, pageSize, signal),
    initialPageParam: null as PageCursor,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: Infinity,
  });
}

/** What the page helpers need to know of one list's pages. */
export interface PagedList<TPage, TRow extends { id: string }> {
  rows: (page: TPage) => readonly TRow[];
  /** The same page holding only `rows`. */
  withRows: (page: TPage, rows: TRow[]) => TPage;
  /** The page after `cursor` (null: the first page, with the totals), of at most `limit` rows. */
  fetchPage: (cursor: PageCursor, limit: number, signal?: AbortSignal) => Promise<TPage>;
}

/**
 * The loaded rows in order, each once: a page refreshed on its own may end
 * with rows that the next loaded page also holds.
 */
export function loadedRows<TPage, TRow extends { id: string }>(
  data: { pages: readonly TPage[] } | undefined,
  rows: (page: TPage) => readonly TRow[],
): TRow[] {
  const seen = new Set<string>();
  const out: TRow[] = [];
  for (const page of data?.pages ?? []) {
    for (const row of rows(page)) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      out.push(row);
    }
  }
  return out;
}

async function refetchPage<TPage, TRow extends { id: string }>(
  list: PagedList<TPage, TRow>,
  page: TPage,
  cursor: PageCursor,
  isLast: boolean,
  pageSize: number,
): Promise<TPage> {
  const before = list.rows(page);
  // Asked a little longer than it was, so that rows pushed down by new ones do
  // not fall between this page and the next loaded one (whose cursor is fixed).
  const fresh = await list.fetchPage(cursor, Math.min(PAGE_LIMIT_MAX, before.length + pageSize));
  if (isLast) return fresh;
  const rows = list.rows(fresh);
  const lastBefore = before.at(-1)?.id;
  const end = lastBefore === undefined ? -1 : rows.findIndex((row) => row.id === lastBefore);
  return end < 0 ? fresh : list.withRows(fresh, rows.slice(0, end + 1));
}

/**
 * After a change to the rows `ids`, refetches in one cached infinite query the
 * first page (its totals, and whatever now sorts at the head) and the loaded
 * pages holding one of those rows, and leaves the other pages as they are:
 * invalidating the query would refetch every loaded page, one after the other.
 * A row that left the list disappears with its page's refetch; one that moved
 * is deduplicated by `loadedRows`.
 */
export async function refreshLoadedPages<TPage, TRow extends { id: string }>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  ids: ReadonlySet<string>,
  list: PagedList<TPage, TRow>,
  pageSize: number,
): Promise<void> {
  const data = queryClient.getQueryData<LoadedPages<TPage>>(queryKey);
  if (!data || data.pages.length === 0) return;
  const count = data.pages.length;
  const fresh = await Promise.all(
    data.pages.map((page, index) =>
      index === 0 || list.rows(page).some((row) => ids.has(row.id))
        ? refetchPage(list, page, data.pageParams[index] ?? null, index === count - 1, pageSize)
        : page,
    ),
  );
  queryClient.setQueryData<LoadedPages<TPage>>(queryKey, (current) => {
    // Refetched or reset meanwhile: what it holds now is newer than these pages.
    if (!current || current.pageParams.length < count) return current;
    if (data.pageParams.some((cursor, index) => current.pageParams[index] !== cursor)) return current;
    return { pages: [...fresh, ...current.pages.slice(count)], pageParams: current.pageParams };
  });
}

/**
 * Runs `refresh` (a `refreshLoadedPages`) on every cached paged query under
 * `prefix` that a screen shows. One no screen shows is dropped instead: shown
 * again, it loads its first page afresh rather than every page it had.
 */
export async function refreshPagedQueries(
  queryClient: QueryClient,
  prefix: QueryKey,
  refresh: (queryKey: QueryKey) => Promise<void> | undefined,
): Promise<void> {
  const queries = queryClient.getQueryCache().findAll({ queryKey: prefix });
  await Promise.all(
    queries.map(async (query) => {
      if (query.getObserversCount() === 0) {
        queryClient.removeQueries({ queryKey: query.queryKey, exact: true });
        return;
      }
      try {
        await refresh(query.queryKey);
      } catch {
        // The pages stay as they were; the next change or a reconnection refreshes them.
      }
    }),
  );
}
