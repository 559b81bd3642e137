import { useState } from 'react';
import { App, Form, Modal, Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../api/errors';
import { ModalFooter } from '../../components/modal-footer';
import { PluginConnectionSections, PluginFormFields, pluginFieldsOf, pluginFieldValues, usePluginFormFields } from '../../components/plugin-form-fields';
import { useLoadOnOpen } from '../../components/use-load-on-open';
import { useSubmitGuard } from '../../components/use-submit-guard';
import { useChoices } from '../users/use-user-choices';
import { AssessmentsTab, GeneralTab, HoursTab, MessagesTab } from './connection-tabs';
import type { Connection, Provider } from './connections.types';

interface FormValues {
  name: string;
  isDefault: boolean;
  provider: Provider;
  queueIds: number[];
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  expiresInactiveMessage: string;
  ratingMessage: string;
  transferQueueId?: number;
  timeToTransfer?: number | null;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
}

type TabKey = 'general' | 'messages' | 'assessments' | 'hours' | 'integrations';

/** Which tab holds each field: a refused submit opens the tab of the first error. */
const FIELD_TABS: Record<keyof FormValues, TabKey> = {
  name: 'general',
  isDefault: 'general',
  provider: 'general',
  queueIds: 'general',
  greetingMessage: 'messages',
  complationMessage: 'messages',
  outOfHoursMessage: 'messages',
  expiresInactiveMessage: 'messages',
  ratingMessage: 'assessments',
  transferQueueId: 'hours',
  timeToTransfer: 'hours',
  expiresTicket: 'hours',
  timeUseBotQueues: 'hours',
  maxUseBotQueues: 'hours',
};

/** The spec's defaults for a new connection (maxUseBotQueues 3, expiresTicket 0, timeUseBotQueues 0). */
const DEFAULTS: FormValues = {
  name: '',
  isDefault: false,
  provider: 'baileys',
  queueIds: [],
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  expiresInactiveMessage: '',
  ratingMessage: '',
  timeToTransfer: null,
  expiresTicket: 0,
  timeUseBotQueues: 0,
  maxUseBotQueues: 3,
};


function toForm(c: Connection): FormValues {
  return {
    name: c.name,
    isDefault: c.isDefault,
    provider: c.provider,
    queueIds: c.queues.map((q) => q.id),
    greetingMessage: c.greetingMessage ?? '',
    complationMessage: c.complationMessage ?? '',
    outOfHoursMessage: c.outOfHoursMessage ?? '',
    expiresInactiveMessage: c.expiresInactiveMessage ?? '',
    ratingMessage: c.ratingMessage ?? '',
    transferQueueId: c.transferQueueId ?? undefined,
    timeToTransfer: c.timeToTransfer,
    expiresTicket: c.expiresTicket,
    timeUseBotQueues: c.timeUseBotQueues,
    maxUseBotQueues: c.maxUseBotQueues,
  };
}

export interface ConnectionModalProps {
  open: boolean;
  /** null creates a connection. */
  connectionId: number | null;
  onClose(): void;
  onSaved(connection: Connection): void;
}

/**
 * Create or edit a connection (admins): Geral, Mensagens, Avaliações, Horários de atendimento and,
 * when a plugin adds a field to it (the AI prompt of plugins/prompts), Integrações.
 */
export function ConnectionModal({ open, connectionId, onClose, onSaved }: ConnectionModalProps) {
  const { t } = useTranslation('connections');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [tab, setTab] = useState<TabKey>('general');
  const queues = useChoices('/queue', open);
  const creating = connectionId === null;
  const pluginFields = usePluginFormFields('connection');

  const loading = useLoadOnOpen<Connection>({
    open,
    path: connectionId === null ? null : `/whatsapp/${connectionId}`,
    onOpen: () => {
      form.resetFields();
      setTab('general');
    },
    onLoad: (connection) => {
      form.setFieldsValue({ ...toForm(connection), ...pluginFieldsOf(pluginFields, connection) });
    },
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  const body = (values: FormValues) => ({
    name: values.name.trim(),
    isDefault: values.isDefault,
    provider: values.provider,
    greetingMessage: values.greetingMessage,
    complationMessage: values.complationMessage,
    outOfHoursMessage: values.outOfHoursMessage,
    expiresInactiveMessage: values.expiresInactiveMessage,
    ratingMessage: values.ratingMessage,
    timeToTransfer: values.timeToTransfer ?? null,
    expiresTicket: values.expiresTicket ?? 0,
    timeUseBotQueues: values.timeUseBotQueues ?? 0,
    maxUseBotQueues: values.maxUseBotQueues ?? 0,
    // Without queues on this server the connection keeps the ones it has.
    ...(queues.status === 'ready' ? { queueIds: values.queueIds, transferQueueId: values.transferQueueId ?? null } : {}),
    ...pluginFieldValues(pluginFields, values),
  });

  const submit = (values: FormValues) =>
    guard(
      () => (creating ? api.post<Connection>('/whatsapp', body(values)) : api.put<Connection>(`/whatsapp/${connectionId}`, body(values))),
      (saved) => {
        void message.success(t('modal.saved'));
        onSaved(saved);
        onClose();
      },
    );

  const items = [
    {
      key: 'general',
      label: t('modal.tabs.general'),
      children: (
        <GeneralTab
          queues={queues}
          sections={connectionId !== null && open ? <PluginConnectionSections connectionId={connectionId} /> : null}
        />
      ),
    },
    { key: 'messages', label: t('modal.tabs.messages'), children: <MessagesTab /> },
    { key: 'assessments', label: t('modal.tabs.assessments'), children: <AssessmentsTab /> },
    { key: 'hours', label: t('modal.tabs.hours'), children: <HoursTab queues={queues} /> },
    ...(pluginFields.length > 0 ? [{ key: 'integrations', label: t('modal.tabs.integrations'), children: <PluginFormFields fields={pluginFields} /> }] : []),
  ].map((item) => ({ ...item, forceRender: true }));

  return (
    <Modal
      open={open}
      title={t(creating ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      forceRender
      width={640}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} saveLabel={creating ? t('common:actions.add') : undefined} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues>
          form={form}
          name="connection"
          layout="vertical"
          initialValues={DEFAULTS}
          onFinish={submit}
          onFinishFailed={({ errorFields }) => {
            const first = errorFields[0]?.name[0] as keyof FormValues | undefined;
            if (first) setTab(FIELD_TABS[first] ?? 'integrations');
          }}
          disabled={saving}
          requiredMark={false}
        >
          <Tabs activeKey={tab} onChange={(key) => setTab(key as TabKey)} items={items} />
        </Form>
      </Spin>
    </Modal>
  );
}
