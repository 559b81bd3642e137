import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { App, Badge, Button, Empty, Flex, Select, Switch, Tabs, Typography, theme } from 'antd';
import { CheckSquareOutlined, InboxOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import type { Ticket, TicketUpdateBody } from '../../api/types';
import { useAuth } from '../../auth/auth-provider';
import { NewTicketModal } from './new-ticket-modal';
import { PeekModal } from './peek-modal';
import { SearchFilters, type SearchFiltersValue } from './search-filters';
import { TicketList } from './ticket-list';
import { isAdminUser } from './ticket-rules';
import { useQueueChoices } from './use-choices';
import { useTicketsList, type TicketsList } from './use-tickets-list';

type MainTab = 'open' | 'closed' | 'search';
type OpenSection = 'assigned' | 'pending';

/** The search box reloads 500 ms after the last key (spec §9). */
const SEARCH_DEBOUNCE_MS = 500;

export interface TicketsManagerProps {
  selectedUuid: string | undefined;
  narrow: boolean;
  /** Opens a ticket on the right (its route). */
  onOpen(uuid: string): void;
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The queue multi-select's choice: every queue offered, until the user narrows it. A change of
 * the offered queues (the user's own were edited) offers them all again.
 */
function useQueueFilter() {
  const queues = useQueueChoices();
  const offered = queues.items.map((q) => q.id).join(',');
  const [picked, setPicked] = useState<{ offered: string; ids: number[] } | null>(null);
  const ids = useMemo(() => (picked && picked.offered === offered ? picked.ids : queues.items.map((q) => q.id)), [picked, offered, queues.items]);
  const set = useCallback((next: number[]) => setPicked({ offered, ids: next }), [offered]);
  return { queues, ids, set };
}

/** The server counts up to 1000 tickets (docs/decisions.md): more reads 1000+. */
const COUNT_CAP = 1000;

function SectionLabel({ label, count, testId }: { label: string; count: number; testId: string }) {
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={6}>
      {label}
      <span data-testid={testId} data-count={count}>
        <Badge count={count >= COUNT_CAP ? `${COUNT_CAP}+` : count} showZero color={token.colorPrimary} size="small" />
      </span>
    </Flex>
  );
}

/**
 * The left pane: Abertas (Atendendo / Aguardando with live counts), Resolvidos and Busca; the New
 * ticket button, the admin's Show all switch and the queue filter.
 */
export function TicketsManager({ selectedUuid, narrow, onOpen }: TicketsManagerProps) {
  const { t } = useTranslation('tickets');
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const { user } = useAuth();
  const admin = user !== null && isAdminUser(user);
  const [tab, setTab] = useState<MainTab>('open');
  const [section, setSection] = useState<OpenSection>('assigned');
  const [showAll, setShowAll] = useState(false);
  const [creating, setCreating] = useState(false);
  const [peeking, setPeeking] = useState<Ticket | null>(null);
  const [acceptingId, setAcceptingId] = useState<number | null>(null);
  const [filters, setFilters] = useState<SearchFiltersValue>({ text: '', tags: [], users: [] });
  const searchText = useDebounced(filters.text.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const queueFilter = useQueueFilter();
  const ready = queueFilter.queues.ready;
  const scope = { showAll: admin && showAll, queueIds: queueFilter.ids };

  const assigned = useTicketsList({ query: { ...scope, status: 'open' }, enabled: ready, live: 'scope' });
  const pending = useTicketsList({ query: { ...scope, status: 'pending' }, enabled: ready, live: 'scope' });
  const closed = useTicketsList({ query: { ...scope, status: 'closed' }, enabled: ready && tab === 'closed', live: 'scope' });
  const searching = searchText !== '' || filters.tags.length > 0 || filters.users.length > 0;
  const found = useTicketsList({
    query: { ...scope, searchParam: searchText, tags: filters.tags, users: filters.users },
    enabled: ready && tab === 'search' && searching,
    live: 'known',
  });

  const open = useCallback((ticket: Ticket) => onOpen(ticket.uuid), [onOpen]);
  const accept = useCallback(
    async (ticket: Ticket) => {
      if (!user) return;
      setAcceptingId(ticket.id);
      try {
        const updated = await api.put<Ticket | undefined>(`/tickets/${ticket.id}`, { status: 'open', userId: user.id, queueId: ticket.queueId } satisfies TicketUpdateBody);
        setTab('open');
        setSection('assigned');
        onOpen(updated?.uuid ?? ticket.uuid);
      } catch (err) {
        void message.error(errorText(err, t));
      } finally {
        setAcceptingId(null);
      }
    },
    [user, onOpen, message, t],
  );

  const acceptTicket = useCallback((ticket: Ticket) => void accept(ticket), [accept]);

  const list = (ticketsList: TicketsList, label: string, testId: string, visible: boolean, empty?: ReactNode) => (
    <Flex vertical flex={1} style={{ minHeight: 0, display: visible ? 'flex' : 'none' }}>
      <TicketList
        list={ticketsList}
        label={t('listLabel', { name: label })}
        selectedUuid={selectedUuid}
        narrow={narrow}
        canPeek={admin}
        acceptingId={acceptingId}
        onOpen={open}
        onAccept={acceptTicket}
        onPeek={setPeeking}
        visible={visible}
        empty={empty}
        testId={testId}
      />
    </Flex>
  );

  const searchHint = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      style={{ marginTop: token.marginXL }}
      description={
        <Flex vertical gap={4}>
          <Typography.Text strong>{t('searchHint.title')}</Typography.Text>
          <Typography.Text type="secondary">{t('searchHint.message')}</Typography.Text>
        </Flex>
      }
    />
  );

  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }} data-testid="tickets-manager">
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as MainTab)}
        centered
        tabBarStyle={{ margin: 0, paddingInline: 12 }}
        items={[
          { key: 'open', label: t('tabs.open'), icon: <InboxOutlined /> },
          { key: 'closed', label: t('tabs.closed'), icon: <CheckSquareOutlined /> },
          { key: 'search', label: t('tabs.search'), icon: <SearchOutlined /> },
        ]}
      />
      <Flex align="center" gap={8} wrap style={{ padding: '8px 12px 0' }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="new-ticket">
          {t('newTicket')}
        </Button>
        {admin ? (
          <label style={{ display: 'inline-flex', alignItems: 'center', gap: 6, cursor: 'pointer' }}>
            <Switch size="small" checked={showAll} onChange={setShowAll} data-testid="show-all" />
            <Typography.Text>{t('showAll')}</Typography.Text>
          </label>
        ) : null}
        <Select
          mode="multiple"
          maxTagCount="responsive"
          placeholder={t('queues')}
          aria-label={t('queues')}
          loading={!ready}
          value={queueFilter.ids}
          onChange={queueFilter.set}
          options={queueFilter.queues.items.map((q) => ({ value: q.id, label: q.name }))}
          style={{ flex: '1 1 140px', minWidth: 0 }}
          data-testid="queue-filter"
        />
      </Flex>
      {tab === 'search' ? <SearchFilters value={filters} onChange={setFilters} byUser={admin} /> : null}
      {tab === 'open' ? (
        <Tabs
          activeKey={section}
          onChange={(key) => setSection(key as OpenSection)}
          size="small"
          tabBarStyle={{ margin: 0, paddingInline: 12 }}
          items={[
            { key: 'assigned', label: <SectionLabel label={t('sections.assigned')} count={assigned.count} testId="assigned-count" /> },
            { key: 'pending', label: <SectionLabel label={t('sections.pending')} count={pending.count} testId="pending-count" /> },
          ]}
        />
      ) : (
        <div style={{ height: 8, borderBottom: `1px solid ${token.colorBorderSecondary}` }} />
      )}
      {list(assigned, t('sections.assigned'), 'tickets-assigned', tab === 'open' && section === 'assigned')}
      {list(pending, t('sections.pending'), 'tickets-pending', tab === 'open' && section === 'pending')}
      {list(closed, t('tabs.closed'), 'tickets-closed', tab === 'closed')}
      {list(found, t('tabs.search'), 'tickets-search', tab === 'search', searching ? undefined : searchHint)}
      <NewTicketModal open={creating} onClose={() => setCreating(false)} />
      <PeekModal ticket={peeking} onClose={() => setPeeking(null)} />
    </Flex>
  );
}
