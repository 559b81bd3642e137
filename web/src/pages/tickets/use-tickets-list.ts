import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { ChatMessage, Ticket } from '../../api/types';
import { useAuth } from '../../auth/auth-provider';
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

interface State {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
  page: number;
  loading: boolean;
}

type Action =
  | { type: 'reset' }
  | { type: 'loading' }
  | { type: 'loaded'; page: number; answer: TicketsAnswer }
  | { type: 'failed' }
  | { type: 'more' }
  | { type: 'put'; ticket: Ticket; belongs: boolean | 'ifKnown'; toTop: boolean }
  | { type: 'remove'; id: number }
  | { type: 'read'; id: number };

const INITIAL: State = { tickets: [], count: 0, hasMore: false, page: 1, loading: false };

function put(state: State, ticket: Ticket, belongs: boolean | 'ifKnown', toTop: boolean): State {
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

function remove(state: State, id: number): State {
  if (!state.tickets.some((t) => t.id === id)) return state;
  return { ...state, tickets: state.tickets.filter((t) => t.id !== id), count: Math.max(0, state.count - 1) };
}

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'reset':
      return INITIAL;
    case 'loading':
      return { ...state, loading: true };
    case 'loaded': {
      const { tickets: page, hasMore, count } = action.answer;
      const tickets = action.page === 1 ? page : [...state.tickets, ...page.filter((p) => !state.tickets.some((t) => t.id === p.id))];
      return { ...state, tickets, hasMore, count: action.page === 1 ? (count ?? page.length) : state.count, loading: false };
    }
    case 'failed':
      return { ...state, loading: false, hasMore: false };
    case 'more':
      return state.loading || !state.hasMore ? state : { ...state, page: state.page + 1 };
    case 'put':
      return put(state, action.ticket, action.belongs, action.toTop);
    case 'remove':
      return remove(state, action.id);
    case 'read':
      return { ...state, tickets: state.tickets.map((t) => (t.id === action.id ? { ...t, unreadMessages: 0 } : t)) };
  }
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
 * message moves its ticket to the top). A change of the query starts again at page 1.
 */
export function useTicketsList({ query, enabled, live }: UseTicketsListOptions): TicketsList {
  const { t } = useTranslation('tickets');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const [state, dispatch] = useReducer(reducer, INITIAL);
  const key = JSON.stringify(query);
  const [loadedKey, setLoadedKey] = useState(key);
  if (loadedKey !== key) {
    // A new query is a new list: start again before the next effects run.
    setLoadedKey(key);
    dispatch({ type: 'reset' });
  }
  const context = useRef({ query, enabled, live, user });
  context.current = { query, enabled, live, user };
  // Events sent while the socket was down are lost: after a reconnect the list is read again.
  const [generation, setGeneration] = useState(0);
  useEffect(
    () =>
      realtime.onReconnect(() => {
        dispatch({ type: 'reset' });
        setGeneration((g) => g + 1);
      }),
    [realtime],
  );

  useEffect(() => {
    if (!enabled) {
      dispatch({ type: 'reset' });
      return;
    }
    const controller = new AbortController();
    const page = state.page;
    dispatch({ type: 'loading' });
    api
      .get<TicketsAnswer>('/tickets', toParams(context.current.query, page), { signal: controller.signal })
      .then((answer) => dispatch({ type: 'loaded', page, answer }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        dispatch({ type: 'failed' });
        void message.error(t('toasts.loadFailed'));
        console.error(err);
      });
    return () => controller.abort();
  }, [key, state.page, generation, enabled, message, t]);

  // The old product's rooms; harmless here, where the server routes ticket events by queue and user.
  useEffect(() => {
    if (!enabled || !query.status) return;
    return realtime.join('joinTickets', query.status);
  }, [enabled, query.status, realtime]);

  const companyId = user?.companyId;
  useEffect(() => {
    if (companyId === undefined) return;
    const place = (ticket: Ticket, toTop: boolean) => {
      const { query: scope, enabled: on, live: mode, user: me } = context.current;
      if (!on || !me) return;
      // Search results are not re-run live: a listed ticket is refreshed, or dropped once out of sight.
      const belongs = mode === 'scope' ? inScope(me, scope, ticket) : mayView(me, ticket) && 'ifKnown';
      dispatch({ type: 'put', ticket, belongs, toTop });
    };
    const offTickets = realtime.on(`company-${companyId}-ticket`, (data) => {
      const frame = data as TicketFrame;
      if (frame.action === 'delete') dispatch({ type: 'remove', id: Number(frame.ticketId) });
      else if (frame.action === 'updateUnread') dispatch({ type: 'read', id: Number(frame.ticketId) });
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
  }, [companyId, realtime]);

  const loadMore = useCallback(() => dispatch({ type: 'more' }), []);
  const count = state.hasMore ? Math.max(state.count, state.tickets.length) : state.tickets.length;
  return { tickets: state.tickets, count, loading: state.loading, hasMore: state.hasMore, loadMore };
}
