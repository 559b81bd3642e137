import { memo, useState } from 'react';
import { Avatar, Badge, Button, Flex, Tag, Tooltip, Typography, theme } from 'antd';
import { EyeOutlined, RobotOutlined, UserOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Ticket } from '../../api/types';
import { useCompanyClock } from '../../layout/use-company-clock';
import { MessageText } from './conversation/message-text';
import { initials, shortName, ticketTime } from './ticket-rules';
import { ColorChip } from '../../components/color-chip';

export interface TicketRowProps {
  ticket: Ticket;
  /** The DOM id the list points at with aria-activedescendant. */
  optionId: string;
  /** The ticket open on the right. */
  selected: boolean;
  /** The keyboard's position in the list. */
  active: boolean;
  /** Under 600 px: the name is cut to 10 characters. */
  narrow: boolean;
  /** Admins get the peek icon. */
  canPeek: boolean;
  accepting: boolean;
  onAccept(ticket: Ticket): void;
  onPeek(ticket: Ticket): void;
}

/**
 * One ticket of the panel: queue colour bar, picture, name, last message, connection, user,
 * queue, tags, unread count, time, bot icon; pending tickets are accepted, not opened by a click.
 */
export const TicketRow = memo(function TicketRow(props: TicketRowProps) {
  const { ticket, optionId, selected, active, narrow, canPeek, accepting, onAccept, onPeek } = props;
  const { t } = useTranslation('tickets');
  const { token } = theme.useToken();
  const clock = useCompanyClock();
  const [hovered, setHovered] = useState(false);
  const pending = ticket.status === 'pending';
  const name = ticket.contact?.name ?? '';
  const shown = shortName(name, narrow);
  const small = { fontSize: token.fontSizeSM };

  let background: string = 'transparent';
  if (selected) background = token.controlItemBgActive;
  else if (hovered || active) background = token.controlItemBgHover;

  return (
    <div
      role="option"
      id={optionId}
      aria-selected={selected}
      aria-label={name}
      data-testid="ticket-row"
      data-uuid={ticket.uuid}
      data-status={ticket.status}
      data-active={active || undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      style={{
        display: 'flex',
        gap: 10,
        padding: '10px 12px 10px 10px',
        borderInlineStart: `4px solid ${ticket.queue?.color ?? token.colorBorder}`,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        background,
        outline: active ? `2px solid ${token.colorPrimaryBorder}` : 'none',
        outlineOffset: -2,
        position: 'relative',
      }}
    >
      {pending ? null : (
        // Stretched over the row, so the whole row is a link (a new tab on a middle or ctrl click);
        // the list's own keys move through the rows, so the link takes no tab stop.
        <Link href={`/tickets/${ticket.uuid}`} tabIndex={-1} aria-label={name} data-testid="ticket-link" style={{ position: 'absolute', inset: 0, zIndex: 1 }} />
      )}
      <Avatar
        size={44}
        src={ticket.contact?.profilePicUrl || undefined}
        alt=""
        style={{ flex: 'none', backgroundColor: token.colorPrimaryBg, color: token.colorPrimary }}
      >
        {initials(name)}
      </Avatar>
      <Flex vertical gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Flex align="center" gap={8}>
          <Typography.Text strong ellipsis style={{ flex: 1, minWidth: 0 }} data-testid="ticket-name">
            {shown}
          </Typography.Text>
          {ticket.chatbot || ticket.useIntegration ? (
            // The chatbot menu, or a bot (an AI prompt, an integration) holding the ticket.
            <Tooltip title={t(ticket.useIntegration ? 'row.bot' : 'row.chatbot')}>
              <RobotOutlined
                aria-label={t(ticket.useIntegration ? 'row.bot' : 'row.chatbot')}
                data-testid="ticket-bot"
                style={{ color: ticket.useIntegration ? token.colorPrimary : token.colorTextSecondary }}
              />
            </Tooltip>
          ) : null}
          <Typography.Text type={ticket.unreadMessages > 0 ? 'success' : 'secondary'} style={{ ...small, flex: 'none' }}
            title={clock.title(ticket.updatedAt)}
            data-testid="ticket-time"
          >
            {ticketTime(ticket.updatedAt, clock.zone)}
          </Typography.Text>
        </Flex>
        <Flex align="center" gap={8}>
          <Typography.Text type="secondary" ellipsis style={{ flex: 1, minWidth: 0 }} data-testid="ticket-last-message">
            {ticket.lastMessage ? <MessageText text={ticket.lastMessage} inline /> : '\u00a0'}
          </Typography.Text>
          {ticket.unreadMessages > 0 ? (
            <Badge
              count={ticket.unreadMessages}
              overflowCount={99}
              color={token.colorSuccess}
              title={t('row.unread', { count: ticket.unreadMessages })}
              data-testid="ticket-unread"
            />
          ) : null}
        </Flex>
        <Flex align="center" gap={4} wrap style={{ marginTop: 2 }}>
          {ticket.whatsapp ? (
            <Tag bordered={false} icon={<WhatsAppOutlined />} style={{ ...small, marginInlineEnd: 0 }} title={t('row.connection')}>
              {ticket.whatsapp.name}
            </Tag>
          ) : null}
          {ticket.user ? (
            <Tag bordered={false} icon={<UserOutlined />} style={{ ...small, marginInlineEnd: 0 }} title={t('row.user')}>
              {ticket.user.name}
            </Tag>
          ) : null}
          <ColorChip color={ticket.queue?.color} style={{ ...small, marginInlineEnd: 0 }} title={t('row.queue')} data-testid="ticket-queue">
            {ticket.queue?.name ?? t('noQueue')}
          </ColorChip>
          {ticket.tags.map((tag) => (
            <ColorChip key={tag.id} color={tag.color} style={{ ...small, marginInlineEnd: 0 }} data-testid="ticket-tag">
              {tag.name}
            </ColorChip>
          ))}
          {/* Above the row's link (which lies above the chips). */}
          <Flex gap={4} style={{ marginInlineStart: 'auto', position: 'relative', zIndex: 2 }}>
            {canPeek ? (
              <Tooltip title={t('row.peek')}>
                <Button
                  size="small"
                  type="text"
                  tabIndex={-1}
                  icon={<EyeOutlined />}
                  aria-label={t('row.peekTicket', { name })}
                  onClick={() => onPeek(ticket)}
                />
              </Tooltip>
            ) : null}
            {pending ? (
              <Button
                size="small"
                type="primary"
                tabIndex={-1}
                loading={accepting}
                aria-label={t('row.acceptTicket', { name })}
                onClick={() => onAccept(ticket)}
              >
                {t('row.accept')}
              </Button>
            ) : null}
          </Flex>
        </Flex>
      </Flex>
    </div>
  );
});
