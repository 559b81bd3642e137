import { useCallback, useEffect, useMemo, useRef } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, errorText, mayViewTicket, queryKeys, useApiQuery, useAuth, useQueryClient, type SessionUser, type TicketCard } from 'atende/web';
import type { KanbanLane, KanbanLanesAnswer } from '../kanban.contract';

/** The first lane: tickets without a kanban tag. */
export const OPEN_LANE = 'open';
export type LaneId = typeof OPEN_LANE | number;

export interface BoardLane {
  id: LaneId;
  /** The tag, for tag lanes; null for 'Em aberto'. */
  tag: KanbanLane | null;
  cards: TicketCard[];
}

export interface KanbanBoard {
  lanes: BoardLane[];
  /** Which lane a card is in now. */
  laneOf(card: TicketCard): LaneId;
  loading: boolean;
  failed: boolean;
  retry(): void;
  /** The board holds only the newest tickets (the API's cap). */
  truncated: number | null;
  /** Moves a card to a lane: the cache first, then the API; a failure puts it back. */
  move(card: TicketCard, to: LaneId): void;
}

type CardsAnswer = { tickets: TicketCard[]; hasMore: boolean };
type TicketFrame = { action?: string; ticket?: TicketCard & Record<string, unknown>; ticketId?: number };

const LANES_PATH = '/tags/kanban';
const CARDS_PATH = '/ticket/kanban';

const byUpdatedDesc = (a: TicketCard, b: TicketCard) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

type TagFrame = { action: 'create' | 'update'; tag: KanbanLane & { kanban: number } } | { action: 'delete'; tagId: number };

const byName = (a: KanbanLane, b: KanbanLane) => a.name.localeCompare(b.name) || a.id - b.id;

/** The lanes after a company-{id}-tag frame: a tag with the kanban flag is one, renamed or recoloured in place; the same list when nothing a lane shows changed. */
function relane(lanes: KanbanLane[], frame: TagFrame): KanbanLane[] {
  const id = frame.action === 'delete' ? frame.tagId : frame.tag.id;
  const current = lanes.find((lane) => lane.id === id);
  if (frame.action === 'delete' || frame.tag.kanban !== 1) return current ? lanes.filter((lane) => lane !== current) : lanes;
  const { name, color } = frame.tag;
  if (current && current.name === name && current.color === color) return lanes;
  return [...lanes.filter((lane) => lane !== current), { id, name, color }].sort(byName);
}

/** A ticket of a frame reduced to what a card holds (the frames carry the whole ticket). */
function toCard(ticket: TicketCard): TicketCard {
  const { id, uuid, status, userId, queueId, lastMessage, updatedAt, contact, tags } = ticket;
  return { id, uuid, status, userId, queueId, lastMessage, updatedAt, contact: { id: contact.id, name: contact.name, number: contact.number }, tags: tags.map((tag) => ({ id: tag.id })) };
}

/** Whether the board shows a ticket: open or pending, in the user's sight, and in the queues asked for (as the server narrows). */
function onBoard(user: SessionUser, queueIds: number[], ticket: TicketCard): boolean {
  if (ticket.status === 'closed' || !mayViewTicket(user, ticket)) return false;
  return queueIds.length === 0 || ticket.queueId === null || queueIds.includes(ticket.queueId);
}

/**
 * The board of /kanban: the kanban tags as lanes after 'Em aberto', the open and pending tickets of
 * the user's queues as cards (spec: "the kanban loads tickets for the user's queue ids"), kept live
 * with the core's company-{id}-ticket and -appMessage frames, which reach a user only for tickets
 * they may see. Tag frames change the lanes (a tag renamed, recoloured, deleted, or its kanban switch turned).
 */
export function useKanbanBoard(): KanbanBoard {
  const { t } = useTranslation('kanban');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const queueIds = useMemo(() => (user?.queues ?? []).map((queue) => queue.id).sort((a, b) => a - b), [user?.queues]);
  const cardsQuery = useMemo(() => ({ queueIds: JSON.stringify(queueIds) }), [queueIds]);
  const cardsKey = useMemo(() => queryKeys.records(CARDS_PATH, cardsQuery), [cardsQuery]);

  const lanesAnswer = useApiQuery<KanbanLanesAnswer>(LANES_PATH);
  const cardsAnswer = useApiQuery<CardsAnswer>(CARDS_PATH, { query: cardsQuery });

  const context = useRef({ user, queueIds, cardsKey });
  context.current = { user, queueIds, cardsKey };

  const changeCards = useCallback(
    (apply: (cards: TicketCard[]) => TicketCard[]) =>
      queryClient.setQueryData<CardsAnswer>(context.current.cardsKey, (answer) => (answer ? { ...answer, tickets: apply(answer.tickets) } : answer)),
    [queryClient],
  );

  const companyId = user?.companyId;
  useEffect(() => {
    if (companyId === undefined) return;
    const place = (ticket: TicketCard) => {
      const { user: me, queueIds: scope } = context.current;
      if (!me) return;
      const card = toCard(ticket);
      changeCards((cards) => {
        const others = cards.filter((c) => c.id !== card.id);
        return onBoard(me, scope, card) ? [...others, card].sort(byUpdatedDesc) : others;
      });
    };
    const offTickets = realtime.on(`company-${companyId}-ticket`, (data) => {
      const frame = data as TicketFrame;
      if (frame.action === 'delete') changeCards((cards) => cards.filter((c) => c.id !== Number(frame.ticketId)));
      else if (frame.action === 'update' && frame.ticket) place(frame.ticket);
    });
    const offMessages = realtime.on(`company-${companyId}-appMessage`, (data) => {
      const frame = data as TicketFrame;
      if (frame.action === 'create' && frame.ticket) place(frame.ticket);
    });
    const offTags = realtime.on(`company-${companyId}-tag`, (data) => {
      queryClient.setQueryData<KanbanLanesAnswer>(queryKeys.records(LANES_PATH), (answer) => (answer ? { lista: relane(answer.lista, data as TagFrame) } : answer));
    });
    return () => {
      offTickets();
      offMessages();
      offTags();
    };
  }, [companyId, realtime, queryClient, changeCards]);

  const tags = lanesAnswer.data?.lista;
  const laneOf = useCallback(
    (card: TicketCard): LaneId => (tags ?? []).find((tag) => card.tags.some((own) => own.id === tag.id))?.id ?? OPEN_LANE,
    [tags],
  );

  const lanes = useMemo<BoardLane[]>(() => {
    const all: BoardLane[] = [{ id: OPEN_LANE, tag: null, cards: [] }, ...(tags ?? []).map((tag) => ({ id: tag.id, tag, cards: [] as TicketCard[] }))];
    const byId = new Map<LaneId, BoardLane>(all.map((lane) => [lane.id, lane]));
    for (const card of cardsAnswer.data?.tickets ?? []) byId.get(laneOf(card))!.cards.push(card);
    return all;
  }, [tags, cardsAnswer.data, laneOf]);

  const move = useCallback(
    (card: TicketCard, to: LaneId) => {
      const laneIds = new Set((tags ?? []).map((tag) => tag.id));
      const moved = (c: TicketCard): TicketCard => ({ ...c, tags: [...c.tags.filter((tag) => !laneIds.has(tag.id)), ...(to === OPEN_LANE ? [] : [{ id: to }])] });
      changeCards((cards) => cards.map((c) => (c.id === card.id ? moved(c) : c)));
      const request = to === OPEN_LANE ? api.delete(`/ticket-tags/${card.id}`) : api.put(`/ticket-tags/${card.id}/${to}`);
      request
        .then(() => message.success(to === OPEN_LANE ? t('tagRemoved') : t('tagAdded')))
        .catch((err: unknown) => {
          console.error('kanban move failed', err);
          message.error(errorText(err, t));
          void queryClient.invalidateQueries({ queryKey: context.current.cardsKey });
        });
    },
    [tags, changeCards, message, t, queryClient],
  );

  const retry = useCallback(() => {
    void lanesAnswer.refetch();
    void cardsAnswer.refetch();
  }, [lanesAnswer, cardsAnswer]);

  return {
    lanes,
    laneOf,
    loading: !lanesAnswer.data || !cardsAnswer.data ? lanesAnswer.isFetching || cardsAnswer.isFetching : false,
    failed: lanesAnswer.isError || cardsAnswer.isError,
    retry,
    truncated: cardsAnswer.data?.hasMore ? cardsAnswer.data.tickets.length : null,
    move,
  };
}
