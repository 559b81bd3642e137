import { forwardRef, type CSSProperties, type HTMLAttributes, type KeyboardEventHandler } from 'react';
import { Button, Flex, Typography, theme } from 'antd';
import { EyeOutlined, HolderOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TicketCard } from 'atende/web';

/** What dnd-kit tells about the drag on its activator (a real button needs no role nor tabIndex). */
export interface DragHandleProps {
  onKeyDown?: KeyboardEventHandler<HTMLElement>;
  'aria-describedby'?: string;
  'aria-roledescription'?: string;
  'aria-pressed'?: boolean;
  'aria-disabled'?: boolean;
}

export interface KanbanCardViewProps extends HTMLAttributes<HTMLDivElement> {
  /** The keyboard's way to drag: the handle button's ref and attributes (dnd-kit's activator). */
  handleRef?: (element: HTMLElement | null) => void;
  handleProps?: DragHandleProps;
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
 * mouse and touch drag the whole card; the keyboard drags it by its handle button (space, arrows,
 * space), so the card holds two controls side by side rather than a link inside a button.
 */
export const KanbanCardView = forwardRef<HTMLDivElement, KanbanCardViewProps>(function KanbanCardView(
  { card, laneName, overlay, dragging, handleRef, handleProps, style, ...rest },
  ref,
) {
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
    <div ref={ref} style={look} data-testid="kanban-card" data-ticket-id={card.id} {...rest}>
      <Flex vertical gap={4}>
        <Flex justify="space-between" align="center" gap={8}>
          <Flex align="center" gap={4} style={{ minWidth: 0 }}>
            <Button
              ref={handleRef}
              type="text"
              size="small"
              icon={<HolderOutlined />}
              aria-label={t('move', { id: card.id, name: card.contact.name, lane: laneName })}
              tabIndex={overlay ? -1 : undefined}
              // The grip's glyph lines up with the text below it.
              style={{ cursor: 'inherit', marginInlineStart: -token.paddingXXS - 2 }}
              {...handleProps}
            />
            <Typography.Text strong>{t('ticketNumber', { id: card.id })}</Typography.Text>
          </Flex>
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
