import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, App, Button, DatePicker, Flex, Form, Input, Modal, Select, Spin, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  AttachmentField,
  companyTimezone,
  DATE_TIME_FORMAT,
  errorText,
  ModalFooter,
  useAuth,
  useContactSearch,
  useLoadOnOpen,
  useSaveRecord,
  wallClockOf,
  zonedText,
  type ContactChoice,
} from 'atende/web';
import { mayChange, scheduleChannel, WALL_CLOCK, type ScheduleFrame, type ScheduleRecord } from './schedule-record';

/** What opens the dialog: a schedule to show, or a new one (for a contact, on a day). */
export interface ScheduleTarget {
  /** null creates a schedule. */
  scheduleId: number | null;
  /** The contact of a new schedule (the contacts page's action, /schedules?contactId=). */
  contactId?: number;
  /** The day of a new schedule, YYYY-MM-DD in the company's timezone (a calendar day clicked). */
  day?: string;
}

export interface ScheduleModalProps {
  open: boolean;
  target: ScheduleTarget;
  onClose(): void;
}

interface FormValues {
  contactId?: number;
  body: string;
  sendAt?: Dayjs;
}

const FIELDS = ['contactId', 'body', 'sendAt'] as const;
const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** A new schedule's send time: now + 1 hour, on the chosen day when one was clicked (company wall clock). */
function defaultSendAt(tz: string, day?: string): Dayjs {
  const soon = wallClockOf(new Date(), tz).add(1, 'hour');
  if (!day || day === wallClockOf(new Date(), tz).format('YYYY-MM-DD')) return soon;
  return dayjs(day).hour(soon.hour()).minute(soon.minute());
}

/**
 * Create, edit or show a scheduled message: contact (searched), body, send time in the company's
 * timezone and one attachment (uploaded once the schedule is saved). The title shows the status;
 * a schedule no longer editable (or not the user's) is read-only, without Save.
 */
export function ScheduleModal({ open, target, onClose }: ScheduleModalProps) {
  const { t } = useTranslation('schedules');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const tz = companyTimezone(user);
  const [form] = Form.useForm<FormValues>();
  const [record, setRecord] = useState<ScheduleRecord | null>(null);
  const [picked, setPicked] = useState<ContactChoice | null>(null);
  const [pending, setPending] = useState<File | null>(null);
  const [removeStored, setRemoveStored] = useState(false);
  const search = useContactSearch(open);
  const { setText } = search;
  const creating = target.scheduleId === null;
  const readOnly = record !== null && (!record.editable || !mayChange(record, user));

  const { saving, startFrom, submit: save } = useSaveRecord<ScheduleRecord>({
    path: '/schedules',
    form,
    fields: FIELDS,
    errorText: (err) => errorText(err, t),
    savedText: t('modal.saved'),
    onSaved: onClose,
  });

  const loading = useLoadOnOpen<ScheduleRecord>({
    open,
    path: target.scheduleId === null ? null : `/schedules/${target.scheduleId}`,
    onOpen: () => {
      form.resetFields();
      form.setFieldsValue({ body: '', contactId: undefined, sendAt: defaultSendAt(tz, target.day) });
      setRecord(null);
      startFrom(target.scheduleId);
      setPicked(null);
      setPending(null);
      setRemoveStored(false);
      setText('');
    },
    onLoad: (schedule) => {
      setRecord(schedule);
      setPicked({ id: schedule.contact.id, name: schedule.contact.name, number: schedule.contact.number });
      form.setFieldsValue({ contactId: schedule.contactId, body: schedule.body, sendAt: wallClockOf(schedule.sendAt, tz) });
    },
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const loadingContact = useLoadOnOpen<ContactChoice>({
    open,
    path: target.scheduleId === null && target.contactId !== undefined ? `/contacts/${target.contactId}` : null,
    onOpen: () => {},
    onLoad: (contact) => {
      setPicked(contact);
      form.setFieldValue('contactId', contact.id);
    },
    errorText: (err) => errorText(err, t),
    onClose,
  });

  // The shown schedule may be sent (or deleted) while the dialog is open: its status follows.
  useEffect(() => {
    if (!open || !user || target.scheduleId === null) return;
    return realtime.on(scheduleChannel(user.companyId), (data) => {
      const frame = data as ScheduleFrame;
      if (frame.action === 'delete') {
        if (frame.scheduleId === target.scheduleId) onClose();
      } else if (frame.schedule.id === target.scheduleId) {
        setRecord(frame.schedule);
      }
    });
  }, [open, user, realtime, target.scheduleId, onClose]);

  const contactOptions = useMemo(() => {
    const list = picked && !search.found.some((c) => c.id === picked.id) ? [picked, ...search.found] : search.found;
    return list.map((c) => ({ value: c.id, label: c.name, number: c.number }));
  }, [picked, search.found]);

  const submit = (values: FormValues) => {
    const body = { body: values.body.trim(), contactId: values.contactId, sendAt: values.sendAt?.format(WALL_CLOCK) };
    return save(body, { attachment: { file: pending, removeStored } });
  };

  const storedName = record?.mediaName ?? null;
  const attachmentName = pending?.name ?? (removeStored ? null : storedName);

  let notFound: ReactNode = t('modal.noContacts');
  if (search.tooShort) notFound = t('modal.typeMore');
  else if (search.searching) notFound = <Spin size="small" />;

  const title = record ? t(`modal.titles.${record.status}`) : t(creating ? 'modal.addTitle' : 'title');
  const footer = readOnly ? (
    <Button onClick={onClose}>{t('common:actions.close')}</Button>
  ) : (
    <ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading || loadingContact} />
  );

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      // Unmounted when closed: a closed dialog left in the page would keep its date popup and Escape key.
      destroyOnHidden
      width={560}
      footer={footer}
    >
      <Spin spinning={loading || loadingContact}>
        {record ? <StatusNote record={record} tz={tz} readOnly={readOnly} /> : null}
        <Form<FormValues> form={form} name="schedule" layout="vertical" onFinish={submit} disabled={saving || readOnly} requiredMark={false}>
          <Form.Item name="contactId" label={t('modal.contact')} rules={[{ required: true, message: t('validation.required') }]}>
            <Select
              showSearch={{ filterOption: false, onSearch: setText }}
              placeholder={t('modal.contactPlaceholder')}
              options={contactOptions}
              optionRender={(option) => (
                <Flex justify="space-between" gap={8}>
                  <Typography.Text ellipsis>{option.data.label}</Typography.Text>
                  <Typography.Text type="secondary">{option.data.number}</Typography.Text>
                </Flex>
              )}
              notFoundContent={notFound}
              onChange={(id: number) => setPicked(search.found.find((c) => c.id === id) ?? picked)}
              aria-label={t('modal.contact')}
              data-testid="schedule-contact"
            />
          </Form.Item>
          <Form.Item
            name="body"
            label={t('modal.body')}
            extra={readOnly ? undefined : t('modal.variablesHint', { name: '{{name}}', firstName: '{{firstName}}' })}
            rules={[
              { required: true, whitespace: true, message: t('validation.required') },
              { min: 5, transform: trim, message: t('validation.tooShort') },
            ]}
          >
            <Input.TextArea rows={5} maxLength={4096} style={{ resize: 'vertical' }} />
          </Form.Item>
          <Form.Item
            name="sendAt"
            label={t('modal.sendAt')}
            extra={t('modal.timezoneHint', { timezone: tz })}
            rules={[
              { required: true, message: t('validation.required') },
              {
                // The server takes up to a minute late; the picker's minutes make "before this minute" the same rule.
                validator: (_, value?: Dayjs) =>
                  readOnly || !value || !value.isBefore(wallClockOf(new Date(), tz).startOf('minute')) ? Promise.resolve() : Promise.reject(new Error(t('validation.future'))),
              },
            ]}
          >
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format={DATE_TIME_FORMAT}
              needConfirm={false}
              disabledDate={(day) => day.isBefore(wallClockOf(new Date(), tz).startOf('day'))}
              style={{ width: '100%' }}
            />
          </Form.Item>
          {readOnly && !attachmentName ? null : (
            <Form.Item label={t('modal.attachment')} extra={readOnly ? undefined : t('modal.attachmentHint')} style={{ marginBottom: 0 }}>
              <AttachmentField
                fileName={attachmentName}
                onPick={setPending}
                onTooLarge={() => void message.error(t('validation.tooLarge'))}
                onRemove={() => {
                  setPending(null);
                  setRemoveStored(true);
                }}
                labels={{ attach: t('modal.attach'), replace: t('modal.replaceAttachment'), remove: t('modal.removeAttachment') }}
                disabled={readOnly || saving}
                testId="schedule-attachment"
              />
            </Form.Item>
          )}
        </Form>
      </Spin>
    </Modal>
  );
}

/** What became of a schedule past PENDENTE: sent when, failing why, or waiting in the send queue. */
function StatusNote({ record, tz, readOnly }: { record: ScheduleRecord; tz: string; readOnly: boolean }) {
  const { t } = useTranslation('schedules');
  let note: ReactNode = null;
  if (record.status === 'ENVIADA') note = <Alert type="success" showIcon title={t('modal.sentAt', { date: zonedText(record.sentAt, tz) })} />;
  else if (record.status === 'ERRO') note = <Alert type="error" showIcon title={t('modal.sendError', { error: record.error ?? '' })} />;
  else if (record.status === 'AGENDADA') note = <Alert type="info" showIcon title={t('modal.queued')} />;
  else if (readOnly) note = <Alert type="info" showIcon title={t('modal.readOnly')} />;
  return note ? <div style={{ marginBottom: 16 }}>{note}</div> : null;
}
