import { useCallback, useState } from 'react';
import { Flex, Grid, Tag, Typography, theme, type TableColumnsType } from 'antd';
import { PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { useAuth } from '../../auth/auth-provider';
import { InfiniteTable } from '../../components/infinite-table';
import { ListHeader } from '../../components/list-header';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { useConfirmDelete } from '../../components/use-confirm-delete';
import { usePagedList } from '../../hooks/use-paged-list';
import { registerTranslations } from '../../i18n';
import { QuickMessageModal, type QuickMessageRecord } from './quick-message-modal';
import { quickMessagesTranslations } from './quick-messages.i18n';

registerTranslations('quickMessages', quickMessagesTranslations);

/** The server orders replies by shortcode, then id: live records take the same place. */
const byShortcode = (a: QuickMessageRecord, b: QuickMessageRecord) => a.shortcode.localeCompare(b.shortcode) || a.id - b.id;

/**
 * /quick-messages (every user): the user's own replies and the company's shared ones (admins see
 * all), searched and kept live. Users change their own; admins any.
 */
export default function QuickMessagesPage() {
  const { t } = useTranslation('quickMessages');
  const { token } = theme.useToken();
  const confirmDelete = useConfirmDelete();
  const { user } = useAuth();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const isAdmin = Boolean(user && (user.profile === 'admin' || user.super));
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const term = search.trim().toLowerCase();
  const { items, loading, hasMore, loadMore } = usePagedList<QuickMessageRecord>({
    path: '/quick-messages',
    listKey: 'records',
    search: term,
    channel: 'quickmessage',
    entityKey: 'quickMessage',
    matches: (r) => !term || r.shortcode.toLowerCase().includes(term) || r.message.toLowerCase().includes(term),
    compare: byShortcode,
  });

  const closeModal = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);
  const mayChange = (record: QuickMessageRecord) => isAdmin || record.userId === user?.id;

  const remove = (record: QuickMessageRecord) =>
    confirmDelete({
      name: record.shortcode,
      content: t('deleteMessage'),
      remove: () => api.delete(`/quick-messages/${record.id}`),
      errorText: (err) => errorText(err, t),
    });

  const columns: TableColumnsType<QuickMessageRecord> = [
    {
      title: t('columns.shortcode'),
      dataIndex: 'shortcode',
      render: (shortcode: string, record) => (
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          <Typography.Text ellipsis style={{ minWidth: 0 }}>
            {shortcode}
          </Typography.Text>
          {record.geral ? (
            <Tag color="blue" bordered={false} style={{ marginInlineEnd: 0 }}>
              {t('shared')}
            </Tag>
          ) : null}
        </Flex>
      ),
    },
    {
      title: t('columns.attachment'),
      dataIndex: 'mediaName',
      render: (name: string | null) =>
        name ? (
          <Typography.Text ellipsis style={{ maxWidth: '100%' }}>
            <PaperClipOutlined style={{ color: token.colorTextTertiary, marginInlineEnd: 6 }} />
            {name}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('noAttachment')}</Typography.Text>
        ),
    },
    actionsColumn(t('columns.actions'), compact ? 88 : 110, (record) =>
      mayChange(record) ? (
        <RowActions
          editLabel={t('editReply', { name: record.shortcode })}
          onEdit={() => setEditing({ open: true, id: record.id })}
          deleteLabel={t('deleteReply', { name: record.shortcode })}
          onDelete={() => remove(record)}
        />
      ) : null,
    ),
  ];

  return (
    <Flex vertical gap={16}>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, placeholder: t('searchPlaceholder') }}
        add={{ label: t('add'), onClick: () => setEditing({ open: true, id: null }) }}
      />
      <InfiniteTable<QuickMessageRecord>
        columns={columns}
        items={items}
        loading={loading}
        compact={compact}
        paging={{ hasMore, loadMore }}
        testId="quick-messages-table"
      />
      <QuickMessageModal open={editing.open} quickMessageId={editing.id} onClose={closeModal} />
    </Flex>
  );
}
