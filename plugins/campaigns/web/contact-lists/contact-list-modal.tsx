import { App, Form, Input, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, errorText, ModalFooter, useLoadOnOpen, useSubmitGuard } from 'atende/web';
import type { ContactListRecord } from './contact-list-record';

export interface ContactListModalProps {
  open: boolean;
  /** null adds a list. */
  contactListId: number | null;
  onClose(): void;
}

/** Add or rename a contact list: one name field (spec: Contact lists). */
export function ContactListModal({ open, contactListId, onClose }: ContactListModalProps) {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const loading = useLoadOnOpen<ContactListRecord>({
    open,
    path: contactListId === null ? null : `/contact-lists/${contactListId}`,
    onOpen: () => form.setFieldsValue({ name: '' }),
    onLoad: (list) => form.setFieldsValue({ name: list.name }),
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  const submit = ({ name }: { name: string }) =>
    guard(
      () => (contactListId === null ? api.post('/contact-lists', { name: name.trim() }) : api.put(`/contact-lists/${contactListId}`, { name: name.trim() })),
      () => {
        void message.success(t('lists.saved'));
        onClose();
      },
    );

  return (
    <Modal
      open={open}
      title={t(contactListId === null ? 'lists.modal.addTitle' : 'lists.modal.editTitle')}
      onCancel={onClose}
      destroyOnHidden
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form form={form} name="contactList" layout="vertical" onFinish={submit} disabled={saving} requiredMark={false}>
          <Form.Item name="name" label={t('lists.modal.name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input maxLength={100} autoComplete="off" autoFocus />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
