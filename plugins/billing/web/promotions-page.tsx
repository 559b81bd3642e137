import { useCallback, useState } from 'react';
import { Flex, Grid, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { actionsColumn, api, errorText, formatDate, InfiniteTable, ListHeader, RowActions, useApiQuery, useCompanyClock, useConfirmDelete } from 'atende/web';
import { PromotionModal } from './promotion-modal';
import { promotionActive, type PromotionRecord } from './promotion-record';

/** /promotions (super users): the promotion codes new companies may use at signup. */
export default function PromotionsPage() {
  const { t } = useTranslation('billing');
  const compact = !Grid.useBreakpoint().sm;
  const confirmDelete = useConfirmDelete();
  const today = useCompanyClock().at().format('YYYY-MM-DD');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; record: PromotionRecord | null; opening: number }>({ open: false, record: null, opening: 0 });
  const list = useApiQuery<PromotionRecord[]>('/promotions', { failureText: (err) => errorText(err, t) });
  const term = search.trim().toUpperCase();
  const items = (list.data ?? []).filter((p) => !term || p.code.includes(term));
  const reload = useCallback(() => void list.refetch(), [list]);

  const edit = (record: PromotionRecord | null) => setEditing((current) => ({ open: true, record, opening: current.opening + 1 }));
  const close = useCallback(() => setEditing((current) => ({ ...current, open: false })), []);

  const columns: TableColumnsType<PromotionRecord> = [
    { title: t('promotions.code'), dataIndex: 'code', render: (code: string) => <strong>{code}</strong> },
    {
      title: t('promotions.benefit'),
      key: 'benefit',
      render: (_, p) => (p.kind === 'discount' ? t('promotions.discountOf', { percent: p.amount }) : t('promotions.trialDaysOf', { count: p.amount })),
    },
    ...(compact
      ? []
      : [
          { title: t('promotions.expiresAt'), key: 'expiresAt', render: (_: unknown, p: PromotionRecord) => (p.expiresAt ? formatDate(p.expiresAt) : t('promotions.noExpiry')) },
          { title: t('promotions.usesLeft'), dataIndex: 'usesLeft', align: 'right' as const, width: 120 },
        ]),
    {
      title: t('columns.status'),
      key: 'status',
      width: 110,
      render: (_, p) => {
        const active = promotionActive(p, today);
        return (
          <Tag color={active ? 'green' : 'default'} data-testid={`promotion-state-${p.code}`}>
            {t(active ? 'promotions.active' : 'promotions.inactive')}
          </Tag>
        );
      },
    },
    actionsColumn(t('columns.actions'), compact ? 88 : 110, (p) => (
      <RowActions
        editLabel={t('promotions.edit', { code: p.code })}
        onEdit={() => edit(p)}
        deleteLabel={t('promotions.delete', { code: p.code })}
        onDelete={() =>
          confirmDelete({
            name: p.code,
            content: t('promotions.deleteMessage'),
            remove: async () => {
              await api.delete(`/promotions/${p.id}`);
              reload();
            },
            errorText: (err) => errorText(err, t),
          })
        }
      />
    )),
  ];

  return (
    <Flex vertical gap={8}>
      <ListHeader
        title={t('promotions.title')}
        search={{ value: search, onChange: setSearch, placeholder: t('searchPlaceholder') }}
        add={{ label: t('promotions.add'), shortLabel: t('promotions.addShort'), onClick: () => edit(null) }}
      />
      <InfiniteTable<PromotionRecord> columns={columns} items={items} loading={list.isPending} compact={compact} emptyText={t('promotions.empty')} testId="promotions-table" />
      <PromotionModal key={editing.opening} open={editing.open} record={editing.record} onClose={close} onSaved={reload} />
    </Flex>
  );
}
