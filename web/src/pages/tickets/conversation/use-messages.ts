import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { errorText } from '../../../api/errors';
import type { ChatMessage, Ticket } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';

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
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const companyId = user?.companyId;
  const ticketId = ticket?.id;
  const contactId = ticket?.contactId;
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [hasMore, setHasMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const nextPage = useRef(2);
  const busy = useRef(false);
  const reader = ticket !== null && ticket.userId === user?.id;
  const readTimer = useRef<number | undefined>(undefined);

  // Cleared when the ticket changes hands or the conversation closes.
  useEffect(() => () => window.clearTimeout(readTimer.current), [ticketId, reader]);

  const markReadSoon = useCallback(() => {
    if (!reader || ticketId === undefined || document.visibilityState !== 'visible') return;
    window.clearTimeout(readTimer.current);
    readTimer.current = window.setTimeout(() => {
      api
        .get<MessagesPage>(`/messages/${ticketId}`, { pageNumber: 1 })
        .then((page) => setMessages((current) => merge(current, page.messages)))
        .catch(() => undefined); // the next open marks them; nothing to tell the reader
    }, MARK_READ_DELAY_MS);
  }, [reader, ticketId]);

  useEffect(() => {
    if (companyId === undefined || contactId === undefined) return;
    return realtime.on(`company-${companyId}-appMessage`, (data) => {
      const frame = data as MessageFrame;
      if (!frame.message || frame.ticket?.contactId !== contactId) return;
      const incoming = frame.message;
      if (frame.action === 'create') {
        setMessages((current) => merge(current, [incoming]));
        if (!incoming.fromMe && incoming.ticketId === ticketId) markReadSoon();
      }
      // An update of a message not loaded (an old page) has nothing to change.
      else if (frame.action === 'update') setMessages((current) => (current.some((m) => m.id === incoming.id) ? merge(current, [incoming]) : current));
    });
  }, [companyId, contactId, ticketId, realtime, markReadSoon]);

  useEffect(() => {
    if (ticketId === undefined) return;
    const controller = new AbortController();
    busy.current = true;
    api
      .get<MessagesPage>(`/messages/${ticketId}`, { pageNumber: 1 }, { signal: controller.signal })
      .then((page) => {
        // Live messages may have come in while the page was on its way.
        setMessages((current) => merge(current, page.messages));
        setHasMore(page.hasMore);
        nextPage.current = 2;
        setLoaded(true);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded(true);
        void message.error(errorText(err, t));
      })
      .finally(() => {
        if (!controller.signal.aborted) busy.current = false;
      });
    return () => controller.abort();
  }, [ticketId, message, t]);

  const loadOlder = useCallback(() => {
    if (ticketId === undefined || busy.current || !hasMore) return;
    busy.current = true;
    setLoadingOlder(true);
    api
      .get<MessagesPage>(`/messages/${ticketId}`, { pageNumber: nextPage.current })
      .then((page) => {
        nextPage.current += 1;
        setMessages((current) => merge(current, page.messages));
        setHasMore(page.hasMore);
      })
      .catch((err: unknown) => void message.error(errorText(err, t)))
      .finally(() => {
        busy.current = false;
        setLoadingOlder(false);
      });
  }, [ticketId, hasMore, message, t]);

  const replace = useCallback((changed: ChatMessage) => setMessages((current) => merge(current, [changed])), []);

  return { messages, loaded, loadingOlder, hasMore, loadOlder, replace };
}
