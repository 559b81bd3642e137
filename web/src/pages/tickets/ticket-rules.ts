import { zonedDay, zonedText } from '../../layout/dates';
import type { SessionUser, Ticket, TicketStatus } from '../../api/types';

/** Admins (and super users) see every ticket, may show all, filter by user and peek (spec §6). */
export const isAdminUser = (user: SessionUser): boolean => user.profile === 'admin' || user.super;

const inMyQueues = (user: SessionUser, queueId: number) => user.queues.some((q) => q.id === queueId);

/** Whether the server shows this ticket to this user at all: admins all; others their own, their queues', and queueless ones with allTicket. */
export function mayView(user: SessionUser, ticket: Pick<Ticket, 'userId' | 'queueId'>): boolean {
  if (isAdminUser(user) || ticket.userId === user.id) return true;
  return ticket.queueId === null ? user.allTicket === 'enabled' : inMyQueues(user, ticket.queueId);
}

/** The filters one list was asked with; a live ticket is in the list when it passes them. */
export interface ListScope {
  /** undefined for the search tab (every status). */
  status?: TicketStatus;
  showAll: boolean;
  /** The queue multi-select; tickets without queue pass it, and an empty choice filters nothing (as on the server). */
  queueIds: number[];
}

/**
 * The live list rule (spec §4): a ticket is in a list by status, user and queue filter. Without
 * "show all" the open and resolved lists are the user's own tickets, the pending one everyone's.
 */
export function inScope(user: SessionUser, scope: ListScope, ticket: Ticket): boolean {
  if (scope.status && ticket.status !== scope.status) return false;
  if (!mayView(user, ticket)) return false;
  if (!scope.showAll && ticket.status !== 'pending' && ticket.userId !== user.id) return false;
  return scope.queueIds.length === 0 || ticket.queueId === null || scope.queueIds.includes(ticket.queueId);
}

/** A new message notifies when its ticket is the user's, or nobody's and in one of the user's queues (or queueless). */
export function notifies(user: SessionUser, ticket: Ticket): boolean {
  if (ticket.userId !== null) return ticket.userId === user.id;
  return ticket.queueId === null || inMyQueues(user, ticket.queueId);
}

/** The bell's list: tickets with unread messages that are the user's, plus waiting ones when allTicket is enabled. */
export function inNotificationList(user: SessionUser, ticket: Ticket): boolean {
  if (ticket.unreadMessages <= 0) return false;
  if (ticket.status === 'open') return ticket.userId === user.id;
  return ticket.status === 'pending' && user.allTicket === 'enabled' && notifies(user, ticket);
}

/** Newest first, as the server pages them. */
export const byUpdatedDesc = (a: Ticket, b: Ticket): number => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/** The row's time on the clock of `zone` (the company's): HH:mm today, otherwise dd/MM/yyyy. */
export function ticketTime(updatedAt: string, zone: string, now: Date = new Date()): string {
  const day = zonedDay(updatedAt, zone);
  if (!day) return '';
  return zonedText(updatedAt, zone, day === zonedDay(now, zone) ? 'HH:mm' : 'DD/MM/YYYY');
}

/** Under 600 px a contact name is cut to 10 characters plus an ellipsis (spec §9). */
export function shortName(name: string, narrow: boolean): string {
  return narrow && name.length > 10 ? `${name.slice(0, 10)}...` : name;
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return ((words[0]?.[0] ?? '') + (words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '')).toUpperCase();
}
