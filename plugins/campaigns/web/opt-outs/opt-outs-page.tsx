import { useCallback, useEffect, useState } from 'react';
import { App, Button, Flex, Grid, Typography, type TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  actionsColumn,
  api,
  companyTimezone,
  downloadMedia,
  errorText,
  InfiniteTable,
  ListHeader,
  RowActions,
  useAuth,
  useConfirmDelete,
  usePagedList,
  zonedText,
} from 'atende/web';
import type { OptOutView } from '../../opt-outs/opt-out.contract';
import { OptOutModal } from './opt-out-modal';

const optOutChannel = (companyId: number) => `company-${companyId}-campaignOptOut`;
const newestFirst = (a: OptOutView, b: OptOutView) => b.id - a.id;

/**
 * /campaign-opt-outs (admins): the numbers that asked for no more campaigns, newest first,
 * searched by number or word, kept live; an admin adds or removes a number and exports the list.
 */
export default function OptOutsPage() {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const tz = companyTimezone(user);
  const compact = !Grid.useBreakpoint().sm;
  const confirmDelete = useConfirmDelete();
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const [exporting, setExporting] = useState(false);
  const term = search.trim().toLowerCase();
  // The list's frames go to the admins who joined its room.
  useEffect(() => realtime.join('joinCampaignOptOuts'), [realtime]);
  const list = usePagedList<OptOutView>({
    path: '/campaign-opt-outs',
    listKey: 'records',
    search: term,
    channel: optOutChannel,
    entityKey: 'record',
    matches: (o) => !term || o.number.includes(term.replace(/\D/g, '') || term) || (o.word ?? '').toLowerCase().includes(term),
    compare: newestFirst,
  });

  const close = useCallback(() => setAdding(false), []);
  const remove = (o: OptOutView) =>
    confirmDelete({ name: o.number, content: t('optOuts.deleteMessage'), remove: () => api.delete(`/campaign-opt-outs/${o.id}`), errorText: (err) => errorText(err, t) });
  const exportCsv = () => {
    setExporting(true);
    downloadMedia('/api/campaign-opt-outs/export', t('optOuts.exportFile'))
      .catch((err: unknown) => void message.error(errorText(err, t)))
      .finally(() => setExporting(false));
  };

  const origin = (o: OptOutView) => (o.word ? `${o.word}${o.campaign ? ` · ${o.campaign.name}` : ''}` : t('optOuts.byHand'));
  const columns: TableColumnsType<OptOutView> = [
    {
      title: t('optOuts.columns.number'),
      key: 'number',
      render: (_, o) => (
        <Flex vertical>
          <Typography.Text copyable={{ text: o.number }}>{o.number}</Typography.Text>
          {compact ? <Typography.Text type="secondary">{origin(o)}</Typography.Text> : null}
        </Flex>
      ),
    },
    ...(compact
      ? []
      : [
          { title: t('optOuts.columns.word'), key: 'word', width: 210, render: (_: unknown, o: OptOutView) => o.word ?? <Typography.Text type="secondary">{t('optOuts.byHand')}</Typography.Text> },
          { title: t('optOuts.columns.campaign'), key: 'campaign', ellipsis: true, render: (_: unknown, o: OptOutView) => o.campaign?.name ?? '' },
          { title: t('optOuts.columns.createdAt'), key: 'createdAt', width: 160, render: (_: unknown, o: OptOutView) => zonedText(o.createdAt, tz) },
        ]),
    actionsColumn(t('optOuts.columns.actions'), 90, (o) => (
      <RowActions size="small" deleteLabel={t('optOuts.delete', { number: o.number })} onDelete={() => remove(o)} />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader
        title={t('optOuts.title')}
        search={{ value: search, onChange: setSearch, placeholder: t('optOuts.searchPlaceholder') }}
        extra={
          <Button icon={<DownloadOutlined />} onClick={exportCsv} loading={exporting}>
            {t('optOuts.export')}
          </Button>
        }
        add={{ label: t('optOuts.add'), shortLabel: t('optOuts.addShort'), onClick: () => setAdding(true) }}
      />
      <Typography.Text type="secondary">{t('optOuts.hint')}</Typography.Text>
      <InfiniteTable<OptOutView>
        columns={columns}
        items={list.items}
        loading={list.loading}
        compact={compact}
        emptyText={t('optOuts.empty')}
        paging={{ hasMore: list.hasMore, loadMore: list.loadMore }}
        testId="opt-outs-table"
      />
      <OptOutModal open={adding} onClose={close} />
    </Flex>
  );
}
