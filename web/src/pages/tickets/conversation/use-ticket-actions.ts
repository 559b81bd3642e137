import { useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useLocation } from 'wouter';
import { api } from '../../../api/client';
import { ErrorCode, errorCodeText, errorText } from '../../../api/errors';
import type { OtherOpenTicket, Ticket, TicketUpdateBody } from '../../../api/types';
import { useAuth } from '../../../auth/auth-provider';
import { otherOpenTicket } from '../other-open-ticket';

export type TicketAction = 'accept' | 'return' | 'resolve' | 'reopen' | 'delete';

export interface TicketActions {
  /** The action under way, if any. */
  busy: TicketAction | null;
  run(action: Exclude<TicketAction, 'delete'>): void;
  /** Asks first (admins only). */
  remove(): void;
  /** After a transfer: stay when the ticket is now the user's open ticket, else leave. */
  transferred(ticket: Ticket): void;
}

/** Names who already attends the contact when the server says so; the translated code otherwise. */
function conflictText(other: OtherOpenTicket, err: unknown, t: TFunction): string {
  const user = other.user?.name;
  if (!user) return errorCodeText(ErrorCode.ERR_OTHER_OPEN_TICKET, t);
  return other.queue?.name ? t('otherOpenTicket', { user, queue: other.queue.name }) : t('otherOpenTicketNoQueue', { user });
}

/** What each status body means (spec §4): the user stays on an open ticket, and leaves otherwise. */
const TRANSITIONS: Record<Exclude<TicketAction, 'delete'>, { status: Ticket['status']; assign: boolean; stays: boolean }> = {
  accept: { status: 'open', assign: true, stays: true },
  return: { status: 'pending', assign: false, stays: false },
  resolve: { status: 'closed', assign: true, stays: false },
  reopen: { status: 'open', assign: true, stays: true },
};

/** The header's actions on a ticket: PUT /tickets/:id for the status moves, DELETE for admins. */
export function useTicketActions(ticket: Ticket | null, setTicket: (ticket: Ticket) => void, onLeave: () => void): TicketActions {
  const { t } = useTranslation('conversation');
  const { message, modal } = App.useApp();
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState<TicketAction | null>(null);

  const run = (action: Exclude<TicketAction, 'delete'>) => {
    if (!ticket || !user || busy) return;
    const { status, assign, stays } = TRANSITIONS[action];
    setBusy(action);
    api
      .put<Ticket>(`/tickets/${ticket.id}`, { status, userId: assign ? user.id : null } satisfies TicketUpdateBody)
      .then((next) => {
        if (stays) setTicket(next);
        else onLeave();
      })
      .catch((err: unknown) => {
        const other = otherOpenTicket(err);
        if (other) {
          void message.warning(conflictText(other, err, t));
          // The contact's open ticket is the user's own: go there instead.
          const mine = (other.userId ?? other.user?.id) === user.id;
          if (mine && other.uuid && other.uuid !== ticket.uuid) navigate(`/tickets/${other.uuid}`);
        } else void message.error(errorText(err, t));
      })
      .finally(() => setBusy(null));
  };

  const remove = () => {
    if (!ticket) return;
    modal.confirm({
      title: t('deleteTicket.title', { id: ticket.id }),
      content: t('deleteTicket.content'),
      okText: t('actions.delete'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        setBusy('delete');
        try {
          await api.delete(`/tickets/${ticket.id}`);
          void message.success(t('deleteTicket.done'));
          onLeave();
        } catch (err) {
          void message.error(errorText(err, t));
        } finally {
          setBusy(null);
        }
      },
    });
  };

  const transferred = (next: Ticket) => {
    if (next.status === 'open' && next.userId === user?.id) setTicket(next);
    else onLeave();
  };

  return { busy, run, remove, transferred };
}
