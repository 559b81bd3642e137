import { App, Form, Input, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError, ErrorCode, errorText, ModalFooter, useLoadOnOpen, useSubmitGuard } from 'atende/web';
import type { ContactListItemRecord } from './contact-list-record';

export interface ContactListItemModalProps {
  open: boolean;
  contactListId: number;
  /** null adds a contact. */
  itemId: number | null;
  onClose(): void;
}

interface FormValues {
  name: string;
  number: string;
  email: string;
}

const FIELDS = ['name', 'number', 'email'] as const;
const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** The server's 400 about a field, shown under that field. */
function fieldErrors(err: unknown): { name: (typeof FIELDS)[number]; errors: string[] }[] | null {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.ERR_VALIDATION) return null;
  const issues = (err.details?.issues ?? []) as { path: string; message: string }[];
  const known = issues.filter((i) => (FIELDS as readonly string[]).includes(i.path));
  return known.length > 0 ? known.map((i) => ({ name: i.path as (typeof FIELDS)[number], errors: [i.message] })) : null;
}

/** Add or edit a list's contact: name, number (kept canonical by the server) and e-mail, with the spec's messages. */
export function ContactListItemModal({ open, contactListId, itemId, onClose }: ContactListItemModalProps) {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const loading = useLoadOnOpen<ContactListItemRecord>({
    open,
    path: itemId === null ? null : `/contact-list-items/${itemId}`,
    onOpen: () => form.setFieldsValue({ name: '', number: '', email: '' }),
    onLoad: (item) => form.setFieldsValue({ name: item.name, number: item.number, email: item.email }),
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  const submit = (values: FormValues) => {
    const body = { name: values.name.trim(), number: values.number.trim(), email: (values.email ?? '').trim() };
    return guard(
      async () => {
        try {
          return itemId === null ? await api.post('/contact-list-items', { ...body, contactListId }) : await api.put(`/contact-list-items/${itemId}`, body);
        } catch (err) {
          const fields = fieldErrors(err);
          if (!fields) throw err;
          form.setFields(fields);
          return null;
        }
      },
      (saved) => {
        if (!saved) return;
        void message.success(t('items.saved'));
        onClose();
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t(itemId === null ? 'items.modal.addTitle' : 'items.modal.editTitle')}
      onCancel={onClose}
      destroyOnHidden
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name="contactListItem" layout="vertical" onFinish={submit} disabled={saving} requiredMark={false}>
          <Form.Item
            name="name"
            label={t('items.modal.name')}
            rules={[
              { required: true, whitespace: true, message: t('validation.required') },
              { min: 2, transform: trim, message: t('validation.tooShort') },
              { max: 50, transform: trim, message: t('validation.tooLong') },
            ]}
          >
            <Input autoComplete="off" autoFocus />
          </Form.Item>
          <Form.Item
            name="number"
            label={t('items.modal.number')}
            rules={[
              { required: true, whitespace: true, message: t('validation.required') },
              { min: 8, transform: (v: unknown) => (typeof v === 'string' ? v.replace(/\D/g, '') : v), message: t('validation.tooShort') },
              { max: 50, transform: (v: unknown) => (typeof v === 'string' ? v.replace(/\D/g, '') : v), message: t('validation.tooLong') },
            ]}
          >
            <Input placeholder="5541998608485" inputMode="tel" autoComplete="off" />
          </Form.Item>
          <Form.Item name="email" label={t('items.modal.email')} rules={[{ type: 'email', transform: trim, message: t('validation.invalidEmail') }]}>
            <Input type="email" autoComplete="off" />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
