import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import type { ChatMessage, Ticket } from '../../api/types';
import { useAuth } from '../../auth/auth-provider';
import { useLoadError } from '../../hooks/use-load-error';
import { byUpdatedDesc, inScope, mayView, type ListScope } from './ticket-rules';

/** What GET /api/tickets is asked: the list's scope plus the search tab's filters. */
export interface TicketsQuery extends ListScope {
  searchParam?: string;
  tags?: number[];
  users?: number[];
  withUnreadMessages?: boolean;
}

interface TicketsAnswer {
  tickets: Ticket[];
  count?: number;
  hasMore: boolean;
}

export type TicketFrame =
  | { action: 'update'; ticket: Ticket }
  | { action: 'updateUnread'; ticketId: number }
  | { action: 'delete'; ticketId: number };

export interface MessageFrame {
  action: 'create' | 'update';
  message: ChatMessage;
  ticket: Ticket;
}

export interface UseTicketsListOptions {
  query: TicketsQuery;
  /** While false nothing loads and the list stays empty (filters still loading, an empty search). */
  enabled: boolean;
  /**
   * 'scope': live tickets move in and out by the query's scope (spec §4 live list rules).
   * 'known': only tickets already listed are refreshed or removed (search results).
   */
  live: 'scope' | 'known';
}

export interface TicketsList {
  tickets: Ticket[];
  /** The list's size on the server, kept live. */
  count: number;
  loading: boolean;
  hasMore: boolean;
  loadMore(): void;
}

/** The list as shown: its tickets in order, its size on the server, and whether pages remain. */
interface ListState {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
}

type CachedPages = InfiniteData<TicketsAnswer, number>;

const NONE: Ticket[] = [];

function put(state: ListState, ticket: Ticket, belongs: boolean | 'ifKnown', toTop: boolean): ListState {
  const index = state.tickets.findIndex((t) => t.id === ticket.id);
  if (belongs === false) return index < 0 ? state : remove(state, ticket.id);
  if (index >= 0) {
    const others = state.tickets.filter((t) => t.id !== ticket.id);
    const tickets = toTop ? [ticket, ...others] : state.tickets.map((t) => (t.id === ticket.id ? ticket : t));
    return { ...state, tickets };
  }
  if (belongs === 'ifKnown') return state;
  const position = toTop ? 0 : state.tickets.findIndex((t) => byUpdatedDesc(ticket, t) <= 0);
  // Older than everything loaded while more pages remain: it comes with its own page.
  if (position < 0 && state.hasMore) return state;
  const tickets = [...state.tickets];
  tickets.splice(position < 0 ? tickets.length : position, 0, ticket);
  return { ...state, tickets, count: state.count + 1 };
}

function remove(state: ListState, id: number): ListState {
  if (!state.tickets.some((t) => t.id === id)) return state;
  return { ...state, tickets: state.tickets.filter((t) => t.id !== id), count: Math.max(0, state.count - 1) };
}

function read(state: ListState, id: number): ListState {
  return { ...state, tickets: state.tickets.map((t) => (t.id === id ? { ...t, unreadMessages: 0 } : t)) };
}

/** The pages as one list; a ticket a live frame moved may come again in a later page: shown once. */
function listOf(pages: TicketsAnswer[]): ListState {
  const seen = new Set<number>();
  const tickets = pages.flatMap((page) => page.tickets.filter((t) => !seen.has(t.id) && (seen.add(t.id), true)));
  return { tickets, count: pages[0]?.count ?? tickets.length, hasMore: pages.at(-1)?.hasMore ?? false };
}

/**
 * Applies a live change to the cached pages. The order is the list's once it is on screen, so the
 * result goes into the first page (with the count); the pages keep their number and their hasMore,
 * which say what the next page and a refetch read.
 */
function changePages(data: CachedPages | undefined, change: (state: ListState) => ListState): CachedPages | undefined {
  if (!data) return data;
  const before = listOf(data.pages);
  const after = change(before);
  if (after === before) return data;
  const pages = data.pages.map((page, i) => (i === 0 ? { ...page, tickets: after.tickets, count: after.count } : { ...page, tickets: [] }));
  return { ...data, pages };
}

function toParams(query: TicketsQuery, page: number) {
  return {
    pageNumber: page,
    status: query.status,
    searchParam: query.searchParam,
    showAll: query.showAll,
    queueIds: query.queueIds,
    tags: query.tags?.length ? query.tags : undefined,
    users: query.users?.length ? query.users : undefined,
    withUnreadMessages: query.withUnreadMessages,
  };
}

/**
 * One ticket list: loads GET /api/tickets page by page (40 a page, newest first) and keeps it live
 * with company-{id}-ticket (update, updateUnread, delete) and company-{id}-appMessage (a new
 * message moves its ticket to the top). A change of the query is another list, from page 1.
 */
export function useTicketsList({ query, enabled, live }: UseTicketsListOptions): TicketsList {
  const { t } = useTranslation('tickets');
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const queryKey = queryKeys.tickets(query);
  const context = useRef({ query, enabled, live, user });
  context.current = { query, enabled, live, user };

  const pages = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => api.get<TicketsAnswer>('/tickets', toParams(query, pageParam), { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
    enabled,
  });
  useLoadError(pages.error, () => t('toasts.loadFailed'));

  // The old product's rooms; harmless here, where the server routes ticket events by queue and user.
  useEffect(() => {
    if (!enabled || !query.status) return;
    return realtime.join('joinTickets', query.status);
  }, [enabled, query.status, realtime]);

  const companyId = user?.companyId;
  useEffect(() => {
    if (companyId === undefined) return;
    const change = (apply: (state: ListState) => ListState) => {
      if (!context.current.enabled) return;
      queryClient.setQueryData<CachedPages>(queryKeys.tickets(context.current.query), (data) => changePages(data, apply));
    };
    const place = (ticket: Ticket, toTop: boolean) => {
      const { query: scope, live: mode, user: me } = context.current;
      if (!me) return;
      // Search results are not re-run live: a listed ticket is refreshed, or dropped once out of sight.
      const belongs = mode === 'scope' ? inScope(me, scope, ticket) : mayView(me, ticket) && 'ifKnown';
      change((state) => put(state, ticket, belongs, toTop));
    };
    const offTickets = realtime.on(`company-${companyId}-ticket`, (data) => {
      const frame = data as TicketFrame;
      if (frame.action === 'delete') change((state) => remove(state, Number(frame.ticketId)));
      else if (frame.action === 'updateUnread') change((state) => read(state, Number(frame.ticketId)));
      else if (frame.action === 'update' && frame.ticket) place(frame.ticket, false);
    });
    const offMessages = realtime.on(`company-${companyId}-appMessage`, (data) => {
      const frame = data as MessageFrame;
      if (frame.action === 'create' && frame.ticket) place(frame.ticket, true);
    });
    return () => {
      offTickets();
      offMessages();
    };
  }, [companyId, realtime, queryClient]);

  const state = useMemo(() => (enabled && pages.data ? listOf(pages.data.pages) : undefined), [enabled, pages.data]);
  const { isFetching, hasNextPage, fetchNextPage } = pages;
  const loadMore = useCallback(() => {
    if (!isFetching && hasNextPage) void fetchNextPage();
  }, [isFetching, hasNextPage, fetchNextPage]);
  if (!state) return { tickets: NONE, count: 0, loading: enabled && isFetching, hasMore: false, loadMore };
  const count = state.hasMore ? Math.max(state.count, state.tickets.length) : state.tickets.length;
  return { tickets: state.tickets, count, loading: isFetching, hasMore: state.hasMore && !pages.isError, loadMore };
}
