import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Col, Flex, Form, Input, Popconfirm, Row, Space, Table, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, CardFields, api, cardOf, errorText, formatDate, maskDocument, useApiQuery, useAuth, useInfiniteQuery, useQueryClient, type CardFieldValues } from 'atende/web';
import type { CustomerView, PaymentView, SubscriptionView } from '../subscriptions/subscription-view';
import { brl } from './invoice-record';

const SEGMENT = 'asaas';

interface PublicPlan {
  id: number;
  name: string;
  value: number | string;
  users: number;
  connections: number;
  queues: number;
}

/** Each description the server gave (a card refused, a field wrong), else the error's text: one toast each. */
function descriptions(err: unknown, fallback: string): string[] {
  const errors = err instanceof ApiError ? (err.details as { errors?: { description?: string }[] } | undefined)?.errors : undefined;
  const listed = (errors ?? []).map((e) => e.description).filter((d): d is string => Boolean(d));
  return listed.length > 0 ? listed : [fallback];
}

/**
 * /financeiro with a payment provider (spec: Billing): Cartão de Crédito while the company has no
 * subscription (its customer, then the card), then its payments, subscriptions, invoices and plans.
 */
export function CardBilling({ invoices }: { invoices: ReactNode }) {
  const { t } = useTranslation('billing');
  const { user } = useAuth();
  const companyId = user!.company.id;
  const customer = useApiQuery<CustomerView>(`/${SEGMENT}/companhia/${companyId}`);
  const subscriptions = useApiQuery<{ subscriptions: SubscriptionView[] }>(`/${SEGMENT}/companhia/load/all/company/${SEGMENT}/by/${companyId}`);
  const active = subscriptions.data?.subscriptions.find((s) => s.status === 'active');
  const [tab, setTab] = useState<string | undefined>(undefined);
  const { refetch: refetchCustomer } = customer;
  const { refetch: refetchSubscriptions } = subscriptions;
  const reload = useCallback(() => {
    void refetchCustomer();
    void refetchSubscriptions();
  }, [refetchCustomer, refetchSubscriptions]);
  useSubscriptionUpdates(companyId, reload);

  if (customer.isPending || subscriptions.isPending) return null;
  const hasCustomer = Boolean(customer.data?.customerId);
  const current = tab ?? (active ? 'payments' : 'card');

  return (
    <Flex vertical gap={12}>
      {!active ? (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="billing-warnings">
          {!hasCustomer ? <Alert type="warning" showIcon message={t('cards.noCustomer')} /> : null}
          <Alert type="info" showIcon message={t('cards.noSubscription')} />
        </Space>
      ) : null}
      <Tabs
        activeKey={current === 'card' && active ? 'payments' : current}
        onChange={setTab}
        items={[
          ...(!active
            ? [{ key: 'card', label: t('cards.tabs.card'), children: <CardTab companyId={companyId} customer={customer.data!} onChanged={reload} /> }]
            : []),
          { key: 'payments', label: t('cards.tabs.payments'), disabled: !active, children: active ? <PaymentsTab subscription={active} /> : null },
          { key: 'subscriptions', label: t('cards.tabs.subscriptions'), disabled: !active, children: <SubscriptionsTab companyId={companyId} rows={subscriptions.data?.subscriptions ?? []} onChanged={reload} /> },
          { key: 'invoices', label: t('cards.tabs.invoices'), disabled: !active, children: invoices },
          { key: 'plans', label: t('cards.tabs.plans'), disabled: !active, children: active ? <PlansTab companyId={companyId} subscription={active} onChanged={reload} /> : null },
        ]}
      />
    </Flex>
  );
}

/** A payment arrived (spec §9): say the subscription is being updated, then reload it after 2 s. */
function useSubscriptionUpdates(companyId: number, reload: () => void) {
  const { t } = useTranslation('billing');
  const { realtime } = useAuth();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = realtime.on(`company-${companyId}-payment`, (data) => {
      if ((data as { action?: string }).action !== 'CONCLUIDA') return;
      void message.loading({ content: t('cards.updating'), key: 'subscription-update' });
      clearTimeout(timer);
      timer = setTimeout(() => {
        reload();
        void queryClient.invalidateQueries({ queryKey: ['billing', 'payments'] });
        void message.success({ content: t('cards.updated'), key: 'subscription-update' });
      }, 2000);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [companyId, realtime, message, t, reload, queryClient]);
}

function CardTab({ companyId, customer, onChanged }: { companyId: number; customer: CustomerView; onChanged(): void }) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const [form] = Form.useForm<CardFieldValues>();
  const [document, setDocument] = useState('');
  const [busy, setBusy] = useState(false);

  const createCustomer = async () => {
    setBusy(true);
    try {
      await api.post(`/${SEGMENT}/companhia/create/customer`, { companyId, ...(customer.hasDocument ? {} : { cpfCnpj: document }) });
      void message.success(t('cards.customerCreated'));
      onChanged();
    } catch (err) {
      void message.error(`${t('cards.customerFailed')} ${errorText(err, t)}`);
    } finally {
      setBusy(false);
    }
  };

  const subscribe = async (values: CardFieldValues) => {
    setBusy(true);
    try {
      await api.post(`/${SEGMENT}/companhia/create/subscriptions`, { companyId, creditCard: cardOf(values) });
      void message.success(t('cards.subscribed'));
      form.resetFields();
      onChanged();
    } catch (err) {
      for (const text of descriptions(err, errorText(err, t))) void message.error(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={16} style={{ maxWidth: 560 }}>
      {customer.customerId ? (
        <Typography.Text type="secondary">{t('cards.customerReady')}</Typography.Text>
      ) : (
        <Space wrap>
          {!customer.hasDocument ? (
            <Input placeholder={t('cards.document')} value={document} onChange={(e) => setDocument(maskDocument(e.target.value))} inputMode="numeric" style={{ width: 220 }} data-testid="customer-document" />
          ) : null}
          <Button type="primary" loading={busy} onClick={() => void createCustomer()} data-testid="create-customer">
            {t('cards.createCustomer')}
          </Button>
        </Space>
      )}
      <Card title={t('cards.formTitle')} size="small">
        <Form<CardFieldValues> form={form} layout="vertical" requiredMark={false} disabled={busy || !customer.customerId} onFinish={(v) => void subscribe(v)} data-testid="card-form">
          <CardFields />
          <Button type="primary" htmlType="submit" loading={busy} block data-testid="subscribe">
            {t('cards.subscribe')}
          </Button>
        </Form>
      </Card>
    </Flex>
  );
}

function PaymentsTab({ subscription }: { subscription: SubscriptionView }) {
  const { t } = useTranslation('billing');
  const pages = useInfiniteQuery({
    queryKey: ['billing', 'payments', subscription.id],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => api.post<{ data: PaymentView[]; hasMore: boolean }>(`/${SEGMENT}/companhia/load/payments/to/subscriptions`, { id: subscription.id, offset: pageParam }),
    getNextPageParam: (last, all) => (last.hasMore ? all.reduce((n, page) => n + page.data.length, 0) : undefined),
  });
  const rows = pages.data?.pages.flatMap((p) => p.data) ?? [];
  const columns: TableColumnsType<PaymentView> = [
    { title: t('cards.columns.id'), dataIndex: 'id', ellipsis: true },
    { title: t('cards.columns.value'), key: 'value', align: 'right', render: (_, p) => brl.format(p.value) },
    { title: t('cards.columns.dueDate'), key: 'dueDate', render: (_, p) => formatDate(p.dueDate) },
    { title: t('cards.columns.status'), key: 'status', render: (_, p) => <Tag data-testid={`payment-status-${p.id}`}>{t(`paymentStatus.${p.status}`, { defaultValue: t('paymentStatus.none') })}</Tag> },
  ];
  return (
    <Flex vertical gap={8}>
      <Table<PaymentView> rowKey="id" size="small" columns={columns} dataSource={rows} loading={pages.isPending} pagination={false} locale={{ emptyText: t('cards.noPayments') }} data-testid="payments-table" scroll={{ x: true }} />
      {pages.hasNextPage ? (
        <Button onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
          {t('cards.loadMore')}
        </Button>
      ) : null}
    </Flex>
  );
}

function SubscriptionsTab({ companyId, rows, onChanged }: { companyId: number; rows: SubscriptionView[]; onChanged(): void }) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const remove = async (row: SubscriptionView) => {
    const key = `remove-${row.id}`;
    void message.loading({ content: t('cards.removing'), key, duration: 0 });
    try {
      await api.delete(`/${SEGMENT}/remove/subscriptions/by-id/${row.id}`, { query: { companyId } });
      void message.success({ content: t('cards.removed'), key });
      onChanged();
    } catch (err) {
      void message.error({ content: `${t('cards.changeFailed')}: ${errorText(err, t)}`, key });
    }
  };
  const columns: TableColumnsType<SubscriptionView> = [
    { title: t('cards.columns.plan'), key: 'plan', render: (_, s) => s.planName ?? '' },
    { title: t('cards.columns.value'), key: 'value', align: 'right', render: (_, s) => brl.format(s.value) },
    { title: t('cards.columns.card'), key: 'card', render: (_, s) => (s.cardLast4 ? `${s.cardBrand ?? ''} •••• ${s.cardLast4}` : '') },
    { title: t('cards.columns.createdAt'), key: 'createdAt', render: (_, s) => formatDate(s.createdAt) },
    { title: t('cards.columns.status'), key: 'status', render: (_, s) => <Tag color={s.status === 'active' ? 'success' : 'default'}>{t(`cards.${s.status}`)}</Tag> },
    {
      title: t('cards.columns.actions'),
      key: 'actions',
      render: (_, s) =>
        s.status === 'active' ? (
          <Popconfirm title={t('cards.removeConfirm')} okText={t('cards.remove')} cancelText={t('cards.cancel')} onConfirm={() => void remove(s)}>
            <Button size="small" danger data-testid={`remove-subscription-${s.id}`}>
              {t('cards.remove')}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];
  return <Table<SubscriptionView> rowKey="id" size="small" columns={columns} dataSource={rows} pagination={false} data-testid="subscriptions-table" scroll={{ x: true }} />;
}

function PlansTab({ companyId, subscription, onChanged }: { companyId: number; subscription: SubscriptionView; onChanged(): void }) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const plans = useApiQuery<PublicPlan[]>('/plans/list');
  const [changing, setChanging] = useState<number | null>(null);
  const change = async (plan: PublicPlan) => {
    const key = 'change-plan';
    setChanging(plan.id);
    void message.loading({ content: t('cards.changingPlan'), key, duration: 0 });
    try {
      await api.post(`/${SEGMENT}/change-plan/subscriptions/new-subscriptions/${SEGMENT}`, { companyId, planId: plan.id });
      void message.success({ content: t('cards.planChanged'), key });
      onChanged();
    } catch (err) {
      void message.error({ content: `${t('cards.changeFailed')}: ${errorText(err, t)}`, key });
    } finally {
      setChanging(null);
    }
  };
  return (
    <Row gutter={[12, 12]}>
      {(plans.data ?? [])
        .filter((p) => Number(p.value) > 0)
        .map((plan) => {
          const current = plan.id === subscription.planId;
          return (
            <Col key={plan.id} xs={24} sm={12} lg={8}>
              <Card size="small" title={plan.name} extra={current ? <Tag color="processing">{t('cards.currentPlan')}</Tag> : null} data-testid={`plan-${plan.id}`}>
                <Typography.Title level={4} style={{ marginTop: 0 }}>
                  {t('cards.perMonth', { price: brl.format(Number(plan.value)) })}
                </Typography.Title>
                <Typography.Paragraph type="secondary">{t('cards.planLimits', { users: plan.users, connections: plan.connections, queues: plan.queues })}</Typography.Paragraph>
                <Button block disabled={current} loading={changing === plan.id} onClick={() => void change(plan)}>
                  {t('cards.changePlan')}
                </Button>
              </Card>
            </Col>
          );
        })}
    </Row>
  );
}
