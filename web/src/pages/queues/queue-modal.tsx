import { useState } from 'react';
import { Alert, App, Button, Col, Flex, Form, Input, InputNumber, Modal, Result, Row, Spin, Tabs } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ModalFooter } from '../../components/modal-footer';
import { PluginFormFields, pluginFieldsOf, pluginFieldValues, usePluginFormFields } from '../../components/plugin-form-fields';
import { useLoadOnOpen } from '../../components/use-load-on-open';
import { useSubmitGuard } from '../../components/use-submit-guard';
import { fromWeekRows, toWeekRows, WeekHoursFields, type DayHours } from '../../components/week-hours-fields';
import { ColorField, HEX_COLOR } from './color-field';
import { errorText } from '../../api/errors';
import type { QueueCreateBody, QueueUpdateBody } from '../../api/types';
import { QueueOptionsEditor } from './queue-options-editor';
import type { Queue } from './queues.types';

interface FormValues {
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  days: DayHours[];
}

type TabKey = 'data' | 'schedules' | 'options';

export interface QueueModalProps {
  open: boolean;
  /** null creates a queue. */
  queueId: number | null;
  /** The company's scheduleType setting: 'queue' shows the out-of-hours message and the week. */
  queueSchedules: boolean;
  /** The other queues, to refuse a colour already taken before asking the server. */
  queues: Queue[];
  onClose(): void;
  onSaved(queue: Queue): void;
}

/** The spec's default week for a new queue (the server applies the same). */
const DEFAULT_WEEK: DayHours[] = [
  ...Array.from({ length: 5 }, () => ({ startTime: '08:00', endTime: '18:00' })),
  { startTime: '08:00', endTime: '12:00' },
  { startTime: '00:00', endTime: '00:00' },
];
const DEFAULTS: FormValues = { name: '', color: '', orderQueue: null, greetingMessage: '', outOfHoursMessage: '', days: DEFAULT_WEEK };

const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

function toForm(queue: Queue): FormValues {
  return {
    name: queue.name,
    color: queue.color,
    orderQueue: queue.orderQueue,
    greetingMessage: queue.greetingMessage,
    outOfHoursMessage: queue.outOfHoursMessage,
    days: toWeekRows(queue.schedules),
  };
}

/**
 * Create or edit a queue: its data, its working hours (when the company manages hours per queue;
 * kept in the form until saved) and its chatbot options (saved one by one, once the queue exists).
 */
export function QueueModal({ open, queueId, queueSchedules, queues, onClose, onSaved }: QueueModalProps) {
  const { t } = useTranslation('queues');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [tab, setTab] = useState<TabKey>('data');
  // A queue created here stays open as an edit when the admin goes on to its options.
  const [savedId, setSavedId] = useState<number | null>(null);
  const currentId = queueId ?? savedId;
  // The plugins' fields (the AI prompt answering in the queue), loaded and sent with the queue's.
  const pluginFields = usePluginFormFields('queue');

  const loading = useLoadOnOpen<Queue>({
    open,
    path: queueId === null ? null : `/queue/${queueId}`,
    onOpen: () => {
      form.resetFields();
      setTab('data');
      setSavedId(null);
    },
    onLoad: (queue) => form.setFieldsValue({ ...toForm(queue), ...pluginFieldsOf(pluginFields, queue) }),
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  // One body for both: the create's fields, every one of which an update accepts too.
  const body = (values: FormValues): QueueCreateBody & QueueUpdateBody => ({
    name: values.name.trim(),
    color: values.color.trim(),
    orderQueue: values.orderQueue ?? null,
    greetingMessage: values.greetingMessage?.trim() ?? '',
    // Hours and the out-of-hours message are only shown, hence only sent, when queues keep hours.
    ...(queueSchedules ? { outOfHoursMessage: values.outOfHoursMessage?.trim() ?? '', schedules: fromWeekRows(values.days) } : {}),
    ...pluginFieldValues(pluginFields, values),
  });

  /** Saves; `stay` keeps the modal open on the options of the queue just created. */
  const save = async (stay: boolean) => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch (info) {
      const fields = (info as { errorFields?: { name: (string | number)[] }[] }).errorFields ?? [];
      setTab(fields.some((f) => f.name[0] !== 'days') ? 'data' : 'schedules');
      return;
    }
    await guard(
      () => (currentId === null ? api.post<Queue>('/queue', body(values)) : api.put<Queue>(`/queue/${currentId}`, body(values))),
      (saved) => {
        void message.success(t('saved'));
        onSaved(saved);
        if (stay) {
          setSavedId(saved.id);
          setTab('options');
        } else onClose();
      },
    );
  };

  const required = { required: true, whitespace: true, message: t('validation.required') };
  const colorFree = async (_: unknown, value: string) => {
    const taken = queues.some((q) => q.id !== currentId && q.color.toLowerCase() === value?.trim().toLowerCase());
    if (taken) throw new Error(t('validation.colorTaken'));
  };

  const dataTab = (
    <>
      <Row gutter={16}>
        <Col xs={24} sm={14}>
          <Form.Item
            name="name"
            label={t('modal.name')}
            rules={[required, { min: 2, transform: trim, message: t('validation.tooShort') }, { max: 50, transform: trim, message: t('validation.tooLong') }]}
          >
            <Input autoFocus autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={10}>
          <Form.Item
            name="color"
            label={t('modal.color')}
            rules={[
              required,
              { min: 3, message: t('validation.tooShort') },
              { max: 9, message: t('validation.tooLong') },
              { pattern: HEX_COLOR, message: t('validation.invalidColor') },
              { validator: colorFree },
            ]}
          >
            <ColorField />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="orderQueue" label={t('modal.order')} extra={t('modal.orderHint')} rules={[{ type: 'integer', min: 0, message: t('validation.wholeNumber') }]}>
        <InputNumber min={0} precision={0} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="greetingMessage" label={t('modal.greeting')} rules={[{ max: 5000, message: t('validation.tooLong') }]}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} />
      </Form.Item>
      {queueSchedules ? (
        <Form.Item name="outOfHoursMessage" label={t('modal.outOfHours')} rules={[{ max: 5000, message: t('validation.tooLong') }]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} />
        </Form.Item>
      ) : null}
      <PluginFormFields fields={pluginFields} />
    </>
  );

  const optionsTab =
    currentId === null ? (
      <Result
        status="info"
        title={t('modal.saveFirst')}
        extra={
          <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save(true)}>
            {t('modal.saveAndContinue')}
          </Button>
        }
      />
    ) : (
      <QueueOptionsEditor queueId={currentId} />
    );

  const items = [
    { key: 'data', label: t('modal.tabs.data'), children: dataTab, forceRender: true },
    ...(queueSchedules
      ? [
          {
            key: 'schedules',
            label: t('modal.tabs.schedules'),
            forceRender: true,
            children: (
              <Flex vertical gap={8}>
                <Alert type="info" showIcon title={t('modal.schedulesHint')} />
                <WeekHoursFields name="days" />
              </Flex>
            ),
          },
        ]
      : []),
    { key: 'options', label: t('modal.tabs.options'), children: optionsTab },
  ];

  return (
    <Modal
      open={open}
      title={t(currentId === null ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      forceRender
      width={720}
      footer={<ModalFooter onCancel={onClose} onSave={() => void save(false)} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name="queue" layout="vertical" initialValues={DEFAULTS} disabled={saving} requiredMark={false}>
          <Tabs activeKey={tab} onChange={(key) => setTab(key as TabKey)} items={items} />
        </Form>
      </Spin>
    </Modal>
  );
}
