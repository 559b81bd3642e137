import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Empty, Flex, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../../api/types';
import { nearBottom } from '../../hooks/use-paged-list';
import { TicketRow } from './ticket-row';
import type { TicketsList } from './use-tickets-list';

export interface TicketListProps {
  list: TicketsList;
  /** The list's accessible name, e.g. "Atendendo". */
  label: string;
  /** The uuid of the ticket open on the right. */
  selectedUuid: string | undefined;
  narrow: boolean;
  canPeek: boolean;
  acceptingId: number | null;
  onOpen(ticket: Ticket): void;
  onAccept(ticket: Ticket): void;
  onPeek(ticket: Ticket): void;
  /** Whether the list is on screen (hidden lists stay mounted to stay live). */
  visible: boolean;
  /** Shown instead of the list when it is empty; the spec's "nothing here" by default. */
  empty?: ReactNode;
  testId: string;
}

const optionId = (listId: string, ticket: Ticket) => `${listId}-ticket-${ticket.id}`;

/**
 * A scrolled list of ticket rows: the next page loads within 100 px of the bottom; arrow keys
 * move the keyboard's position, Enter opens the ticket there (accepts it when it is waiting).
 */
export function TicketList(props: TicketListProps) {
  const { list, label, selectedUuid, narrow, canPeek, acceptingId, onOpen, onAccept, onPeek, visible, empty, testId } = props;
  const { t } = useTranslation('tickets');
  const { token } = theme.useToken();
  const scroller = useRef<HTMLDivElement>(null);
  const [activeId, setActiveId] = useState<number | null>(null);
  const { tickets, loading, hasMore, loadMore } = list;
  const activeIndex = tickets.findIndex((ticket) => ticket.id === activeId);
  const active = activeIndex >= 0 ? tickets[activeIndex] : undefined;

  // A tall screen may show the whole first page without a scroll bar: fetch on until it scrolls
  // (a hidden list, of zero height, waits until it is shown).
  useEffect(() => {
    const el = scroller.current;
    if (el && el.clientHeight > 0 && !loading && hasMore && el.scrollHeight <= el.clientHeight) loadMore();
  }, [tickets, loading, hasMore, loadMore, visible]);

  useEffect(() => {
    if (active) document.getElementById(optionId(testId, active))?.scrollIntoView({ block: 'nearest' });
  }, [active, testId]);

  const move = (to: number) => {
    if (tickets.length === 0) return;
    const index = Math.min(tickets.length - 1, Math.max(0, to));
    setActiveId(tickets[index]!.id);
    if (index >= tickets.length - 1 && hasMore) loadMore();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    // With no keyboard position yet, the arrows move from the open ticket.
    const from = activeIndex >= 0 ? activeIndex : tickets.findIndex((ticket) => ticket.uuid === selectedUuid);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(from + 1),
      ArrowUp: () => move(from < 0 ? 0 : from - 1),
      Home: () => move(0),
      End: () => move(tickets.length - 1),
      Enter: () => {
        if (!active) return;
        if (active.status === 'pending') onAccept(active);
        else onOpen(active);
      },
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const showEmpty = !loading && tickets.length === 0;
  return (
    <div
      ref={scroller}
      role="listbox"
      tabIndex={0}
      aria-label={label}
      aria-busy={loading}
      aria-activedescendant={active ? optionId(testId, active) : undefined}
      data-testid={testId}
      onKeyDown={onKeyDown}
      onBlur={() => setActiveId(null)}
      onMouseDown={() => setActiveId(null)}
      onScroll={(event) => nearBottom(event, loadMore)}
      style={{ flex: 1, minHeight: 0, overflowY: 'auto', outline: 'none' }}
    >
      {tickets.map((ticket) => (
        <TicketRow
          key={ticket.id}
          ticket={ticket}
          optionId={optionId(testId, ticket)}
          selected={ticket.uuid === selectedUuid}
          active={ticket.id === activeId}
          narrow={narrow}
          canPeek={canPeek}
          accepting={acceptingId === ticket.id}
          onAccept={onAccept}
          onPeek={onPeek}
        />
      ))}
      {loading ? (
        <Flex justify="center" style={{ padding: token.padding }}>
          <Spin />
        </Flex>
      ) : null}
      {showEmpty
        ? (empty ?? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              style={{ marginTop: token.marginXL }}
              description={
                <Flex vertical gap={4} data-testid="tickets-empty">
                  <Typography.Text strong>{t('empty.title')}</Typography.Text>
                  <Typography.Text type="secondary">{t('empty.message')}</Typography.Text>
                </Flex>
              }
            />
          ))
        : null}
    </div>
  );
}
