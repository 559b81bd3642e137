import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../../api/client';
import { queryKeys } from '../../../api/query-keys';
import type { Ticket } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';

export interface LiveTicket {
  ticket: Ticket | null;
  /** Puts the answer of an action on the ticket (its live frame may come later). */
  setTicket(ticket: Ticket): void;
}

type TicketFrame = { action?: string; ticket?: Ticket; ticketId?: number };

/**
 * The ticket of /tickets/:uuid, kept live through company-{id}-ticket. A ticket the user may not
 * open says 'Acesso não permitido', any other failure 'Erro ao obter informações da conversa';
 * both, and a deleted ticket, leave the conversation.
 */
export function useTicket(uuid: string, onLeave: () => void): LiveTicket {
  const { t } = useTranslation('conversation');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const companyId = user?.companyId;
  const leave = useRef(onLeave);
  leave.current = onLeave;
  const { data: ticket = null, error } = useQuery({
    queryKey: queryKeys.ticket(uuid),
    queryFn: ({ signal }) => api.get<Ticket>(`/tickets/u/${encodeURIComponent(uuid)}`, undefined, { signal }),
  });
  const ticketId = ticket?.id;

  useEffect(() => {
    if (!error) return;
    const denied = error instanceof ApiError && error.status === 403;
    void message.error(t(denied ? 'accessDenied' : 'loadFailed'));
    leave.current();
  }, [error, message, t]);

  const setTicket = useCallback((next: Ticket) => queryClient.setQueryData(queryKeys.ticket(uuid), next), [queryClient, uuid]);

  useEffect(() => {
    if (companyId === undefined || ticketId === undefined) return;
    return realtime.on(`company-${companyId}-ticket`, (data) => {
      const frame = data as TicketFrame;
      if (frame.action === 'update' && frame.ticket?.id === ticketId) setTicket(frame.ticket);
      else if (frame.action === 'delete' && Number(frame.ticketId) === ticketId) leave.current();
    });
  }, [companyId, ticketId, realtime, setTicket]);

  // The chat box room brings this ticket's events even to a user outside its audience (an admin's peek).
  useEffect(() => {
    if (ticketId === undefined) return;
    return realtime.join('joinChatBox', ticketId);
  }, [ticketId, realtime]);

  return { ticket, setTicket };
}
