import { useCallback, useState } from 'react';
import { Flex, Grid, Typography, theme, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useAuth } from '../../auth/auth-provider';
import { InfiniteTable } from '../../components/infinite-table';
import { ListHeader } from '../../components/list-header';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { useConfirmDelete } from '../../components/use-confirm-delete';
import { registerTranslations } from '../../i18n';
import { useCompanySettings } from '../settings/use-company-settings';
import { useLiveRecords } from '../../hooks/use-live-records';
import { errorText } from '../../api/errors';
import { QueueModal } from './queue-modal';
import { byQueueOrder, type Queue } from './queues.types';
import { queuesTranslations } from './queues.i18n';

registerTranslations('queues', queuesTranslations);

/** The queue's own colour, shown as data: a round swatch and its code. */
function ColorSwatch({ color, compact }: { color: string; compact: boolean }) {
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={8}>
      <span
        aria-hidden
        style={{ width: 18, height: 18, flexShrink: 0, borderRadius: '50%', background: color, border: `1px solid ${token.colorBorder}` }}
      />
      {compact ? null : <Typography.Text code>{color}</Typography.Text>}
    </Flex>
  );
}

/** /queues (admins): the company's queues with their chatbot menus, kept live. */
export default function QueuesPage() {
  const { t } = useTranslation('queues');
  const confirmDelete = useConfirmDelete();
  const { user } = useAuth();
  const settings = useCompanySettings();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const [editing, setEditing] = useState<{ open: boolean; queueId: number | null }>({ open: false, queueId: null });
  const { items, loading, upsert, drop } = useLiveRecords<Queue>({
    path: '/queue',
    channel: `company-${user?.companyId ?? 0}-queue`,
    entityKey: 'queue',
    compare: byQueueOrder,
  });

  const closeModal = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const remove = (queue: Queue) =>
    confirmDelete({
      name: queue.name,
      content: t('deleteMessage'),
      remove: async () => {
        await api.delete(`/queue/${queue.id}`);
        drop(queue.id);
      },
      errorText: (err) => errorText(err, t),
    });

  const columns: TableColumnsType<Queue> = [
    ...(compact ? [] : [{ title: t('columns.id'), dataIndex: 'id', width: 72 }]),
    {
      title: t('columns.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (name: string, queue) => (
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          {compact ? <ColorSwatch color={queue.color} compact /> : null}
          <Typography.Text ellipsis>{name}</Typography.Text>
        </Flex>
      ),
    },
    ...(compact ? [] : [{ title: t('columns.color'), dataIndex: 'color', width: 140, render: (color: string) => <ColorSwatch color={color} compact={false} /> }]),
    {
      title: t('columns.order'),
      dataIndex: 'orderQueue',
      width: compact ? 72 : 96,
      align: 'center',
      render: (order: number | null) => (order === null ? <Typography.Text type="secondary">{t('noOrder')}</Typography.Text> : order),
    },
    ...(compact
      ? []
      : [
          {
            title: t('columns.greeting'),
            dataIndex: 'greetingMessage',
            ellipsis: { showTitle: true },
            render: (greeting: string) => <Typography.Text type="secondary">{greeting}</Typography.Text>,
          },
        ]),
    actionsColumn(t('columns.actions'), compact ? 88 : 100, (queue) => (
      <RowActions
        editLabel={t('editQueue', { name: queue.name })}
        onEdit={() => setEditing({ open: true, queueId: queue.id })}
        deleteLabel={t('deleteQueue', { name: queue.name })}
        onDelete={() => remove(queue)}
      />
    )),
  ];

  return (
    <Flex vertical gap={16}>
      <ListHeader title={t('title')} add={{ label: t('add'), onClick: () => setEditing({ open: true, queueId: null }) }} />
      <InfiniteTable<Queue> columns={columns} items={items} loading={loading} compact={compact} testId="queues-table" />
      <QueueModal
        open={editing.open}
        queueId={editing.queueId}
        queueSchedules={settings.values.scheduleType === 'queue'}
        queues={items}
        onClose={closeModal}
        onSaved={upsert}
      />
    </Flex>
  );
}
