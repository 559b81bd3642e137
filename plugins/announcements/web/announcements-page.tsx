import { useCallback, useEffect, useState } from 'react';
import { Flex, Grid, Tag, Typography, theme, type TableColumnsType } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { actionsColumn, api, errorText, InfiniteTable, ListHeader, RowActions, useAuth, useConfirmDelete, usePagedList } from 'atende/web';
import { AnnouncementModal } from './announcement-modal';
import { ANNOUNCEMENT_CHANNEL, byPriorityThenNewest, JOIN_ANNOUNCEMENTS, PRIORITY_COLORS, type AnnouncementRecord } from './announcement-record';

const channel = () => ANNOUNCEMENT_CHANNEL;

/**
 * /announcements (super users): every announcement, searched and kept live, with the dialog that
 * writes them. What the users see of them is the top bar's pop-over (announcements-bell).
 */
export default function AnnouncementsPage() {
  const { t } = useTranslation('announcements');
  const { token } = theme.useToken();
  const { realtime } = useAuth();
  const compact = !Grid.useBreakpoint().sm;
  const confirmDelete = useConfirmDelete();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; record: AnnouncementRecord | null; opening: number }>({ open: false, record: null, opening: 0 });
  const term = search.trim().toLowerCase();
  const list = usePagedList<AnnouncementRecord>({
    path: '/announcements',
    listKey: 'records',
    search: term,
    channel,
    entityKey: 'announcement',
    matches: (a) => !term || [a.title, a.text].some((text) => text.toLowerCase().includes(term)),
    compare: byPriorityThenNewest,
  });

  // The channel's frames with every change reach super users that joined.
  useEffect(() => realtime.join(JOIN_ANNOUNCEMENTS), [realtime]);

  // Each opening mounts a fresh dialog (its form and pending image start from the record).
  const edit = (record: AnnouncementRecord | null) => setEditing((current) => ({ open: true, record, opening: current.opening + 1 }));
  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const priorityTag = (a: AnnouncementRecord) => (
    <Tag color={PRIORITY_COLORS[a.priority]} style={{ marginInlineEnd: 0 }}>
      {t(`priority.${a.priority}`)}
    </Tag>
  );
  const statusTag = (a: AnnouncementRecord) => (
    <Tag color={a.status ? 'green' : 'default'} style={{ marginInlineEnd: 0 }}>
      {t(a.status ? 'status.active' : 'status.inactive')}
    </Tag>
  );

  const columns: TableColumnsType<AnnouncementRecord> = [
    {
      title: t('columns.title'),
      key: 'title',
      ellipsis: true,
      render: (_, a) =>
        compact ? (
          <Flex vertical gap={4} style={{ minWidth: 0 }}>
            <Typography.Text ellipsis>{a.title}</Typography.Text>
            <Flex gap={4} wrap>
              {priorityTag(a)}
              {statusTag(a)}
              {a.mediaName ? <PictureOutlined style={{ color: token.colorTextSecondary }} aria-label={a.mediaName} /> : null}
            </Flex>
          </Flex>
        ) : (
          a.title
        ),
    },
    ...(compact
      ? []
      : [
          { title: t('columns.priority'), key: 'priority', align: 'center' as const, width: 120, render: (_: unknown, a: AnnouncementRecord) => priorityTag(a) },
          { title: t('columns.mediaName'), key: 'mediaName', ellipsis: { showTitle: true }, render: (_: unknown, a: AnnouncementRecord) => a.mediaName ?? '' },
          { title: t('columns.status'), key: 'status', align: 'center' as const, width: 110, render: (_: unknown, a: AnnouncementRecord) => statusTag(a) },
        ]),
    actionsColumn(t('columns.actions'), compact ? 88 : 110, (a) => (
      <RowActions
        editLabel={t('editAnnouncement', { title: a.title })}
        onEdit={() => edit(a)}
        deleteLabel={t('deleteAnnouncement', { title: a.title })}
        onDelete={() =>
          confirmDelete({
            name: a.title,
            content: t('deleteMessage'),
            remove: () => api.delete(`/announcements/${a.id}`),
            errorText: (err) => errorText(err, t),
          })
        }
      />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, placeholder: t('searchPlaceholder') }}
        add={{ label: t('add'), shortLabel: t('addShort'), onClick: () => edit(null) }}
      />
      <InfiniteTable<AnnouncementRecord>
        columns={columns}
        items={list.items}
        loading={list.loading}
        compact={compact}
        emptyText={t('empty')}
        paging={{ hasMore: list.hasMore, loadMore: list.loadMore }}
        testId="announcements-table"
      />
      <AnnouncementModal key={editing.opening} open={editing.open} record={editing.record} onClose={close} />
    </Flex>
  );
}
