import { useEffect, useState } from 'react';
import { App, Button, Flex, Grid, Input, Popconfirm, Space, Tag, theme, type TableColumnsType } from 'antd';
import { CheckOutlined, QrcodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { actionsColumn, api, errorText, formatDate, InfiniteTable, ListHeader, useApiQuery, useAuth, useCompanyClock, usePagedList } from 'atende/web';
import { brl, invoiceState, type BillingStatus, type InvoiceRecord, type InvoiceState } from './invoice-record';
import { CardBilling } from './card-billing';
import { PixModal } from './pix-modal';

const STATE_COLORS: Record<InvoiceState, string> = { paid: 'success', overdue: 'error', open: 'processing' };

/**
 * A paid invoice moved the company's due date: say until when, as the spec's payment toast does,
 * and keep the session's date (the top bar's 'active until') in step.
 */
function usePaymentToasts(onPaid: () => void) {
  const { t } = useTranslation('billing');
  const { user, realtime, updateUser } = useAuth();
  const { message } = App.useApp();
  useEffect(() => {
    if (!user) return;
    return realtime.on(`company-${user.companyId}-payment`, (data) => {
      const frame = data as { action: string; company?: { dueDate: string | null } };
      if (frame.action !== 'CONCLUIDA') return;
      const dueDate = frame.company?.dueDate ?? null;
      void message.success(t('renewed', { date: formatDate(dueDate) }));
      updateUser({ ...user, company: { ...user.company, dueDate } });
      onPaid();
    });
  }, [user, realtime, message, t, onPaid, updateUser]);
}

/**
 * /financeiro: the company's invoices (every company's for super users), with the Pix of an open
 * one; super users mark an invoice paid once the Pix has arrived (manual mode).
 */
export default function InvoicesPage() {
  const { t } = useTranslation('billing');
  const { user } = useAuth();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const clock = useCompanyClock();
  const compact = !Grid.useBreakpoint().sm;
  const [search, setSearch] = useState('');
  const [pixOf, setPixOf] = useState<number | null>(null);
  const [paying, setPaying] = useState<number | null>(null);
  const status = useApiQuery<BillingStatus>('/billing/status');
  const list = usePagedList<InvoiceRecord>({ path: '/invoices/all', listKey: 'invoices', search: search.trim().toLowerCase() });
  usePaymentToasts(list.reload);
  const isSuper = user?.super === true;
  const today = clock.at().format('YYYY-MM-DD');

  const markPaid = async (invoice: InvoiceRecord) => {
    setPaying(invoice.id);
    try {
      await api.post(`/invoices/${invoice.id}/pay`);
      void message.success(t('markedPaid'));
      list.reload();
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setPaying(null);
    }
  };

  const columns: TableColumnsType<InvoiceRecord> = [
    ...(isSuper ? [{ title: t('columns.company'), dataIndex: 'companyName', ellipsis: true }] : []),
    { title: t('columns.detail'), dataIndex: 'detail', ellipsis: true },
    { title: t('columns.value'), key: 'value', align: 'right', render: (_, i) => brl.format(i.value) },
    { title: t('columns.dueDate'), key: 'dueDate', render: (_, i) => formatDate(i.dueDate) },
    {
      title: t('columns.status'),
      key: 'status',
      render: (_, i) => {
        const state = invoiceState(i, today);
        return (
          <Tag color={STATE_COLORS[state]} data-testid={`invoice-state-${i.id}`} data-state={state}>
            {t(`state.${state}`)}
          </Tag>
        );
      },
    },
    actionsColumn(t('columns.actions'), compact ? 120 : isSuper ? 300 : 160, (i) =>
      i.status === 'paid' ? (
        <Button size="small" disabled>
          {t('paidButton')}
        </Button>
      ) : (
        <Space size={4} wrap>
          {status.data?.pix ? (
            <Button size="small" type="primary" icon={<QrcodeOutlined />} onClick={() => setPixOf(i.id)} data-testid={`pay-pix-${i.id}`}>
              {t('payPix')}
            </Button>
          ) : null}
          {isSuper ? (
            <Popconfirm
              title={t('markPaidConfirm', { company: i.companyName, value: brl.format(i.value) })}
              okText={t('markPaid')}
              cancelText={t('cancel')}
              onConfirm={() => void markPaid(i)}
            >
              <Button size="small" icon={<CheckOutlined />} loading={paying === i.id} data-testid={`mark-paid-${i.id}`}>
                {t('markPaid')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    ),
  ];

  const title = isSuper ? t('titleAll') : t('title', { name: user?.company.name ?? '' });
  const searchBox = { value: search, onChange: setSearch, placeholder: t('searchPlaceholder') };
  const table = (
    <>
      <InfiniteTable<InvoiceRecord>
        columns={columns}
        items={list.items}
        loading={list.loading}
        compact={compact}
        emptyText={t('empty')}
        paging={{ hasMore: list.hasMore, loadMore: list.loadMore }}
        rowStyle={(i) => (invoiceState(i, today) === 'overdue' ? { background: token.colorErrorBg } : undefined)}
        testId="invoices-table"
      />
      <PixModal invoiceId={pixOf} onClose={() => setPixOf(null)} />
    </>
  );

  // With a card provider a company pays by subscription: its card, payments, subscriptions, invoices and plans.
  if (status.data?.provider === 'asaas' && !isSuper) {
    return (
      <Flex vertical gap={8}>
        <ListHeader title={title} />
        <CardBilling
          invoices={
            <Flex vertical gap={8}>
              <Input.Search allowClear value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('searchPlaceholder')} aria-label={t('searchPlaceholder')} style={{ maxWidth: 320 }} />
              {table}
            </Flex>
          }
        />
      </Flex>
    );
  }

  return (
    <Flex vertical gap={8}>
      <ListHeader title={title} search={searchBox} />
      {table}
    </Flex>
  );
}
