import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Badge, Empty, Flex, Typography, theme } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client';
import { TopBarList, TopBarPopover, topBarRowStyle } from '../components/top-bar-popover';
import { queryKeys } from '../api/query-keys';
import type { SessionUser, Ticket } from '../api/types';
import { useAuth } from '../auth/auth-provider';
import { registerTranslations } from '../i18n';
import { MessageText } from '../pages/tickets/conversation/message-text';
import { playChime, prepareAlerts, showBrowserNotification } from '../pages/tickets/message-alerts';
import { notificationsTranslations } from '../pages/tickets/notifications.i18n';
import { byUpdatedDesc, inNotificationList, initials, notifies, ticketTime } from '../pages/tickets/ticket-rules';
import type { MessageFrame, TicketFrame } from '../pages/tickets/use-tickets-list';
import { useCompanyClock } from './use-company-clock';

registerTranslations('notifications', notificationsTranslations);

/** A burst of messages chimes once. */
const CHIME_GAP_MS = 1000;
const OPEN_TICKET_PATH = /^\/tickets\/([^/?#]+)/;
const NONE: Ticket[] = [];

/**
 * The tickets with unread messages the user should answer (their own, and waiting ones when
 * allTicket is enabled), loaded once and kept live.
 *
 * A ticket whose unread count grows brings news: a chime and a browser notification when the
 * rules allow it, except for the conversation the user is looking at. The count is read from
 * message frames and ticket frames alike, because a new conversation's first message can reach a
 * queue's agents only as the ticket update that puts it in their queue.
 */
function useUnreadTickets(user: SessionUser | null, onOpen: (uuid: string) => void): Ticket[] {
  const { t } = useTranslation('notifications');
  const { realtime } = useAuth();
  const [location] = useLocation();
  const queryClient = useQueryClient();
  const context = useRef({ user, location, onOpen, t, chimedAt: 0 });
  Object.assign(context.current, { user, location, onOpen, t });
  // Per ticket, the unread count already announced (or found on load).
  const announced = useRef(new Map<number, number>());
  const userId = user?.id;
  const companyId = user?.companyId;
  const allTicket = user?.allTicket;
  const queueKey = user?.queues.map((q) => q.id).join(',');

  useEffect(() => prepareAlerts(), []);

  useEffect(() => {
    if (userId === undefined) return;
    return realtime.join('joinNotification');
  }, [userId, realtime]);

  const queryKey = useMemo(() => queryKeys.unreadTickets(userId ?? 0, { allTicket, queues: queueKey }), [userId, allTicket, queueKey]);
  const { data: tickets = NONE } = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      // Waiting tickets are loaded for everyone: their counts are known news, listed only with allTicket.
      const answers = await Promise.all(
        (['open', 'pending'] as const).map((status) =>
          api.get<{ tickets: Ticket[] }>('/tickets', { status, withUnreadMessages: true, showAll: false, pageNumber: 1 }, { signal }),
        ),
      );
      const loaded = answers.flatMap((a) => a.tickets);
      for (const ticket of loaded) announced.current.set(ticket.id, Math.max(ticket.unreadMessages, announced.current.get(ticket.id) ?? 0));
      return loaded.filter((ticket) => context.current.user !== null && inNotificationList(context.current.user, ticket)).sort(byUpdatedDesc);
    },
    enabled: userId !== undefined,
    // The bell is on every page: a failure leaves it empty rather than toasting everywhere (no useLoadError).
  });

  useEffect(() => {
    if (companyId === undefined) return;
    const change = (apply: (tickets: Ticket[]) => Ticket[]) =>
      queryClient.setQueryData<Ticket[]>(queryKey, (current) => (current ? apply(current) : current));
    const put = (ticket: Ticket) => {
      const me = context.current.user;
      if (!me) return;
      change((current) => {
        const others = current.filter((item) => item.id !== ticket.id);
        return inNotificationList(me, ticket) ? [ticket, ...others].sort(byUpdatedDesc) : others;
      });
    };
    const drop = (id: number) => change((current) => current.filter((item) => item.id !== id));
    const announce = (ticket: Ticket, body: string) => {
      const before = announced.current.get(ticket.id) ?? 0;
      announced.current.set(ticket.id, ticket.unreadMessages);
      const { user: me, location: here, onOpen: open, t: translate } = context.current;
      if (!me || ticket.unreadMessages <= before || ticket.fromMe || ticket.status === 'closed' || !notifies(me, ticket)) return;
      if (OPEN_TICKET_PATH.exec(here)?.[1] === ticket.uuid && document.visibilityState === 'visible') return;
      if (Date.now() - context.current.chimedAt > CHIME_GAP_MS) {
        context.current.chimedAt = Date.now();
        playChime();
      }
      showBrowserNotification({
        title: translate('newMessage', { name: ticket.contact?.name ?? '' }),
        body: body || translate('media'),
        icon: ticket.contact?.profilePicUrl || undefined,
        tag: ticket.uuid,
        onClick: () => open(ticket.uuid),
      });
    };
    const offTickets = realtime.on(`company-${companyId}-ticket`, (data) => {
      const frame = data as TicketFrame;
      if (frame.action === 'update' && frame.ticket) {
        put(frame.ticket);
        announce(frame.ticket, frame.ticket.lastMessage);
      } else if (frame.action === 'updateUnread' || frame.action === 'delete') {
        announced.current.set(Number(frame.ticketId), 0);
        drop(Number(frame.ticketId));
      }
    });
    const offMessages = realtime.on(`company-${companyId}-appMessage`, (data) => {
      const frame = data as MessageFrame;
      if (frame.action !== 'create' || !frame.ticket || !frame.message) return;
      put(frame.ticket);
      if (!frame.message.fromMe) announce(frame.ticket, frame.message.body);
    });
    return () => {
      offTickets();
      offMessages();
    };
  }, [companyId, realtime, queryClient, queryKey]);

  return tickets;
}

function UnreadList({ tickets, onPick }: { tickets: Ticket[]; onPick(): void }) {
  const { t } = useTranslation('notifications');
  const { token } = theme.useToken();
  const clock = useCompanyClock();
  if (tickets.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} style={{ margin: 16 }} />;
  return (
    <TopBarList maxHeight={400} testId="notifications-list">
      {tickets.map((ticket) => (
        <Link
          key={ticket.id}
          href={`/tickets/${ticket.uuid}`}
          onClick={onPick}
          data-testid="notification-link"
          style={{ ...topBarRowStyle(token, '8px 4px'), alignItems: 'center' }}
        >
          <Avatar src={ticket.contact?.profilePicUrl || undefined} alt="" style={{ flex: 'none', backgroundColor: token.colorPrimaryBg, color: token.colorPrimary }}>
            {initials(ticket.contact?.name ?? '')}
          </Avatar>
          <Flex vertical style={{ flex: 1, minWidth: 0 }}>
            <Flex gap={8} align="center">
              <Typography.Text strong ellipsis style={{ flex: 1, minWidth: 0 }}>
                {ticket.contact?.name}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {ticketTime(ticket.updatedAt, clock.zone)}
              </Typography.Text>
            </Flex>
            <Flex gap={8} align="center">
              <Typography.Text type="secondary" ellipsis style={{ flex: 1, minWidth: 0 }}>
                <MessageText text={ticket.lastMessage} inline />
              </Typography.Text>
              <Badge count={ticket.unreadMessages} color={token.colorSuccess} title={t('unread', { count: ticket.unreadMessages })} />
            </Flex>
          </Flex>
        </Link>
      ))}
    </TopBarList>
  );
}

/** The top bar's bell: how many tickets wait with unread messages, and a dropdown to open them. */
export function NotificationsBell() {
  const { t } = useTranslation('notifications');
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const openTicket = (uuid: string) => {
    setOpen(false);
    navigate(`/tickets/${uuid}`);
  };
  const tickets = useUnreadTickets(user, openTicket);

  return (
    <TopBarPopover
      icon={<BellOutlined style={{ fontSize: 16 }} data-testid="notifications-count" data-count={tickets.length} />}
      name={t('bell')}
      title={t('title')}
      count={tickets.length}
      open={open}
      onOpenChange={setOpen}
      width={320}
      testId="notifications-bell"
    >
      <UnreadList tickets={tickets} onPick={() => setOpen(false)} />
    </TopBarPopover>
  );
}
