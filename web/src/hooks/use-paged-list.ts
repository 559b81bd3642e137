import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { useAuth } from '../auth/auth-provider';

export interface PagedListOptions<T> {
  /** API path, e.g. '/users'. */
  path: string;
  /** Property of the answer that holds the page, e.g. 'users'. */
  listKey: string;
  /** Search text (lowercased before it is sent); a change reloads from page 1. */
  search?: string;
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

const SEARCH_DEBOUNCE_MS = 500;

/**
 * A list loaded page by page (infinite scroll) that merges live create/update/delete events.
 * Search changes are debounced 500 ms and restart at page 1, as the spec says.
 */
export function usePagedList<T extends { id: number }>(options: PagedListOptions<T>): PagedList<T> {
  const { path, listKey, channel, entityKey } = options;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const [items, setItems] = useState<T[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState((options.search ?? '').toLowerCase());
  const [generation, setGeneration] = useState(0);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    const next = (options.search ?? '').toLowerCase();
    if (next === search) return;
    const timer = window.setTimeout(() => {
      setSearch(next);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [options.search, search]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    api
      .get<Record<string, unknown>>(path, { searchParam: search, pageNumber: page }, { signal: controller.signal })
      .then((answer) => {
        const pageItems = (answer[listKey] as T[]) ?? [];
        setItems((current) => (page === 1 ? pageItems : [...current, ...pageItems.filter((i) => !current.some((c) => c.id === i.id))]));
        setHasMore(Boolean(answer.hasMore));
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        void message.error(t('toasts.loadFailed'));
        console.error(err);
      });
    return () => controller.abort();
  }, [path, listKey, search, page, generation, message, t]);

  useEffect(() => {
    if (!channel || !entityKey || !user) return;
    return realtime.on(typeof channel === 'function' ? channel(user.companyId) : `company-${user.companyId}-${channel}`, (data) => {
      const frame = data as Record<string, unknown> & { action?: string };
      const { matches, compare } = optionsRef.current;
      if (frame.action === 'delete') {
        const id = Number(frame[`${entityKey}Id`] ?? (frame[entityKey] as T | undefined)?.id);
        setItems((current) => current.filter((i) => i.id !== id));
        return;
      }
      const record = frame[entityKey] as T | undefined;
      if (!record || (frame.action !== 'create' && frame.action !== 'update')) return;
      setItems((current) => {
        const known = current.some((i) => i.id === record.id);
        // An update of a record not loaded yet belongs to a page still to come.
        if (!known && frame.action === 'update') return current;
        if (matches && !matches(record)) return current.filter((i) => i.id !== record.id);
        const next = known ? current.map((i) => (i.id === record.id ? { ...i, ...record } : i)) : [record, ...current];
        return compare ? [...next].sort(compare) : next;
      });
    });
  }, [channel, entityKey, user, realtime]);

  const reload = useCallback(() => {
    setPage(1);
    setGeneration((g) => g + 1);
  }, []);

  // Events sent while the socket was down are lost: start again from page 1.
  useEffect(() => realtime.onReconnect(() => reload()), [realtime, reload]);

  const loadMore = useCallback(() => {
    if (!loading && hasMore) setPage((p) => p + 1);
  }, [loading, hasMore]);

  return { items, loading, hasMore, loadMore, reload };
}

/** Calls loadMore when a scroll container comes within 100 px of its bottom. */
export function nearBottom(event: React.UIEvent<HTMLElement>, loadMore: () => void): void {
  const el = event.currentTarget;
  if (el.scrollHeight - el.scrollTop - el.clientHeight < 100) loadMore();
}
