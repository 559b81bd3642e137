import { useEffect, useMemo, useState } from 'react';
import { api, keepPreviousData, useAuth, useInfiniteQuery, useQueryClient, type InfiniteData } from 'atende/web';
import { byName, listItemsChannel, type ContactListItemEvent, type ContactListItemPage, type ContactListItemRecord } from './contact-list-record';

const SEARCH_DEBOUNCE_MS = 500;

/** The cache key of one list's items for one search; without search, every search of the list. */
export const listItemsKey = (listId: number, search?: string) => (search === undefined ? ['campaigns', 'contactListItems', listId] : ['campaigns', 'contactListItems', listId, search]);

type Pages = InfiniteData<ContactListItemPage>;

/** Applies a change to every loaded page's contacts (each page keeps its place and its hasMore). */
function changePages(data: Pages | undefined, change: (items: ContactListItemRecord[]) => ContactListItemRecord[]): Pages | undefined {
  return data && { ...data, pages: data.pages.map((page) => ({ ...page, contacts: change(page.contacts) })) };
}

/**
 * A list's contacts, 20 a page by name (infinite scroll), the search debounced 500 ms, and kept
 * live from company-{id}-ContactListItem-{listId}: created, changed and deleted items, an import
 * (reload), and the WhatsApp check's batches (each item's icon changes as its number is checked).
 */
export function useListItems(listId: number, search: string) {
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const [term, setTerm] = useState(search.trim().toLowerCase());
  useEffect(() => {
    const next = search.trim().toLowerCase();
    const timer = window.setTimeout(() => setTerm(next), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search]);

  const query = useInfiniteQuery({
    queryKey: listItemsKey(listId, term),
    queryFn: ({ pageParam, signal }) => api.get<ContactListItemPage>('/contact-list-items', { contactListId: listId, searchParam: term, pageNumber: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    if (!user) return;
    const matches = (item: ContactListItemRecord) => !term || [item.name.toLowerCase(), item.number, item.email].some((text) => text.includes(term));
    return realtime.on(listItemsChannel(user.companyId, listId), (data) => {
      const event = data as ContactListItemEvent;
      const update = (change: (items: ContactListItemRecord[]) => ContactListItemRecord[]) =>
        queryClient.setQueriesData<Pages>({ queryKey: listItemsKey(listId) }, (cached) => changePages(cached, change));
      switch (event.action) {
        case 'reload':
          void queryClient.invalidateQueries({ queryKey: listItemsKey(listId) });
          return;
        case 'checked': {
          const valid = new Map(event.items.map((i) => [i.id, i.isWhatsappValid]));
          update((items) => items.map((i) => (valid.has(i.id) ? { ...i, isWhatsappValid: valid.get(i.id)! } : i)));
          return;
        }
        case 'delete':
          update((items) => items.filter((i) => i.id !== event.contactListItemId));
          return;
        case 'create':
        case 'update': {
          const record = event.contactListItem;
          queryClient.setQueryData<Pages>(listItemsKey(listId, term), (cached) => {
            if (!cached) return cached;
            const known = cached.pages.some((p) => p.contacts.some((i) => i.id === record.id));
            if (known) return changePages(cached, (items) => (matches(record) ? items.map((i) => (i.id === record.id ? record : i)) : items.filter((i) => i.id !== record.id)));
            // A new item that the search shows goes to the first page, in order.
            if (event.action === 'update' || !matches(record)) return cached;
            const [first, ...rest] = cached.pages;
            return { ...cached, pages: [{ ...first!, contacts: [...first!.contacts, record].sort(byName) }, ...rest] };
          });
        }
      }
    });
  }, [user, realtime, queryClient, listId, term]);

  const items = useMemo(() => {
    const seen = new Set<number>();
    return (query.data?.pages ?? []).flatMap((p) => p.contacts).filter((i) => !seen.has(i.id) && (seen.add(i.id), true));
  }, [query.data]);
  const { isFetching, hasNextPage, fetchNextPage } = query;
  return {
    items,
    loading: isFetching,
    error: query.error,
    hasMore: hasNextPage,
    loadMore: () => {
      if (!isFetching && hasNextPage) void fetchNextPage();
    },
  };
}
