import { useEffect, useState } from 'react';
import { Alert, App, Button, DatePicker, Form, Input, Modal, Select, Spin, Tabs, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  AttachmentField,
  companyTimezone,
  DATE_TIME_FORMAT,
  errorText,
  ModalFooter,
  useApiQuery,
  useAuth,
  useLoadOnOpen,
  useSaveRecord,
  wallClockOf,
  type TagView,
  type WhatsappView,
} from 'atende/web';
import type { ContactListChoice } from '../../contact-lists/contact-list.contract';
import type { CampaignSettingsList } from '../../settings/campaign-settings.contract';
import { campaignChannel, campaignEditable, MESSAGE_NUMBERS, type CampaignEvent, type CampaignRecord } from './campaign-record';

export interface CampaignModalProps {
  open: boolean;
  /** null creates a campaign. */
  campaignId: number | null;
  /** The user may not change campaigns (not an admin): the dialog only shows. */
  readOnly: boolean;
  onClose(): void;
}

type MessageField = `message${(typeof MESSAGE_NUMBERS)[number]}` | `confirmationMessage${(typeof MESSAGE_NUMBERS)[number]}`;

type FormValues = {
  name: string;
  confirmation: boolean;
  contactListId: number | null;
  tagListId: number | null;
  whatsappId: number | null;
  fileListId: number | null;
  scheduledAt: Dayjs | null;
} & Partial<Record<MessageField, string | null>>;

const MESSAGE_FIELDS = MESSAGE_NUMBERS.flatMap((n) => [`message${n}`, `confirmationMessage${n}`] as MessageField[]);
const FIELDS = ['name', 'confirmation', 'contactListId', 'tagListId', 'whatsappId', 'fileListId', 'scheduledAt', ...MESSAGE_FIELDS] as const;
/** What the API reads: a wall clock of the company (spec §7). */
const WALL_CLOCK = 'YYYY-MM-DD HH:mm:ss';
const BUILT_IN = ['{nome}', '{numero}', '{email}'];
/** The 'Nenhuma' choice of the tag and file list selects (a select shows no label for null). */
const NONE = 0;
const orNone = (id: number | null) => id ?? NONE;
const chosen = (id: number | null | undefined) => (id ? id : null);

function emptyValues(): FormValues {
  return {
    name: '',
    confirmation: false,
    contactListId: null,
    tagListId: NONE,
    whatsappId: null,
    fileListId: NONE,
    scheduledAt: null,
    ...Object.fromEntries(MESSAGE_FIELDS.map((f) => [f, ''])),
  };
}

/**
 * Create, edit or show a campaign (spec: Campaign dialog): name, confirmation, a contact list or a
 * tag, connection, schedule on the company's clock, file list (when the files plugin answers), five
 * message tabs each with its confirmation message when confirmation is on, and one attachment. A
 * campaign that may no longer change (spec §4) shows read-only; a CANCELADA one still saves.
 */
export function CampaignModal({ open, campaignId, readOnly: viewer, onClose }: CampaignModalProps) {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const tz = companyTimezone(user);
  const [form] = Form.useForm<FormValues>();
  const [record, setRecord] = useState<CampaignRecord | null>(null);
  const [pending, setPending] = useState<File | null>(null);
  const [removeStored, setRemoveStored] = useState(false);
  const confirmation = Form.useWatch('confirmation', form);
  const readOnly = viewer || (record !== null && !campaignEditable(record));

  const lists = useApiQuery<ContactListChoice[]>('/contact-lists/list', { enabled: open });
  const tags = useApiQuery<TagView[]>('/tags/list', { enabled: open });
  const connections = useApiQuery<WhatsappView[]>('/whatsapp', { enabled: open });
  // The files plugin may be absent: its select shows only when its list answers.
  const files = useApiQuery<{ files: { id: number; name: string }[] }>('/files', { query: { companyId: user?.companyId ?? 0 }, enabled: open });
  const settings = useApiQuery<CampaignSettingsList>('/campaign-settings', { enabled: open });
  const custom = settings.data?.find((s) => s.key === 'variables')?.value ?? [];
  const variables = [...BUILT_IN, ...(Array.isArray(custom) ? custom.map((v) => `{${v.key}}`) : [])].join(', ');

  const { saving, startFrom, submit: save } = useSaveRecord<CampaignRecord>({
    path: '/campaigns',
    form,
    fields: FIELDS,
    errorText: (err) => errorText(err, t),
    savedText: t('campaigns.modal.saved'),
    onSaved: onClose,
  });

  const loading = useLoadOnOpen<CampaignRecord>({
    open,
    path: campaignId === null ? null : `/campaigns/${campaignId}`,
    onOpen: () => {
      form.resetFields();
      form.setFieldsValue(emptyValues());
      setRecord(null);
      startFrom(campaignId);
      setPending(null);
      setRemoveStored(false);
    },
    onLoad: (campaign) => {
      setRecord(campaign);
      form.setFieldsValue({
        ...emptyValues(),
        ...Object.fromEntries(MESSAGE_FIELDS.map((f) => [f, campaign[f] ?? ''])),
        name: campaign.name,
        confirmation: campaign.confirmation,
        contactListId: campaign.contactListId,
        tagListId: orNone(campaign.tagListId),
        whatsappId: campaign.whatsappId,
        fileListId: orNone(campaign.fileListId),
        scheduledAt: campaign.scheduledAt ? wallClockOf(campaign.scheduledAt, tz) : null,
      });
    },
    errorText: (err) => errorText(err, t),
    onClose,
  });

  // The dispatch may start (or delete) the campaign shown: the dialog turns read-only, or closes.
  useEffect(() => {
    if (!open || !user || campaignId === null) return;
    return realtime.on(campaignChannel(user.companyId), (data) => {
      const frame = data as CampaignEvent;
      if (frame.record.id !== campaignId) return;
      if (frame.action === 'delete') onClose();
      else setRecord(frame.record);
    });
  }, [open, user, realtime, campaignId, onClose]);

  const submit = (shown: FormValues) => {
    // The confirmation messages hidden while confirmation is off are kept as they were.
    const values: FormValues = { ...form.getFieldsValue(true), ...shown };
    const body = {
      ...Object.fromEntries(MESSAGE_FIELDS.map((f) => [f, values[f]?.trim() ? values[f] : null])),
      name: values.name.trim(),
      confirmation: values.confirmation,
      contactListId: chosen(values.contactListId),
      tagListId: chosen(values.tagListId),
      whatsappId: chosen(values.whatsappId),
      fileListId: chosen(values.fileListId),
      scheduledAt: values.scheduledAt ? values.scheduledAt.format(WALL_CLOCK) : '',
    };
    return save(body, { attachment: { file: pending, removeStored } });
  };

  const storedName = record?.mediaName ?? null;
  const attachmentName = pending?.name ?? (removeStored ? null : storedName);
  let title = t('campaigns.modal.addTitle');
  if (record) title = readOnly ? t('campaigns.modal.viewTitle') : t('campaigns.modal.editTitle');
  const footer = readOnly ? (
    <Button onClick={onClose}>{t('common:actions.close')}</Button>
  ) : (
    <ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />
  );
  const none = { value: NONE, label: t('campaigns.modal.none') };

  return (
    <Modal open={open} title={title} onCancel={onClose} destroyOnHidden width={720} footer={footer}>
      <Spin spinning={loading}>
        {record && readOnly && !viewer ? <Alert type="info" showIcon title={t('campaigns.modal.readOnly')} style={{ marginBottom: 16 }} /> : null}
        <Form<FormValues> form={form} name="campaign" layout="vertical" onFinish={submit} disabled={saving || readOnly} requiredMark={false}>
          <Form.Item
            name="name"
            label={t('campaigns.modal.name')}
            rules={[
              { required: true, whitespace: true, message: t('validation.required') },
              { min: 2, transform: (v: string) => v?.trim(), message: t('validation.tooShort') },
            ]}
          >
            <Input maxLength={50} autoComplete="off" autoFocus />
          </Form.Item>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', columnGap: 16 }}>
            <Form.Item name="confirmation" label={t('campaigns.modal.confirmation')}>
              <Select
                options={[
                  { value: false, label: t('campaigns.disabled') },
                  { value: true, label: t('campaigns.enabled') },
                ]}
                aria-label={t('campaigns.modal.confirmation')}
              />
            </Form.Item>
            <Form.Item name="whatsappId" label={t('campaigns.modal.whatsapp')}>
              <Select
                allowClear
                loading={connections.isLoading}
                options={(connections.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
                aria-label={t('campaigns.modal.whatsapp')}
              />
            </Form.Item>
            <Form.Item name="contactListId" label={t('campaigns.modal.contactList')} extra={readOnly ? undefined : t('campaigns.modal.audienceHint')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                loading={lists.isLoading}
                options={(lists.data ?? []).map((l) => ({ value: l.id, label: `${l.name} (${l.contactsCount})` }))}
                onChange={(id: number | undefined) => id && form.setFieldValue('tagListId', NONE)}
                aria-label={t('campaigns.modal.contactList')}
              />
            </Form.Item>
            <Form.Item name="tagListId" label={t('campaigns.modal.tagList')}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={tags.isLoading}
                options={[none, ...(tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }))]}
                onChange={(id: number) => id !== NONE && form.setFieldValue('contactListId', null)}
                aria-label={t('campaigns.modal.tagList')}
              />
            </Form.Item>
            <Form.Item name="scheduledAt" label={t('campaigns.modal.scheduledAt')} extra={readOnly ? undefined : t('campaigns.modal.timezoneHint', { timezone: tz })}>
              <DatePicker
                showTime={{ format: 'HH:mm' }}
                format={DATE_TIME_FORMAT}
                needConfirm={false}
                disabledDate={(day) => day.isBefore(wallClockOf(new Date(), tz).startOf('day'))}
                style={{ width: '100%' }}
                aria-label={t('campaigns.modal.scheduledAt')}
              />
            </Form.Item>
            {files.isError ? null : (
              <Form.Item name="fileListId" label={t('campaigns.modal.fileList')} extra={readOnly ? undefined : t('campaigns.modal.fileListHint')}>
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={files.isLoading}
                  options={[none, ...(files.data?.files ?? []).map((f) => ({ value: f.id, label: f.name }))]}
                  aria-label={t('campaigns.modal.fileList')}
                />
              </Form.Item>
            )}
          </div>
          <Tabs
            size="small"
            items={MESSAGE_NUMBERS.map((n) => ({
              key: String(n),
              label: t('campaigns.modal.tab', { n }),
              // Every tab's fields stay in the form, whichever tab is shown.
              forceRender: true,
              children: (
                <>
                  <Form.Item name={`message${n}`} label={t('campaigns.modal.message')}>
                    <Input.TextArea rows={4} maxLength={4096} style={{ resize: 'vertical' }} aria-label={`${t('campaigns.modal.message')} ${n}`} />
                  </Form.Item>
                  {confirmation ? (
                    <Form.Item name={`confirmationMessage${n}`} label={t('campaigns.modal.confirmationMessage')}>
                      <Input.TextArea rows={3} maxLength={4096} style={{ resize: 'vertical' }} aria-label={`${t('campaigns.modal.confirmationMessage')} ${n}`} />
                    </Form.Item>
                  ) : null}
                </>
              ),
            }))}
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
            {t('campaigns.modal.variablesHint', { variables })}
          </Typography.Paragraph>
          {readOnly && !attachmentName ? null : (
            <Form.Item label={t('campaigns.modal.attachment')} style={{ marginBottom: 0 }}>
              <AttachmentField
                fileName={attachmentName}
                onPick={setPending}
                onTooLarge={() => void message.error(t('campaigns.modal.tooLarge'))}
                onRemove={() => {
                  setPending(null);
                  setRemoveStored(true);
                }}
                labels={{ attach: t('campaigns.modal.attach'), replace: t('campaigns.modal.replaceAttachment'), remove: t('campaigns.modal.removeAttachment') }}
                disabled={readOnly || saving}
                testId="campaign-attachment"
              />
            </Form.Item>
          )}
        </Form>
      </Spin>
    </Modal>
  );
}
