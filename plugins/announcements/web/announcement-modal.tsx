import { useState } from 'react';
import { App, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AttachmentField, errorText, ModalFooter, useSaveRecord } from 'atende/web';
import { IMAGE_ACCEPT, MAX_IMAGE_BYTES, PRIORITIES, type AnnouncementPriority, type AnnouncementRecord } from './announcement-record';

export interface AnnouncementModalProps {
  open: boolean;
  /** The announcement to edit; null writes a new one. */
  record: AnnouncementRecord | null;
  onClose(): void;
}

interface FormValues {
  title: string;
  text: string;
  status: boolean;
  priority: AnnouncementPriority;
}

const FIELDS = ['title', 'text', 'status', 'priority'] as const;
const IMAGE_NAME = /\.(png|jpe?g)$/i;

/**
 * Write an announcement (spec: title, text, status Ativo/Inativo, priority Alta/Média/Baixa and a
 * png/jpg/jpeg image). The image is uploaded once the announcement is saved; the server checks
 * its bytes, so a renamed file is refused there too. Mounted afresh for each opening (a `key`).
 */
export function AnnouncementModal({ open, record, onClose }: AnnouncementModalProps) {
  const { t } = useTranslation('announcements');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [pending, setPending] = useState<File | null>(null);
  const [removeStored, setRemoveStored] = useState(false);
  const { saving, submit: save } = useSaveRecord<AnnouncementRecord>({
    path: '/announcements',
    form,
    fields: FIELDS,
    recordId: record?.id ?? null,
    errorText: (err) => errorText(err, t),
    savedText: t('modal.saved'),
    onSaved: onClose,
  });

  const submit = (values: FormValues) => {
    const body = { title: values.title.trim(), text: values.text.trim(), status: values.status, priority: values.priority };
    return save(body, { attachment: { file: pending, removeStored } });
  };

  const imageName = pending?.name ?? (removeStored ? null : (record?.mediaName ?? null));
  const required = { required: true, whitespace: true, message: t('validation.required') };

  return (
    <Modal
      open={open}
      title={t(record ? 'modal.editTitle' : 'modal.addTitle')}
      onCancel={onClose}
      destroyOnHidden
      width={560}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={false} />}
    >
      <Form<FormValues>
        form={form}
        name="announcement"
        layout="vertical"
        onFinish={submit}
        disabled={saving}
        requiredMark={false}
        initialValues={record ? { title: record.title, text: record.text, status: record.status, priority: record.priority } : { title: '', text: '', status: true, priority: 3 }}
      >
        <Form.Item name="title" label={t('modal.title')} rules={[required]}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="text" label={t('modal.text')} rules={[required]}>
          <Input.TextArea rows={5} maxLength={10_000} style={{ resize: 'vertical' }} />
        </Form.Item>
        <div style={{ display: 'flex', columnGap: 12, flexWrap: 'wrap' }}>
          <Form.Item name="status" label={t('modal.status')} style={{ flex: '1 1 160px' }}>
            <Select
              options={[
                { value: true, label: t('status.active') },
                { value: false, label: t('status.inactive') },
              ]}
            />
          </Form.Item>
          <Form.Item name="priority" label={t('modal.priority')} style={{ flex: '1 1 160px' }}>
            <Select options={PRIORITIES.map((p) => ({ value: p, label: t(`priority.${p}`) }))} />
          </Form.Item>
        </div>
        <Form.Item label={t('modal.image')} extra={t('modal.imageHint')} style={{ marginBottom: 0 }}>
          <AttachmentField
            fileName={imageName}
            accept={IMAGE_ACCEPT}
            maxBytes={MAX_IMAGE_BYTES}
            onPick={(file) => {
              if (!IMAGE_NAME.test(file.name)) {
                void message.error(t('validation.notAnImage'));
                return;
              }
              setPending(file);
            }}
            onTooLarge={() => void message.error(t('validation.tooLarge'))}
            onRemove={() => {
              setPending(null);
              setRemoveStored(true);
            }}
            labels={{ attach: t('modal.attach'), replace: t('modal.replace'), remove: t('modal.remove') }}
            disabled={saving}
            testId="announcement-image"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
