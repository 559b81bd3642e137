import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Flex, Grid, Result, Spin } from 'antd';
import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  pointerWithin,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import { ListHeader, type TicketCard } from 'atende/web';
import { KanbanCardView } from './kanban-card';
import { KanbanLaneView } from './kanban-lane';
import { OPEN_LANE, useKanbanBoard, type BoardLane, type LaneId } from './use-kanban-board';

/** The page fills the window below the header bar (64 px) and the content's padding; the board takes what the title leaves. */
const PAGE_HEIGHT = { wide: 'calc(100dvh - 64px - 32px)', narrow: 'calc(100dvh - 64px - 16px)' };

/** The pointer's lane when there is a pointer; for the keyboard, the lane nearest the moved card. */
const collision: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length > 0 ? hits : closestCenter(args);
};

/**
 * The keyboard moves a card lane by lane: left and right put it over the centre of the previous or
 * next lane (the default would move it 25 px a press); up and down do nothing.
 */
const laneByLane: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const { collisionRect, droppableRects, droppableContainers } = context;
  if (event.code === 'ArrowUp' || event.code === 'ArrowDown') {
    event.preventDefault();
    return currentCoordinates;
  }
  if (!collisionRect || (event.code !== 'ArrowLeft' && event.code !== 'ArrowRight')) return undefined;
  event.preventDefault();
  // From the sensor's coordinates (the card's top left), which follow every press at once: the
  // measured rect may still be where the previous press left it.
  const centre = currentCoordinates.x + collisionRect.width / 2;
  const centres = droppableContainers
    .getEnabled()
    .map((container) => droppableRects.get(container.id))
    .filter((rect) => rect !== undefined)
    .map((rect) => rect.left + rect.width / 2)
    .sort((a, b) => a - b);
  const target = event.code === 'ArrowRight' ? centres.find((c) => c > centre + 1) : [...centres].reverse().find((c) => c < centre - 1);
  return target === undefined ? currentCoordinates : { x: currentCoordinates.x + target - centre, y: currentCoordinates.y };
};

/** /kanban (plan flag useKanban): 'Em aberto', then one lane per kanban tag; drag a card to move its ticket's tag. */
export default function KanbanPage() {
  const { t } = useTranslation('kanban');
  const screens = Grid.useBreakpoint();
  const board = useKanbanBoard();
  const [active, setActive] = useState<TicketCard | null>(null);
  const sensors = useSensors(
    // A few pixels before a drag starts, so a click on the card's link stays a click; on a touch
    // screen a press held a moment, so that a swipe still scrolls the board and the lanes.
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneByLane }),
  );

  const laneName = useCallback((lane: Pick<BoardLane, 'tag'>) => lane.tag?.name ?? t('open'), [t]);
  const nameOf = useCallback(
    (id: UniqueIdentifier | undefined) => {
      const lane = board.lanes.find((l) => l.id === id);
      return lane ? laneName(lane) : '';
    },
    [board.lanes, laneName],
  );
  const { laneOf, move } = board;

  const announcements = useMemo<Announcements>(
    () => ({
      onDragStart: ({ active: a }) => t('dnd.pickedUp', { id: a.id, lane: nameOf(laneOf((a.data.current as { card: TicketCard }).card)) }),
      onDragOver: ({ active: a, over }) => (over ? t('dnd.over', { id: a.id, lane: nameOf(over.id) }) : undefined),
      onDragEnd: ({ active: a, over }) => (over ? t('dnd.dropped', { id: a.id, lane: nameOf(over.id) }) : t('dnd.cancelled', { id: a.id })),
      onDragCancel: ({ active: a }) => t('dnd.cancelled', { id: a.id }),
    }),
    [t, nameOf, laneOf],
  );

  const onDragStart = useCallback((event: DragStartEvent) => setActive((event.active.data.current as { card: TicketCard }).card), []);
  const onDragEnd = useCallback(
    ({ active: dragged, over }: DragEndEvent) => {
      setActive(null);
      if (!over) return;
      const card = (dragged.data.current as { card: TicketCard }).card;
      const to = over.id as LaneId;
      if (laneOf(card) !== to) move(card, to);
    },
    [laneOf, move],
  );

  let body;
  if (board.failed) {
    body = (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={
          <Button type="primary" onClick={board.retry}>
            {t('retry')}
          </Button>
        }
      />
    );
  } else if (board.loading) {
    body = (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin size="large" />
      </Flex>
    );
  } else {
    body = (
      <DndContext
        sensors={sensors}
        collisionDetection={collision}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setActive(null)}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('dnd.instructions') } }}
      >
        <div
          data-testid="kanban-board"
          style={{ display: 'flex', gap: 12, overflowX: 'auto', alignItems: 'stretch', flex: 1, minHeight: 0, paddingBottom: 4 }}
        >
          {board.lanes.map((lane) => (
            <KanbanLaneView key={lane.id} lane={lane} name={laneName(lane)} activeId={active?.id ?? null} />
          ))}
        </div>
        <DragOverlay dropAnimation={null}>{active ? <KanbanCardView card={active} laneName={nameOf(laneOf(active))} overlay /> : null}</DragOverlay>
      </DndContext>
    );
  }

  const noTagLanes = !board.loading && !board.failed && board.lanes.length === 1 && board.lanes[0]!.id === OPEN_LANE;
  return (
    <Flex vertical gap={12} style={{ height: screens.sm ? PAGE_HEIGHT.wide : PAGE_HEIGHT.narrow, minHeight: 420 }}>
      <ListHeader title={t('title')} />
      {noTagLanes && (
        <Alert
          type="info"
          showIcon
          message={t('noLanes')}
          action={
            <Button size="small" href="/tags">
              {t('openTags')}
            </Button>
          }
        />
      )}
      {board.truncated !== null && <Alert type="warning" showIcon message={t('truncated', { count: board.truncated })} />}
      {body}
    </Flex>
  );
}
