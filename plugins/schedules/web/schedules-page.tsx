import { useCallback, useEffect, useState } from 'react';
import { Flex, Grid, Tabs, Tag, Typography, theme, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import {
  actionsColumn,
  api,
  CompanyZoneNote,
  companyTimezone,
  errorText,
  InfiniteTable,
  ListHeader,
  RowActions,
  useAuth,
  useConfirmDelete,
  usePagedList,
  zonedText,
} from 'atende/web';
import { ScheduleModal, type ScheduleTarget } from './schedule-modal';
import { byNewestSendAt, mayChange, scheduleChannel, STATUS_COLORS, type ScheduleRecord } from './schedule-record';
import { SchedulesCalendar, type ScheduleActions } from './schedules-calendar';

type View = 'calendar' | 'list';

/**
 * /schedules (plan flag useSchedules): scheduled messages on a month calendar and in a searched
 * list, both kept live. ?contactId= opens a new schedule for that contact (the contacts page's action).
 */
export default function SchedulesPage() {
  const { t } = useTranslation('schedules');
  const { token } = theme.useToken();
  const { user } = useAuth();
  const tz = companyTimezone(user);
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const confirmDelete = useConfirmDelete();
  const [view, setView] = useState<View>('calendar');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; target: ScheduleTarget }>({ open: false, target: { scheduleId: null } });
  const query = useSearch();
  const [, navigate] = useLocation();
  const term = search.trim().toLowerCase();
  const list = usePagedList<ScheduleRecord>({
    path: '/schedules',
    listKey: 'schedules',
    search: term,
    channel: scheduleChannel,
    entityKey: 'schedule',
    matches: (s) => !term || [s.body, s.contact.name, s.contact.number].some((text) => text.toLowerCase().includes(term)),
    compare: byNewestSendAt,
  });

  // ?contactId= opens the add dialog once; the address drops it so a reload does not open it again.
  useEffect(() => {
    const contactId = Number(new URLSearchParams(query).get('contactId'));
    if (!Number.isInteger(contactId) || contactId <= 0) return;
    setEditing({ open: true, target: { scheduleId: null, contactId } });
    navigate('/schedules', { replace: true });
  }, [query, navigate]);

  const open = (target: ScheduleTarget) => setEditing({ open: true, target });
  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const labelValues = (s: ScheduleRecord) => ({ name: s.contact.name, time: zonedText(s.sendAt, tz) });
  const actions: ScheduleActions = {
    onEdit: (s) => open({ scheduleId: s.id }),
    onDelete: (s) =>
      mayChange(s, user)
        ? () =>
            confirmDelete({
              name: `${s.contact.name} (${zonedText(s.sendAt, tz)})`,
              content: t('deleteMessage'),
              remove: () => api.delete(`/schedules/${s.id}`),
              errorText: (err) => errorText(err, t),
            })
        : undefined,
    editLabel: (s) => t(s.editable && mayChange(s, user) ? 'editSchedule' : 'viewSchedule', labelValues(s)),
    deleteLabel: (s) => t('deleteSchedule', labelValues(s)),
  };

  const statusTag = (s: ScheduleRecord) => (
    <Tag color={STATUS_COLORS[s.status]} style={{ marginInlineEnd: 0 }}>
      {t(`status.${s.status}`)}
    </Tag>
  );

  const columns: TableColumnsType<ScheduleRecord> = [
    {
      title: t('columns.contact'),
      key: 'contact',
      ellipsis: true,
      render: (_, s) =>
        compact ? (
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Text ellipsis>{s.contact.name}</Typography.Text>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
              {zonedText(s.sendAt, tz)}
            </Typography.Text>
          </Flex>
        ) : (
          s.contact.name
        ),
    },
    ...(compact
      ? []
      : [
          { title: t('columns.body'), dataIndex: 'body', ellipsis: { showTitle: true } },
          { title: t('columns.sendAt'), key: 'sendAt', width: 150, render: (_: unknown, s: ScheduleRecord) => zonedText(s.sendAt, tz) },
        ]),
    { title: t('columns.status'), key: 'status', align: 'center', width: compact ? 104 : 130, render: (_, s) => statusTag(s) },
    ...(compact ? [] : [{ title: t('columns.sentAt'), key: 'sentAt', width: 150, render: (_: unknown, s: ScheduleRecord) => zonedText(s.sentAt, tz) }]),
    actionsColumn(t('columns.actions'), compact ? 88 : 110, (s) => (
      <RowActions editLabel={actions.editLabel(s)} onEdit={() => actions.onEdit(s)} deleteLabel={actions.deleteLabel(s)} onDelete={actions.onDelete(s)} />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader
        title={t('title')}
        search={view === 'list' ? { value: search, onChange: setSearch, placeholder: t('searchPlaceholder') } : undefined}
        add={{ label: t('add'), shortLabel: t('addShort'), onClick: () => open({ scheduleId: null }) }}
      />
      <CompanyZoneNote />
      <Tabs
        activeKey={view}
        onChange={(key) => setView(key as View)}
        items={[
          { key: 'calendar', label: t('calendar'), children: <SchedulesCalendar tz={tz} compact={compact} onAdd={(day) => open({ scheduleId: null, day })} actions={actions} /> },
          {
            key: 'list',
            label: t('list'),
            children: (
              <InfiniteTable<ScheduleRecord>
                columns={columns}
                items={list.items}
                loading={list.loading}
                compact={compact}
                paging={{ hasMore: list.hasMore, loadMore: list.loadMore }}
                testId="schedules-table"
              />
            ),
          },
        ]}
      />
      <ScheduleModal open={editing.open} target={editing.target} onClose={close} />
    </Flex>
  );
}
