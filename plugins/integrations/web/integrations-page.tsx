import { useCallback, useState } from 'react';
import { App, Flex, Grid, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { actionsColumn, api, errorText, formatDate, InfiniteTable, ListHeader, RowActions, useConfirmDelete } from 'atende/web';
import type { IntegrationDeleted } from '../integration.contract';
import { IntegrationModal } from './integration-modal';
import type { IntegrationRecord } from './integration-record';
import { TYPE_LABELS, TypeLogo } from './type-logo';
import { useIntegrations } from './use-integrations';

/** /queue-integration (admins, plan flag useIntegrations): type logo, id, name and actions, searched, paged and kept live. */
export default function IntegrationsPage() {
  const { t } = useTranslation('integrations');
  const { message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const confirmDelete = useConfirmDelete();
  const [search, setSearch] = useState('');
  const list = useIntegrations(search);
  const [editing, setEditing] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const remove = (i: IntegrationRecord) =>
    confirmDelete({
      name: i.name,
      content: t('deleteMessage'),
      remove: async () => {
        await api.delete<IntegrationDeleted>(`/queueIntegration/${i.id}`);
        void message.info(t('deleted'));
      },
      errorText: (err) => errorText(err, t),
    });

  const failure = (i: IntegrationRecord) =>
    i.lastError ? (
      <Tooltip title={t('lastError', { when: i.lastErrorAt ? formatDate(i.lastErrorAt) : '', error: i.lastError })}>
        <Tag icon={<WarningOutlined />} color="warning" data-testid="integration-error" tabIndex={0}>
          {t('failed')}
        </Tag>
      </Tooltip>
    ) : null;

  const columns: TableColumnsType<IntegrationRecord> = [
    { title: t('columns.type'), key: 'type', width: 72, align: 'center', render: (_, i) => <TypeLogo type={i.type} /> },
    ...(compact ? [] : [{ title: t('columns.id'), dataIndex: 'id', width: 80, align: 'center' as const }]),
    {
      title: t('columns.name'),
      key: 'name',
      ellipsis: true,
      render: (_, i) => (
        <Flex vertical style={{ minWidth: 0 }}>
          <Flex align="center" gap={6} style={{ minWidth: 0 }}>
            <Typography.Text ellipsis>{i.name}</Typography.Text>
            {failure(i)}
          </Flex>
          <Typography.Text type="secondary" ellipsis>
            {TYPE_LABELS[i.type]}
            {i.type === 'typebot' && i.typebotSlug ? ` · ${i.typebotSlug}` : ''}
          </Typography.Text>
        </Flex>
      ),
    },
    actionsColumn(t('columns.actions'), compact ? 88 : 110, (i) => (
      <RowActions editLabel={t('edit', { name: i.name })} onEdit={() => setEditing({ open: true, id: i.id })} deleteLabel={t('delete', { name: i.name })} onDelete={() => remove(i)} />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, placeholder: t('searchPlaceholder') }}
        add={{ label: t('add'), shortLabel: t('addShort'), onClick: () => setEditing({ open: true, id: null }) }}
      />
      <InfiniteTable<IntegrationRecord>
        columns={columns}
        items={list.items}
        loading={list.loading}
        compact={compact}
        emptyText={t('empty')}
        paging={{ hasMore: list.hasMore, loadMore: list.loadMore }}
        testId="integrations-table"
      />
      <IntegrationModal open={editing.open} integrationId={editing.id} onClose={close} />
    </Flex>
  );
}
