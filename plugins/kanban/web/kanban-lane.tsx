import { memo, useRef, type KeyboardEventHandler } from 'react';
import { Badge, Empty, Flex, Typography, theme } from 'antd';
import { useDraggable, useDroppable } from '@dnd-kit/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { ColorChip, type TicketCard } from 'atende/web';
import { KanbanCardView } from './kanban-card';
import type { BoardLane } from './use-kanban-board';

/** A card's height before it is measured, and the gap between cards. */
const CARD_ESTIMATE = 150;
const GAP = 8;

export interface KanbanLaneViewProps {
  lane: BoardLane;
  name: string;
  /** The card being dragged, if any. */
  activeId: number | null;
}

/** A card the mouse and touch drag whole, and the keyboard by its handle. */
function DraggableCard({ card, laneName, dragging }: { card: TicketCard; laneName: string; dragging: boolean }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef } = useDraggable({ id: card.id, data: { card } });
  const { onKeyDown, ...pointing } = listeners ?? {};
  const described = {
    'aria-describedby': attributes['aria-describedby'],
    'aria-roledescription': attributes['aria-roledescription'],
    'aria-pressed': attributes['aria-pressed'],
    'aria-disabled': attributes['aria-disabled'],
  };
  return (
    <KanbanCardView
      ref={setNodeRef}
      card={card}
      laneName={laneName}
      dragging={dragging}
      handleRef={setActivatorNodeRef}
      handleProps={{ ...described, onKeyDown: onKeyDown as KeyboardEventHandler<HTMLElement> | undefined }}
      {...pointing}
    />
  );
}

/**
 * One lane: its name in its tag's colour, its count, and its cards in a scroll of their own that
 * renders only the cards in view (a lane of thousands scrolls as lightly as a lane of ten). The
 * whole lane is the drop target.
 */
export const KanbanLaneView = memo(function KanbanLaneView({ lane, name, activeId }: KanbanLaneViewProps) {
  const { t } = useTranslation('kanban');
  const { token } = theme.useToken();
  const { setNodeRef, isOver } = useDroppable({ id: lane.id, data: { name } });
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: lane.cards.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_ESTIMATE,
    getItemKey: (index) => lane.cards[index]!.id,
    overscan: 4,
    gap: GAP,
    paddingStart: GAP,
    paddingEnd: GAP,
  });
  const count = lane.cards.length;
  return (
    <section
      ref={setNodeRef}
      aria-label={name}
      data-testid="kanban-lane"
      data-lane={lane.id}
      style={{
        flex: '0 0 auto',
        width: 'min(300px, calc(100vw - 56px))',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        background: isOver ? token.colorPrimaryBg : token.colorFillQuaternary,
        // Longhands only (React does not mix a shorthand with its parts well). The lane's tag colour
        // is data: it marks the lane on top as it marks the tag's chips.
        borderStyle: 'solid',
        borderWidth: '4px 1px 1px',
        borderColor: `${lane.tag?.color ?? token.colorTextQuaternary} ${isOver ? token.colorPrimaryBorder : token.colorBorderSecondary} ${isOver ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
      }}
    >
      <Flex justify="space-between" align="center" gap={8} style={{ padding: `${token.paddingXS}px ${token.paddingSM}px` }}>
        {lane.tag ? (
          <ColorChip color={lane.tag.color} style={{ margin: 0, maxWidth: '75%', overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {name}
          </ColorChip>
        ) : (
          <Typography.Text strong>{name}</Typography.Text>
        )}
        <span data-testid="lane-count" data-count={count}>
          <Badge count={count} showZero overflowCount={99999} color={token.colorTextTertiary} title={t('laneCount', { count })} />
        </span>
      </Flex>
      <div ref={scroller} style={{ flex: 1, minHeight: 0, overflowY: 'auto', padding: `0 ${token.paddingXS}px` }} data-testid="lane-scroll">
        {count === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('laneEmpty')} />
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const card = lane.cards[item.index]!;
              return (
                <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}>
                  <DraggableCard card={card} laneName={name} dragging={card.id === activeId} />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
});
