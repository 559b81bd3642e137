import { useCallback, useState } from 'react';
import { App, Flex, Grid, Tag, Typography, theme, type TableColumnsType } from 'antd';
import { BarChartOutlined, PauseCircleOutlined, RedoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  actionsColumn,
  api,
  companyTimezone,
  errorText,
  InfiniteTable,
  isAdmin,
  ListHeader,
  RowActions,
  useAuth,
  useGateContext,
  useConfirmDelete,
  usePagedList,
  zonedText,
  type RowAction,
} from 'atende/web';
import { CampaignModal } from './campaign-modal';
import { campaignChannel, newestFirst, reportHref, type CampaignRecord, type CampaignStatusValue } from './campaign-record';

const STATUS_COLOR: Record<CampaignStatusValue, string> = {
  INATIVA: 'default',
  PROGRAMADA: 'blue',
  EM_ANDAMENTO: 'processing',
  CANCELADA: 'error',
  FINALIZADA: 'success',
};

/**
 * /campaigns: the company's campaigns, newest first, searched, paged as the list scrolls and kept
 * live on company-{id}-campaign. Stop shows for a running campaign, restart for a cancelled one;
 * report, edit (read-only when the campaign may no longer change) and delete for every one.
 */
export default function CampaignsPage() {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const { user } = useAuth();
  const gates = useGateContext();
  const admin = gates ? isAdmin(gates) : false;
  const tz = companyTimezone(user);
  const compact = !Grid.useBreakpoint().md;
  const confirmDelete = useConfirmDelete();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const term = search.trim().toLowerCase();
  const list = usePagedList<CampaignRecord>({
    path: '/campaigns',
    listKey: 'records',
    search: term,
    channel: campaignChannel,
    entityKey: 'record',
    matches: (c) => !term || c.name.toLowerCase().includes(term),
    compare: newestFirst,
  });

  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);
  // The dispatch answers the new status on the campaign's channel; a refusal is its message.
  const command = (c: CampaignRecord, action: 'cancel' | 'restart', doneKey: string) => {
    api.post(`/campaigns/${c.id}/${action}`).then(
      () => void message.success(t(doneKey)),
      (err: unknown) => void message.error(errorText(err, t)),
    );
  };
  const remove = (c: CampaignRecord) =>
    confirmDelete({ name: c.name, content: t('campaigns.deleteMessage'), remove: () => api.delete(`/campaigns/${c.id}`), errorText: (err) => errorText(err, t) });

  const rowActions = (c: CampaignRecord): RowAction[] => [
    ...(admin && c.status === 'EM_ANDAMENTO'
      ? [{ key: 'stop', label: t('campaigns.stop', { name: c.name }), icon: <PauseCircleOutlined />, danger: true, onClick: () => command(c, 'cancel', 'campaigns.stopped') }]
      : []),
    ...(admin && c.status === 'CANCELADA'
      ? [{ key: 'restart', label: t('campaigns.restart', { name: c.name }), icon: <RedoOutlined />, onClick: () => command(c, 'restart', 'campaigns.restarted') }]
      : []),
    { key: 'report', label: t('campaigns.report', { name: c.name }), icon: <BarChartOutlined />, href: reportHref(c.id) },
  ];

  const status = (c: CampaignRecord) => <Tag color={STATUS_COLOR[c.status]}>{t(`campaigns.status.${c.status}`)}</Tag>;
  const secondary = (text: string) => <Typography.Text type="secondary">{text}</Typography.Text>;
  const scheduled = (c: CampaignRecord) => (c.scheduledAt ? zonedText(c.scheduledAt, tz) : secondary(t('campaigns.noSchedule')));

  const columns: TableColumnsType<CampaignRecord> = [
    {
      title: t('campaigns.columns.name'),
      key: 'name',
      ellipsis: true,
      render: (_, c) => (
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text ellipsis strong>
            {c.name}
          </Typography.Text>
          {compact ? (
            <Flex gap={4} wrap align="center" style={{ fontSize: token.fontSizeSM }}>
              {status(c)}
              {scheduled(c)}
            </Flex>
          ) : null}
        </Flex>
      ),
    },
    ...(compact
      ? []
      : [
          { title: t('campaigns.columns.status'), key: 'status', width: 120, render: (_: unknown, c: CampaignRecord) => status(c) },
          { title: t('campaigns.columns.contactList'), key: 'contactList', ellipsis: true, render: (_: unknown, c: CampaignRecord) => c.contactList?.name ?? secondary(t('campaigns.noList')) },
          { title: t('campaigns.columns.whatsapp'), key: 'whatsapp', ellipsis: true, render: (_: unknown, c: CampaignRecord) => c.whatsapp?.name ?? secondary(t('campaigns.noWhatsapp')) },
          { title: t('campaigns.columns.scheduledAt'), key: 'scheduledAt', width: 140, render: (_: unknown, c: CampaignRecord) => scheduled(c) },
          {
            title: t('campaigns.columns.completedAt'),
            key: 'completedAt',
            width: 130,
            render: (_: unknown, c: CampaignRecord) => (c.completedAt ? zonedText(c.completedAt, tz) : secondary(t('campaigns.notCompleted'))),
          },
          {
            title: t('campaigns.columns.confirmation'),
            key: 'confirmation',
            width: 110,
            render: (_: unknown, c: CampaignRecord) => t(c.confirmation ? 'campaigns.enabled' : 'campaigns.disabled'),
          },
        ]),
    actionsColumn(t('campaigns.columns.actions'), compact ? 120 : 150, (c) => (
      <RowActions
        size="small"
        actions={rowActions(c)}
        editLabel={t('campaigns.edit', { name: c.name })}
        onEdit={() => setEditing({ open: true, id: c.id })}
        {...(admin && { deleteLabel: t('campaigns.delete', { name: c.name }), onDelete: () => remove(c) })}
      />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader
        title={t('campaigns.title')}
        search={{ value: search, onChange: setSearch, placeholder: t('campaigns.searchPlaceholder') }}
        {...(admin && { add: { label: t('campaigns.add'), shortLabel: t('campaigns.addShort'), onClick: () => setEditing({ open: true, id: null }) } })}
      />
      <InfiniteTable<CampaignRecord>
        columns={columns}
        items={list.items}
        loading={list.loading}
        compact={compact}
        emptyText={t('campaigns.empty')}
        paging={{ hasMore: list.hasMore, loadMore: list.loadMore }}
        testId="campaigns-table"
      />
      <CampaignModal open={editing.open} campaignId={editing.id} readOnly={!admin} onClose={close} />
    </Flex>
  );
}
