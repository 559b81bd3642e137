import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { useAuth } from '../auth/auth-provider';
import { useLoadError } from './use-load-error';

export interface PagedListOptions<T> {
  /** API path, e.g. '/users'. */
  path: string;
  /** Property of the answer that holds the page, e.g. 'users'. */
  listKey: string;
  /** Search text (lowercased before it is sent); a change reloads from page 1. */
  search?: string;
  /** Another company's records (a super user's view; the API honours it for them), sent with every page; give no channel, its frames are not heard. */
  companyId?: number;
  /**
   * Realtime channel suffix, e.g. 'user' for company-{id}-user, or the whole name from the company id
   * for a channel named otherwise (a stable function); frames { action, <entity>, <entity>Id }.
   */
  channel?: string | ((companyId: number) => string);
  /** Property of the frame that holds the record, e.g. 'user'. */
  entityKey?: string;
  /** Whether a live record belongs in this list (the search filter); all by default. */
  matches?: (item: T) => boolean;
  /** Order of the list, applied when a live record is added or changed. */
  compare?: (a: T, b: T) => number;
}

export interface PagedList<T> {
  items: T[];
  loading: boolean;
  hasMore: boolean;
  loadMore(): void;
  reload(): void;
}

/** One page as the cache keeps it (queryKeys.pagedList). */
interface ListPage<T> {
  items: T[];
  hasMore: boolean;
}

const SEARCH_DEBOUNCE_MS = 500;

/** The pages in one list; a record a live frame added may come again in a later page: shown once. */
function flatten<T extends { id: number }>(pages: ListPage<T>[]): T[] {
  const seen = new Set<number>();
  return pages.flatMap((page) => page.items.filter((item) => !seen.has(item.id) && (seen.add(item.id), true)));
}

/**
 * Applies a change of the whole list to the cached pages. The list's order is what counts once it
 * is on screen, so the result goes into the first page; the pages keep their count and their
 * hasMore, which say what to fetch next and what a refetch reloads.
 */
function changeListPages<T extends { id: number }>(
  data: InfiniteData<ListPage<T>> | undefined,
  change: (items: T[]) => T[],
): InfiniteData<ListPage<T>> | undefined {
  if (!data) return data;
  const items = change(flatten(data.pages));
  return { ...data, pages: data.pages.map((page, i) => ({ ...page, items: i === 0 ? items : [] })) };
}

/**
 * A list loaded page by page (infinite scroll) that merges live create/update/delete events.
 * Search changes are debounced 500 ms and restart at page 1, as the spec says.
 */
export function usePagedList<T extends { id: number }>(options: PagedListOptions<T>): PagedList<T> {
  const { path, listKey, channel, entityKey, companyId } = options;
  const { t } = useTranslation();
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState((options.search ?? '').toLowerCase());
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    const next = (options.search ?? '').toLowerCase();
    if (next === search) return;
    const timer = window.setTimeout(() => setSearch(next), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [options.search, search]);

  const queryKey = useMemo(() => [...queryKeys.pagedList(path, search), ...(companyId === undefined ? [] : [companyId])], [path, search, companyId]);
  const query = useInfiniteQuery({
    queryKey,
    queryFn: async ({ pageParam, signal }): Promise<ListPage<T>> => {
      const answer = await api.get<Record<string, unknown>>(path, { searchParam: search, pageNumber: pageParam, ...(companyId === undefined ? {} : { companyId }) }, { signal });
      return { items: (answer[listKey] as T[]) ?? [], hasMore: Boolean(answer.hasMore) };
    },
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
    // A new search keeps the rows of the last one on screen until its first page is in.
    placeholderData: keepPreviousData,
  });
  useLoadError(query.error, () => t('toasts.loadFailed'));

  useEffect(() => {
    if (!channel || !entityKey || !user) return;
    return realtime.on(typeof channel === 'function' ? channel(user.companyId) : `company-${user.companyId}-${channel}`, (data) => {
      const frame = data as Record<string, unknown> & { action?: string };
      const { matches, compare } = optionsRef.current;
      const change = (apply: (items: T[]) => T[]) =>
        queryClient.setQueryData<InfiniteData<ListPage<T>>>(queryKey, (cached) => changeListPages(cached, apply));
      if (frame.action === 'delete') {
        const id = Number(frame[`${entityKey}Id`] ?? (frame[entityKey] as T | undefined)?.id);
        change((items) => items.filter((i) => i.id !== id));
        return;
      }
      const record = frame[entityKey] as T | undefined;
      if (!record || (frame.action !== 'create' && frame.action !== 'update')) return;
      change((items) => {
        const known = items.some((i) => i.id === record.id);
        // An update of a record not loaded yet belongs to a page still to come.
        if (!known && frame.action === 'update') return items;
        if (matches && !matches(record)) return items.filter((i) => i.id !== record.id);
        const next = known ? items.map((i) => (i.id === record.id ? { ...i, ...record } : i)) : [record, ...items];
        return compare ? [...next].sort(compare) : next;
      });
    });
  }, [channel, entityKey, user, realtime, queryClient, queryKey]);

  const items = useMemo(() => flatten(query.data?.pages ?? []), [query.data]);
  const { isFetching, hasNextPage, fetchNextPage, refetch } = query;
  const loadMore = useCallback(() => {
    if (!isFetching && hasNextPage) void fetchNextPage();
  }, [isFetching, hasNextPage, fetchNextPage]);
  const reload = useCallback(() => void refetch(), [refetch]);

  return { items, loading: isFetching, hasMore: hasNextPage, loadMore, reload };
}

/** Calls loadMore when a scroll container comes within 100 px of its bottom. */
export function nearBottom(event: React.UIEvent<HTMLElement>, loadMore: () => void): void {
  const el = event.currentTarget;
  if (el.scrollHeight - el.scrollTop - el.clientHeight < 100) loadMore();
}
