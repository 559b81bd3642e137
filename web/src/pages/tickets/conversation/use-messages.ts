import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { errorText } from '../../../api/errors';
import { queryKeys } from '../../../api/query-keys';
import type { ChatMessage, Ticket } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';
import { useLoadError } from '../../../hooks/use-load-error';

interface MessagesPage {
  messages: ChatMessage[];
  ticket: Ticket;
  count: number;
  hasMore: boolean;
}

type MessageFrame = { action?: 'create' | 'update'; message?: ChatMessage; ticket?: Pick<Ticket, 'id' | 'contactId'> };

export interface ConversationMessages {
  /** Oldest first: the contact's history across its tickets. */
  messages: ChatMessage[];
  /** The first page is in. */
  loaded: boolean;
  loadingOlder: boolean;
  hasMore: boolean;
  loadOlder(): void;
  /** Puts a message the user just changed (delete, edit) in place. */
  replace(message: ChatMessage): void;
}

const byTime = (a: ChatMessage, b: ChatMessage) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id;

/**
 * Adds or replaces messages by id, keeping the list oldest first. A version older than the one
 * shown (a late live frame read before the user's own delete or edit) is dropped.
 */
function merge(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) {
    const shown = byId.get(m.id);
    if (!shown || m.updatedAt >= shown.updatedAt) byId.set(m.id, m);
  }
  return [...byId.values()].sort(byTime);
}

type CachedPages = InfiniteData<MessagesPage, number>;

/**
 * Puts messages into the cached pages: one already loaded is replaced where it is, a new one joins
 * the newest page (the one a refetch reads first). `onlyKnown` leaves out messages not loaded.
 */
function mergeInto(data: CachedPages | undefined, incoming: ChatMessage[], onlyKnown = false): CachedPages | undefined {
  if (!data) return data;
  const loaded = new Set(data.pages.flatMap((page) => page.messages.map((m) => m.id)));
  const fresh = onlyKnown ? [] : incoming.filter((m) => !loaded.has(m.id));
  const pages = data.pages.map((page, i) => ({
    ...page,
    messages: merge(page.messages, [...incoming.filter((m) => page.messages.some((shown) => shown.id === m.id)), ...(i === 0 ? fresh : [])]),
  }));
  return { ...data, pages };
}

/** New messages read by the ticket's user are marked read together, this long after the last one. */
const MARK_READ_DELAY_MS = 1000;

/**
 * The messages of a ticket's contact, newest page first, older pages on demand, kept live through
 * company-{id}-appMessage: a message of any ticket of the same contact belongs here. While the
 * ticket's own user has it on screen, what the customer writes is marked read (reading the newest
 * page does that on the server).
 */
export function useMessages(ticket: Pick<Ticket, 'id' | 'contactId' | 'userId'> | null): ConversationMessages {
  const { t } = useTranslation('conversation');
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const companyId = user?.companyId;
  const ticketId = ticket?.id;
  const contactId = ticket?.contactId;
  const reader = ticket !== null && ticket.userId === user?.id;
  const readTimer = useRef<number | undefined>(undefined);

  const query = useInfiniteQuery({
    queryKey: queryKeys.messages(ticketId ?? 0),
    queryFn: ({ pageParam, signal }) => api.get<MessagesPage>(`/messages/${ticketId}`, { pageNumber: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
    enabled: ticketId !== undefined,
  });
  useLoadError(query.error, (err) => errorText(err, t));

  const mergeMessages = useCallback(
    (incoming: ChatMessage[], onlyKnown?: boolean) => {
      if (ticketId === undefined) return;
      queryClient.setQueryData<CachedPages>(queryKeys.messages(ticketId), (cached) => mergeInto(cached, incoming, onlyKnown));
    },
    [queryClient, ticketId],
  );

  // Cleared when the ticket changes hands or the conversation closes.
  useEffect(() => () => window.clearTimeout(readTimer.current), [ticketId, reader]);

  const markReadSoon = useCallback(() => {
    if (!reader || ticketId === undefined || document.visibilityState !== 'visible') return;
    window.clearTimeout(readTimer.current);
    readTimer.current = window.setTimeout(() => {
      api
        .get<MessagesPage>(`/messages/${ticketId}`, { pageNumber: 1 })
        .then((page) => mergeMessages(page.messages))
        .catch(() => undefined); // the next open marks them; nothing to tell the reader
    }, MARK_READ_DELAY_MS);
  }, [reader, ticketId, mergeMessages]);

  useEffect(() => {
    if (companyId === undefined || contactId === undefined) return;
    return realtime.on(`company-${companyId}-appMessage`, (data) => {
      const frame = data as MessageFrame;
      if (!frame.message || frame.ticket?.contactId !== contactId) return;
      const incoming = frame.message;
      if (frame.action === 'create') {
        mergeMessages([incoming]);
        if (!incoming.fromMe && incoming.ticketId === ticketId) markReadSoon();
      }
      // An update of a message not loaded (an old page) has nothing to change.
      else if (frame.action === 'update') mergeMessages([incoming], true);
    });
  }, [companyId, contactId, ticketId, realtime, mergeMessages, markReadSoon]);

  const messages = useMemo(() => merge([], query.data?.pages.flatMap((page) => page.messages) ?? []), [query.data]);
  const { isFetching, hasNextPage, fetchNextPage } = query;
  const loadOlder = useCallback(() => {
    if (!isFetching && hasNextPage) void fetchNextPage();
  }, [isFetching, hasNextPage, fetchNextPage]);
  const replace = useCallback((changed: ChatMessage) => mergeMessages([changed]), [mergeMessages]);

  return {
    messages,
    loaded: ticketId !== undefined && !query.isPending,
    loadingOlder: query.isFetchingNextPage,
    hasMore: hasNextPage,
    loadOlder,
    replace,
  };
}
