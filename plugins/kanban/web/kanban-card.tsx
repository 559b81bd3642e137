import { forwardRef, type CSSProperties, type HTMLAttributes } from 'react';
import { Button, Flex, Typography, theme } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TicketCard } from 'atende/web';

export interface KanbanCardViewProps extends HTMLAttributes<HTMLDivElement> {
  card: TicketCard;
  /** The lane's name, for the card's accessible label. */
  laneName: string;
  /** The copy under the pointer while dragging. */
  overlay?: boolean;
  /** The card being dragged (its place in the lane is dimmed). */
  dragging?: boolean;
}

/**
 * A ticket's card: number, contact name and number, last message, and a link to the ticket. The
 * card itself is what a user drags (mouse, touch or keyboard: space, arrows, space); the link is
 * its own stop in the tab order.
 */
export const KanbanCardView = forwardRef<HTMLDivElement, KanbanCardViewProps>(function KanbanCardView({ card, laneName, overlay, dragging, style, ...rest }, ref) {
  const { t } = useTranslation('kanban');
  const { token } = theme.useToken();
  const look: CSSProperties = {
    background: token.colorBgContainer,
    border: `1px solid ${overlay ? token.colorPrimary : token.colorBorderSecondary}`,
    borderRadius: token.borderRadiusLG,
    padding: token.paddingSM,
    boxShadow: overlay ? token.boxShadowSecondary : undefined,
    opacity: dragging ? 0.4 : 1,
    cursor: overlay ? 'grabbing' : 'grab',
    touchAction: 'manipulation',
    outlineOffset: 2,
    ...style,
  };
  return (
    <div ref={ref} style={look} data-testid="kanban-card" data-ticket-id={card.id} aria-label={t('card', { id: card.id, name: card.contact.name, lane: laneName })} {...rest}>
      <Flex vertical gap={4}>
        <Flex justify="space-between" align="baseline" gap={8}>
          <Typography.Text strong>{t('ticketNumber', { id: card.id })}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {card.contact.number}
          </Typography.Text>
        </Flex>
        <Typography.Text ellipsis={{ tooltip: false }}>{card.contact.name}</Typography.Text>
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: token.fontSize * token.lineHeight * 2 }}>
          {card.lastMessage || t('noMessage')}
        </Typography.Paragraph>
        <div>
          <Button size="small" icon={<EyeOutlined />} href={`/tickets/${card.uuid}`} tabIndex={overlay ? -1 : undefined}>
            {t('viewTicket')}
          </Button>
        </div>
      </Flex>
    </div>
  );
});
