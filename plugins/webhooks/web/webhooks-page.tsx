import { useState } from 'react';
import { Alert, App, Button, Card, Checkbox, Empty, Flex, Form, Input, Modal, Popconfirm, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { KeyOutlined, RedoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  api,
  companyTimezone,
  errorText,
  ListHeader,
  ModalFooter,
  queryKeys,
  RowActions,
  useApiQuery,
  useAuth,
  useConfirmDelete,
  useQuery,
  useQueryClient,
  zonedText,
} from 'atende/web';
import { WEBHOOK_EVENTS, type DeliveryPage, type DeliveryStatus, type DeliveryView, type WebhookView, type WebhookWithSecret } from '../webhooks.contract';

const WEBHOOKS = '/webhooks';
/** The deliveries list follows attempts as they happen. */
const REFRESH_MS = 3000;
const STATUS_COLOR: Record<DeliveryStatus, string> = { pending: 'gold', sent: 'green', failed: 'red' };

interface FormValues {
  url: string;
  events: string[];
  active: boolean;
}

/** /webhooks (admins): the company's endpoints, their secret, and each one's last deliveries with a resend button. */
export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const queryClient = useQueryClient();
  const list = useApiQuery<{ webhooks: WebhookView[] }>(WEBHOOKS, { failureText: (err) => errorText(err, t) });
  const [editing, setEditing] = useState<WebhookView | 'new' | null>(null);
  const [secret, setSecret] = useState<{ webhook: WebhookWithSecret; fresh: boolean } | null>(null);
  const confirmDelete = useConfirmDelete();
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.records(WEBHOOKS) });

  const remove = (webhook: WebhookView) =>
    confirmDelete({
      name: webhook.url,
      content: t('removeWarning'),
      errorText: (err) => errorText(err, t),
      remove: async () => {
        await api.delete(`${WEBHOOKS}/${webhook.id}`);
        await reload();
      },
    });

  return (
    <Flex vertical gap={16}>
      <ListHeader title={t('title')} add={{ label: t('add'), onClick: () => setEditing('new') }} />
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('intro')}
      </Typography.Paragraph>
      {list.data && list.data.webhooks.length === 0 ? <Empty description={t('empty')} /> : null}
      {(list.data?.webhooks ?? []).map((webhook) => (
        <WebhookCard
          key={webhook.id}
          webhook={webhook}
          onEdit={() => setEditing(webhook)}
          onDelete={() => remove(webhook)}
          onSecret={async () => setSecret({ webhook: await api.get<WebhookWithSecret>(`${WEBHOOKS}/${webhook.id}/secret`), fresh: false })}
        />
      ))}
      {editing !== null ? (
        <WebhookModal
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={async (saved) => {
            setEditing(null);
            await reload();
            if ('secret' in saved) setSecret({ webhook: saved, fresh: true });
          }}
        />
      ) : null}
      {secret !== null ? <SecretModal webhook={secret.webhook} fresh={secret.fresh} onClose={() => setSecret(null)} onRotated={(webhook) => setSecret({ webhook, fresh: true })} /> : null}
    </Flex>
  );
}

function WebhookCard({ webhook, onEdit, onDelete, onSecret }: { webhook: WebhookView; onEdit(): void; onDelete(): void; onSecret(): Promise<void> }) {
  const { t } = useTranslation('webhooks');
  const { message } = App.useApp();
  return (
    <Card
      data-testid={`webhook-${webhook.id}`}
      title={
        <Space wrap>
          <Typography.Text strong>{webhook.url}</Typography.Text>
          <Tag color={webhook.active ? 'green' : 'default'}>{webhook.active ? t('active') : t('inactive')}</Tag>
        </Space>
      }
      extra={
        <RowActions
          actions={[{ key: 'secret', label: t('showSecret'), icon: <KeyOutlined />, onClick: () => void onSecret().catch((err: unknown) => void message.error(errorText(err, t))) }]}
          editLabel={t('edit', { url: webhook.url })}
          onEdit={onEdit}
          deleteLabel={t('remove', { url: webhook.url })}
          onDelete={onDelete}
        />
      }
    >
      <Flex vertical gap={12}>
        <Space wrap size={[4, 4]}>
          {webhook.events.map((event) => (
            <Tag key={event}>{t(`eventNames.${event}`)}</Tag>
          ))}
        </Space>
        <Typography.Text strong>{t('deliveries')}</Typography.Text>
        <Deliveries webhookId={webhook.id} />
      </Flex>
    </Card>
  );
}

function Deliveries({ webhookId }: { webhookId: number }) {
  const { t } = useTranslation('webhooks');
  const { message } = App.useApp();
  const { user } = useAuth();
  const zone = companyTimezone(user);
  const queryClient = useQueryClient();
  const path = `${WEBHOOKS}/${webhookId}/deliveries`;
  const page = useQuery({
    queryKey: queryKeys.records(path),
    queryFn: ({ signal }) => api.get<DeliveryPage>(path, undefined, { signal }),
    refetchInterval: REFRESH_MS,
  });
  const resend = async (delivery: DeliveryView) => {
    try {
      await api.post(`${path}/${delivery.id}/resend`);
      void message.success(t('resent'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.records(path) });
    } catch (err) {
      void message.error(errorText(err, t));
    }
  };

  return (
    <Table<DeliveryView>
      size="small"
      rowKey="id"
      loading={page.isLoading}
      dataSource={page.data?.deliveries ?? []}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('noDeliveries') }}
      columns={[
        { key: 'time', title: t('time'), render: (_, d) => zonedText(d.lastAttemptAt ?? d.createdAt, zone) },
        { key: 'event', title: t('event'), render: (_, d) => t(`eventNames.${d.event}`) },
        {
          key: 'status',
          title: t('status'),
          render: (_, d) => (
            <Tooltip title={d.lastError ?? (d.nextAttemptAt ? t('nextAttempt', { time: zonedText(d.nextAttemptAt, zone) }) : undefined)}>
              <Tag color={STATUS_COLOR[d.status]}>{t(`statuses.${d.status}`)}</Tag>
            </Tooltip>
          ),
        },
        { key: 'code', title: t('code'), render: (_, d) => d.lastStatusCode ?? '—' },
        { key: 'attempts', title: t('attempts'), dataIndex: 'attempts' },
        { key: 'eventId', title: t('eventId'), render: (_, d) => <Typography.Text code copyable={{ text: d.eventId }}>{d.eventId.slice(0, 8)}</Typography.Text> },
        {
          key: 'resend',
          title: '',
          render: (_, d) => (
            <Tooltip title={t('resend')}>
              <Button type="text" size="small" icon={<RedoOutlined />} aria-label={`${t('resend')} ${d.eventId}`} onClick={() => void resend(d)} />
            </Tooltip>
          ),
        },
      ]}
    />
  );
}

function WebhookModal({ webhook, onClose, onSaved }: { webhook: WebhookView | null; onClose(): void; onSaved(saved: WebhookView | WebhookWithSecret): Promise<void> }) {
  const { t } = useTranslation('webhooks');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    setSaving(true);
    try {
      const saved = webhook ? await api.put<WebhookView>(`${WEBHOOKS}/${webhook.id}`, values) : await api.post<WebhookWithSecret>(WEBHOOKS, values);
      void message.success(t('saved'));
      await onSaved(saved);
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={webhook ? t('editTitle') : t('createTitle')} onCancel={onClose} footer={<ModalFooter onCancel={onClose} onSave={() => void save()} saving={saving} loading={false} />} destroyOnClose>
      <Form form={form} layout="vertical" initialValues={webhook ? { url: webhook.url, events: webhook.events, active: webhook.active } : { url: '', events: [...WEBHOOK_EVENTS], active: true }}>
        <Form.Item name="url" label={t('url')} extra={t('urlHelp')} rules={[{ required: true, whitespace: true, message: t('required') }]}>
          <Input placeholder="https://" autoFocus />
        </Form.Item>
        <Form.Item name="events" label={t('events')} rules={[{ required: true, type: 'array', min: 1, message: t('eventsRequired') }]}>
          <Checkbox.Group>
            <Flex vertical gap={4}>
              {WEBHOOK_EVENTS.map((event) => (
                <Checkbox key={event} value={event}>
                  {t(`eventNames.${event}`)} <Typography.Text type="secondary">({event})</Typography.Text>
                </Checkbox>
              ))}
            </Flex>
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="active" label={t('active')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function SecretModal({ webhook, fresh, onClose, onRotated }: { webhook: WebhookWithSecret; fresh: boolean; onClose(): void; onRotated(w: WebhookWithSecret): void }) {
  const { t } = useTranslation('webhooks');
  const { message } = App.useApp();
  const rotate = async () => {
    try {
      onRotated(await api.post<WebhookWithSecret>(`${WEBHOOKS}/${webhook.id}/secret`));
    } catch (err) {
      void message.error(errorText(err, t));
    }
  };
  return (
    <Modal
      open
      title={t('secretTitle')}
      onCancel={onClose}
      footer={
        <Space>
          <Popconfirm title={t('rotate')} description={t('rotateConfirm')} onConfirm={() => void rotate()}>
            <Button>{t('rotate')}</Button>
          </Popconfirm>
          <Button type="primary" onClick={onClose}>
            {t('close')}
          </Button>
        </Space>
      }
    >
      <Flex vertical gap={12}>
        {fresh ? <Alert type="warning" showIcon message={t('secretShowOnce')} /> : null}
        <Typography.Text type="secondary">{webhook.url}</Typography.Text>
        <Input
          aria-label={t('secret')}
          readOnly
          value={webhook.secret}
          onFocus={(e) => e.currentTarget.select()}
          styles={{ input: { fontFamily: 'monospace' } }}
          suffix={<Typography.Text copyable={{ text: webhook.secret, tooltips: [t('copy'), t('copied')] }} />}
        />
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('secretHelp')}
        </Typography.Paragraph>
      </Flex>
    </Modal>
  );
}
