import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { errorText } from '../../../api/errors';
import type { ChatMessage, MessageEditBody } from '../../../api/types';
import { ModalFooter } from '../../../components/modal-footer';
import { useSubmitGuard } from '../../../components/use-submit-guard';

export interface EditMessageModalProps {
  /** The own text message being edited; null when closed. */
  message: ChatMessage | null;
  onClose(): void;
  onSaved(message: ChatMessage): void;
}

/** Edits the text of an own message (PUT /messages/:id). */
export function EditMessageModal({ message, onClose, onSaved }: EditMessageModalProps) {
  const { t } = useTranslation('conversation');
  const [form] = Form.useForm<{ body: string }>();
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  const submit = ({ body }: { body: string }) => {
    if (!message) return;
    if (body.trim() === message.body.trim()) {
      onClose();
      return;
    }
    void guard(
      () => api.put<ChatMessage>(`/messages/${message.id}`, { body: body.trim() } satisfies MessageEditBody),
      (saved) => {
        onSaved(saved);
        onClose();
      },
    );
  };

  return (
    <Modal
      open={message !== null}
      title={t('messages.editTitle')}
      onCancel={onClose}
      destroyOnHidden
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={false} saveLabel={t('messages.editSave')} />}
    >
      <Form form={form} key={message?.id} initialValues={{ body: message?.body ?? '' }} onFinish={submit} requiredMark={false}>
        <Form.Item name="body" rules={[{ required: true, whitespace: true, message: t('messages.editRequired') }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} aria-label={t('messages.editTitle')} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
